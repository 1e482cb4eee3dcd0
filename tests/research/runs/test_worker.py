"""Whole runs through a real Redis broker and real Celery worker processes."""

from __future__ import annotations

import io
import time

import pytest
from django.core.management import call_command

from research.runs import manifest, rows, tasks
from research.store import RunStore, store_for
from tests.processes import wait_until
from tests.runs import assert_artifacts_intact, serve_pages, served_run

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def stage_status(store: RunStore, stage: str) -> str:
    return store.index()["stages"][stage]["status"]


def run_finished(run) -> bool:
    run.refresh_from_db()
    return run.status in ("done", "failed")


def test_a_run_goes_through_the_broker_and_a_worker_from_start_to_finish(workers, testweb):
    base = serve_pages(testweb, delay=0)
    run = served_run(base)
    workers.start()
    tasks.start(run.run_id)
    store = store_for(run.run_id)
    wait_until(lambda: run_finished(run), 90, "the run to finish")
    notes = store.read_json("round_3_notes.json")
    assert [s["status"] for s in notes["sources"]] == ["OK"] * 4
    assert all(s["key_points"] for s in notes["sources"])
    assert_artifacts_intact(store)
    assert run.status == "done"
    assert set(run.stages.values_list("status", flat=True)) == {"done"}
    assert "## Recommendation" in store.read_text("report.md")


def test_queued_runs_finish_in_the_order_they_were_submitted_not_in_lockstep(workers, testweb):
    base = serve_pages(testweb, delay=0)
    runs = [served_run(base) for _ in range(3)]
    for run in runs:
        tasks.start(run.run_id)
    workers.start()
    for run in runs:
        wait_until(lambda run=run: run_finished(run), 120, "the runs to finish")
        assert run.status == "done"
    first, second, third = runs
    # One worker: each run's next stage went ahead of the later runs' first stages.
    assert first.finished <= second.stages.get(stage="retrieve").started
    assert second.finished <= third.stages.get(stage="retrieve").started


def test_a_run_whose_folder_is_deleted_mid_stage_ends_failed_with_the_reason(
    workers, testweb, tmp_path
):
    base = serve_pages(testweb, delay=3.0)
    workers.wait_ready(workers.start(STAGE_LEASE="3"))
    run = served_run(base)
    tasks.start(run.run_id)
    store = store_for(run.run_id)
    wait_until(lambda: stage_status(store, "deepread") == "running", 60, "deep-read to start")

    store.path.rename(tmp_path / "deleted")  # gone at once, whatever the worker writes
    deleted = time.monotonic()
    wait_until(lambda: run_finished(run), 30, "the run to stop")
    took = time.monotonic() - deleted

    print(f"\nfolder deleted mid-stage: failed {took:.1f} s later: {run.error}")
    assert run.status == "failed"
    assert run.error == f"deepread: {rows.FOLDER_GONE}"
    assert run.stages.get(stage="deepread").status == "failed"
    assert not store.path.exists(), "the worker recreated the folder"


def test_a_run_whose_folder_was_never_completed_ends_failed_within_the_lease(workers, tmp_path):
    run = served_run("http://127.0.0.1:9")
    store = store_for(run.run_id)
    # The web server was killed between committing the row and writing the manifest.
    (store.path / "index.json").rename(store.path / ".index.json.a8d7f6.tmp")
    (store.path / "log.jsonl").unlink()
    workers.start(STAGE_LEASE="3")

    wait_until(lambda: run_finished(run), 30, "the run to stop")

    took = (run.finished - run.created).total_seconds()
    print(f"\nfolder never completed: failed {took:.1f} s after the row was written: {run.error}")
    assert run.status == "failed"
    assert run.error == f"retrieve: {rows.FOLDER_UNFINISHED}"


def test_a_run_whose_worker_is_killed_mid_stage_completes_after_a_restart(workers, testweb):
    base = serve_pages(testweb, delay=2.0)
    run = served_run(base)
    first = workers.start()
    tasks.start(run.run_id)
    store = store_for(run.run_id)
    wait_until(lambda: stage_status(store, "deepread") == "running", 90, "deep-read to start")
    workers.kill(first)
    assert stage_status(store, "deepread") == "running"
    assert not store.is_locked(), "the dead worker's lock was not released"

    workers.start()
    wait_until(lambda: run_finished(run), 90, "the run to finish after the restart")
    events = [e["event"] for e in store.read_log()]
    assert "run_recovered" in events
    assert store.index()["stages"]["deepread"]["attempts"] == 2
    notes = store.read_json("round_3_notes.json")
    ids = [s["source_id"] for s in notes["sources"]]
    assert len(ids) == len(set(ids)) == 4
    assert_artifacts_intact(store)
    assert run.status == "done"
    assert store.index()["stages"]["decide"]["attempts"] == 1


def test_a_surviving_worker_takes_over_the_run_of_a_killed_one(workers, testweb, tmp_path):
    base = serve_pages(testweb, delay=0)
    pause = tmp_path / "pause-at"
    env = {"STAGE_LEASE": "2", "VERDICT_PAUSE_FILE": str(pause)}
    pair = [workers.start(**env), workers.start(**env)]
    for proc in pair:
        workers.wait_ready(proc)
    run = served_run(base)
    pause.write_text(f"{run.run_id}:deepread:running", encoding="utf-8")
    tasks.start(run.run_id)
    paused = f"paused at {run.run_id}:deepread:running"
    stopped = wait_until(
        lambda: next((p for p in pair if paused in workers.log_of(p)), None), 60, "a pause"
    )
    pause.write_text("", encoding="utf-8")
    workers.kill(stopped)
    [survivor] = [p for p in pair if p is not stopped]

    wait_until(lambda: run_finished(run), 30, "the surviving worker to finish the run")
    assert run.status == "done"
    assert len(workers.procs) == 2, "no worker was started after the kill"
    store = store_for(run.run_id)
    [recovered] = [e for e in store.read_log() if e["event"] == "run_recovered"]
    assert recovered["stage"] == "deepread"
    assert f"run {run.run_id}: Queued deep-read for the workers" in workers.log_of(survivor)
    assert_artifacts_intact(store)


def slow_search(query: str) -> list[dict]:
    """Answers after the 10 s limit; past the 15 s hard limit for Cobaltline's queries."""
    time.sleep(25 if "Cobaltline" in query else 11)
    return []


def test_a_stage_past_its_time_limit_fails_the_run_with_the_reason(workers, testweb):
    base = testweb.add_searxng(slow_search)
    env = {"STAGE_TIME_LIMIT": "10", "STAGE_TIME_GRACE": "5", "SEARCH_DEADLINE": "60"}
    workers.start(pool="prefork", SEARCH_TIMEOUT="60", RETRY_TRIES="1", **env)
    # This process sends the first stage with its own STAGE_TIME_LIMIT (1800 s): the
    # worker's limit applies all the same.
    stopped, killed = served_run(base), served_run(base, "Choose between Cobaltline and Dunmore")
    for run in (stopped, killed):
        tasks.start(run.run_id)
        wait_until(lambda run=run: run_finished(run), 90, "the run to stop")
        assert run.status == "failed"
        assert stage_status(store_for(run.run_id), "retrieve") == "failed"
        assert stage_status(store_for(run.run_id), "filter") == "pending"
    # The soft limit interrupts the stage, which records why it stopped...
    assert stopped.error == (
        "retrieve: took longer than 10 s, the stage time limit (STAGE_TIME_LIMIT), and was stopped"
    )
    # ...and a stage still busy at the hard limit loses its process: the worker records it.
    assert killed.error == (
        "retrieve: took longer than 10 s, the stage time limit (STAGE_TIME_LIMIT), "
        "and was killed after 5 s more"
    )


def test_resume_queue_sends_a_run_stuck_without_a_message_again_and_says_so(workers, testweb):
    base = serve_pages(testweb, delay=0)
    workers.wait_ready(workers.start())  # the default lease: its supervisor waits 30 s
    run = served_run(base)
    manifest.mark_queued(run.run_id, "retrieve")  # queued, but its message was lost

    out = io.StringIO()
    call_command("research", "--resume", run.run_id, "--queue", stdout=out)
    assert (
        "Queued retrieve for the workers: it was queued, but no message for it was left in "
        "the broker. Follow it in the run folder's index.json."
    ) in out.getvalue()
    wait_until(lambda: run_finished(run), 60, "the resumed run to finish")
    assert run.status == "done"

    out = io.StringIO()
    call_command("research", "--resume", run.run_id, "--queue", stdout=out)
    assert "Every stage already has valid output; nothing to queue." in out.getvalue()
