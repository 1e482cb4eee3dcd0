"""research.runs.recovery: which runs a dead worker, a lost message or a missed handover left
behind, and how a recovery pass moves each of them on exactly once."""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from research import services
from research.artifacts import STAGES, Question
from research.models import Run
from research.runs import broker, execute, manifest, recovery, rows, tasks
from research.runs.loop import recovery_pass
from research.runs.recovery import orphaned_runs
from research.store import RunGone, RunLocked, RunStore, store_for


def make_run(root: Path, run_id: str, **statuses: str) -> RunStore:
    store = RunStore(root, run_id)
    store.create({"question": "Alderstream or Brightwell?"}, STAGES)

    def change(index: dict) -> None:
        for stage, status in statuses.items():
            index["stages"][stage]["status"] = status

    store.update_index(change)
    return store


def _hold_lock(root, run_id, ready, release):
    with RunStore(root, run_id).lock():
        ready.set()
        release.wait(10)


class LockHolder:
    """Holds a run's lock from another process, as a live worker does."""

    def __init__(self) -> None:
        self.ready = multiprocessing.Event()
        self.release = multiprocessing.Event()
        self.proc: multiprocessing.Process | None = None

    def hold(self, store: RunStore) -> None:
        self.proc = multiprocessing.Process(
            target=_hold_lock, args=(store.root, store.run_id, self.ready, self.release)
        )
        self.proc.start()
        assert self.ready.wait(10), "the lock holder did not start"

    def stop(self) -> None:
        self.release.set()
        if self.proc is not None:
            self.proc.join(10)


@pytest.fixture
def holder() -> Iterator[LockHolder]:
    holder = LockHolder()
    yield holder
    holder.stop()


def test_a_run_left_mid_stage_with_nobody_holding_its_lock_is_reported(runs_dir):
    make_run(runs_dir, "orphan", retrieve="done", filter="done", deepread="running")
    assert orphaned_runs() == [("orphan", "deepread")]


def test_a_run_whose_lock_another_process_holds_is_not_reported(runs_dir, holder):
    store = make_run(runs_dir, "busy", retrieve="done", filter="running")
    holder.hold(store)
    assert orphaned_runs() == []


def test_a_run_is_reported_once_the_process_holding_it_is_gone(runs_dir, holder):
    store = make_run(runs_dir, "busy", retrieve="running")
    holder.hold(store)
    assert orphaned_runs() == []
    holder.stop()
    assert orphaned_runs() == [("busy", "retrieve")]


@pytest.mark.parametrize(
    "statuses",
    [
        {},
        dict.fromkeys(STAGES, "done"),
        {"retrieve": "done", "filter": "failed"},
        {"retrieve": "done", "filter": "queued"},
    ],
    ids=["pending", "done", "failed", "queued"],
)
def test_a_run_with_no_stage_running_is_not_reported(runs_dir, statuses):
    make_run(runs_dir, "quiet", **statuses)
    assert orphaned_runs() == []


def test_garbage_in_the_runs_folder_is_ignored(runs_dir):
    (runs_dir / "empty-folder").mkdir()
    (runs_dir / "not a run id").mkdir()
    (runs_dir / "stray-file").write_text("hello", encoding="utf-8")
    broken = runs_dir / "broken-index"
    broken.mkdir()
    (broken / "index.json").write_text('{"stages": {', encoding="utf-8")
    make_run(runs_dir, "orphan", retrieve="running")
    assert orphaned_runs() == [("orphan", "retrieve")]


@pytest.mark.parametrize("index", ["{}", "[]", '{"stages": {"retrieve": null}}'])
def test_a_folder_whose_index_is_json_but_no_manifest_is_ignored(runs_dir, index):
    odd = runs_dir / "aaa-not-a-manifest"
    odd.mkdir()
    (odd / "index.json").write_text(index, encoding="utf-8")
    make_run(runs_dir, "orphan", retrieve="running")
    assert orphaned_runs() == [("orphan", "retrieve")]


def test_no_runs_folder_means_no_orphans(runs_dir, settings):
    settings.RUNS_DIR = runs_dir / "missing"
    assert orphaned_runs() == []


# --- the supervisor -------------------------------------------------------------------------

LEASE = 30.0


def ago(seconds: float) -> str:
    return (datetime.now(UTC) - timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def stuck_run(**stages: dict) -> RunStore:
    """A run (row and folder) whose stages' manifest entries are set as given."""
    run = services.create_run(
        Question(
            question="Choose between Alderstream and Brightwell",
            options=["Alderstream", "Brightwell"],
            sources=["ddgs"],
        )
    )
    store = store_for(run.run_id)

    def change(index: dict) -> None:
        for stage, fields in stages.items():
            index["stages"][stage].update(fields)

    store.update_index(change)
    return store


DONE = {"status": "done", "finished": ago(120)}


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, str]]:
    """The stage messages handed to the broker, as (stage, run id)."""
    messages: list[tuple[str, str]] = []
    for stage, task in tasks.STAGE_TASKS.items():
        monkeypatch.setattr(task, "delay", lambda run_id, s=stage: messages.append((s, run_id)))
    return messages


@pytest.fixture
def waiting(monkeypatch) -> set[tuple[str, str]]:
    """The messages the broker holds, as (stage, run id): none unless a test adds some."""
    messages: set[tuple[str, str]] = set()
    monkeypatch.setattr(broker, "waiting_messages", lambda lease=None: messages)
    return messages


def recovered(store: RunStore) -> list[dict]:
    return [e for e in store.read_log() if e["event"] == "run_recovered"]


def status(store: RunStore, stage: str) -> str:
    return store.index()["stages"][stage]["status"]


@pytest.mark.django_db
def test_a_stage_whose_worker_died_is_queued_again_once_its_heartbeat_is_stale(sent, waiting):
    store = stuck_run(
        retrieve=DONE, filter={"status": "running", "started": ago(100), "heartbeat": ago(40)}
    )
    [done] = recovery_pass(LEASE)
    assert (done.stage, done.did) == ("filter", "requeued")
    assert sent == [("filter", store.run_id)]
    assert status(store, "filter") == "queued"
    assert store.index()["stages"]["filter"]["recoveries"] == 1
    assert recovered(store)[0]["reason"] == "was running with no live worker"
    assert recovery_pass(LEASE) == [] and len(sent) == 1, "the fresh lease holds it back"


@pytest.mark.django_db
def test_a_running_stage_with_a_recent_heartbeat_is_left_alone(sent, waiting):
    stuck_run(retrieve={"status": "running", "started": ago(600), "heartbeat": ago(5)})
    assert recovery_pass(LEASE) == []
    assert sent == []


@pytest.mark.django_db
def test_a_running_stage_whose_lock_a_live_process_holds_is_left_alone(sent, waiting, holder):
    store = stuck_run(retrieve={"status": "running", "started": ago(600), "heartbeat": ago(60)})
    holder.hold(store)
    assert recovery_pass(LEASE) == []
    assert sent == []
    assert status(store, "retrieve") == "running"


@pytest.mark.django_db
@pytest.mark.parametrize("task", ["deepread.part", "deepread.merge"])
def test_a_split_deep_read_whose_parts_wait_for_a_worker_is_left_alone(sent, waiting, task):
    running = {"status": "running", "started": ago(100), "heartbeat": ago(40)}
    store = stuck_run(retrieve=DONE, filter=DONE, deepread=running)
    waiting.add((task, store.run_id))
    assert recovery_pass(LEASE) == []
    assert sent == []
    # Once nothing of it waits, nobody is on it: the stage is sent again.
    waiting.clear()
    [done] = recovery_pass(LEASE)
    assert (done.stage, done.did) == ("deepread", "requeued")
    assert sent == [("deepread", store.run_id)]


@pytest.mark.django_db
def test_a_queued_stage_whose_message_was_lost_is_sent_again_after_the_lease(sent, waiting):
    store = stuck_run(retrieve=DONE, filter={"status": "queued", "queued_at": ago(45)})
    [done] = recovery_pass(LEASE)
    assert (done.stage, done.did) == ("filter", "requeued")
    assert sent == [("filter", store.run_id)]
    assert "no message for it was left in the broker" in recovered(store)[0]["reason"]


@pytest.mark.parametrize(
    "queued_at, in_broker, readable",
    [(5, False, True), (45, True, True), (45, False, False)],
    ids=["within-the-lease", "message-waiting", "broker-unreadable"],
)
@pytest.mark.django_db
def test_a_queued_stage_is_left_alone_while_its_message_may_be_live(
    sent, monkeypatch, queued_at, in_broker, readable
):
    store = stuck_run(retrieve=DONE, filter={"status": "queued", "queued_at": ago(queued_at)})
    messages = {("filter", store.run_id)} if in_broker else set()
    monkeypatch.setattr(
        broker, "waiting_messages", lambda lease=None: messages if readable else None
    )
    assert recovery_pass(LEASE) == []
    assert sent == []


@pytest.mark.django_db
def test_a_finished_stage_whose_successor_was_never_queued_is_handed_over(sent, waiting):
    store = stuck_run(retrieve=DONE, filter=DONE)
    [done] = recovery_pass(LEASE)
    assert (done.stage, done.did) == ("deepread", "queued")
    assert sent == [("deepread", store.run_id)]
    assert status(store, "deepread") == "queued"
    assert recovered(store)[0]["reason"] == "was never queued after filter finished"


@pytest.mark.django_db
def test_a_stage_that_just_finished_is_left_to_hand_over_itself(sent, waiting):
    stuck_run(retrieve={"status": "done", "finished": ago(2)})
    assert recovery_pass(LEASE) == []
    assert sent == []


@pytest.mark.django_db
def test_a_run_created_but_never_queued_is_started(sent, waiting):
    store = stuck_run()
    store.update_index(lambda index: index.update(created=ago(60)))
    [done] = recovery_pass(LEASE)
    assert (done.stage, done.did) == ("retrieve", "queued")
    assert sent == [("retrieve", store.run_id)]


@pytest.mark.django_db
def test_a_run_whose_every_stage_finished_is_marked_finished_once(sent, waiting):
    store = stuck_run(**dict.fromkeys(STAGES, DONE))
    [done] = recovery_pass(LEASE)
    assert done.did == "finished"
    assert Run.objects.get(run_id=store.run_id).status == Run.Status.DONE
    assert recovery_pass(LEASE) == []
    assert manifest.finish_run(store.run_id, "decide") is False
    assert [e["event"] for e in store.read_log()].count("run_finished") == 1
    assert sent == []


@pytest.mark.django_db
def test_a_stage_running_past_its_hard_time_limit_fails_the_run_instead(sent, waiting, settings):
    settings.STAGE_TIME_LIMIT, settings.STAGE_TIME_GRACE = 60, 10
    store = stuck_run(retrieve={"status": "running", "started": ago(90), "heartbeat": ago(40)})
    [done] = recovery_pass(LEASE)
    assert done.did == "failed"
    assert sent == []
    run = Run.objects.get(run_id=store.run_id)
    assert run.status == Run.Status.FAILED
    assert run.error == "retrieve: took longer than 60 s, the stage time limit"


@pytest.mark.django_db
def test_a_stage_that_keeps_losing_its_worker_fails_the_run_with_the_reason(sent, waiting):
    running = {"status": "running", "started": ago(60), "heartbeat": ago(40)}
    store = stuck_run(retrieve=DONE, filter={**running, "recoveries": recovery.MAX_RECOVERIES})
    [done] = recovery_pass(LEASE)
    assert done.did == "failed"
    assert sent == []
    assert "lost its worker 4 times" in Run.objects.get(run_id=store.run_id).error


def created_ago(store: RunStore, seconds: float) -> None:
    when = datetime.now(UTC) - timedelta(seconds=seconds)
    Run.objects.filter(run_id=store.run_id).update(created=when)


@pytest.mark.django_db
def test_a_run_whose_folder_vanished_mid_stage_ends_failed_with_the_reason(sent, waiting):
    import shutil

    store = stuck_run(
        retrieve=DONE, deepread={"status": "running", "started": ago(5), "heartbeat": ago(1)}
    )
    Run.objects.filter(run_id=store.run_id).update(status="running", current_stage="deepread")
    created_ago(store, 60)
    shutil.rmtree(store.path)

    [done] = recovery_pass(LEASE)

    assert done.did == "failed"
    assert done.sentence().startswith("Marked the run failed: its files on the server are gone")
    run = Run.objects.get(run_id=store.run_id)
    assert (run.status, run.current_stage) == ("failed", "deepread")
    assert run.error == f"deepread: {rows.FOLDER_GONE}"
    assert run.stages.get(stage="deepread").status == "failed"
    assert recovery_pass(LEASE) == [] and sent == []
    assert not store.path.exists(), "nothing recreated the folder"


@pytest.mark.django_db
def test_a_run_whose_manifest_went_missing_gets_it_rebuilt_and_goes_on_from_its_files(
    sent, waiting
):
    from research.models import StageRun
    from tests.runs import new_run

    run = new_run()
    execute.execute_stage(run.run_id, "retrieve")
    store = store_for(run.run_id)
    Run.objects.filter(run_id=run.run_id).update(status="running", current_stage="filter")
    StageRun.objects.filter(run=run, stage="retrieve").update(
        finished=datetime.now(UTC) - timedelta(seconds=120)
    )
    created_ago(store, 300)
    (store.path / "index.json").unlink()

    [done] = recovery_pass(LEASE)

    assert (done.stage, done.did) == ("filter", "queued"), done.sentence()
    assert sent == [("filter", run.run_id)]
    index = store.index()
    assert index["rebuilt"] and index["params"]["question"] == run.question
    assert index["stages"]["retrieve"]["status"] == "done", "its candidates were sound"
    assert status(store, "filter") == "queued"
    assert Run.objects.get(run_id=run.run_id).status != "failed"


@pytest.mark.django_db
def test_a_run_whose_folder_was_never_completed_ends_failed_after_a_third_of_the_lease(
    sent, waiting
):
    store = stuck_run()
    (store.path / "index.json").rename(store.path / ".index.json.k2j3h4.tmp")
    (store.path / "log.jsonl").unlink()  # the web server died before writing either
    created_ago(store, 2)
    assert recovery_pass(LEASE) == [], "its folder may still be on its way"

    created_ago(store, LEASE / 3 + 1)
    [done] = recovery_pass(LEASE)

    assert done.did == "failed"
    run = Run.objects.get(run_id=store.run_id)
    assert run.status == "failed"
    assert run.error == f"retrieve: {rows.FOLDER_UNFINISHED}"
    assert run.stages.get(stage="retrieve").status == "failed"
    assert sent == []


@pytest.mark.django_db
def test_a_stage_started_on_a_vanished_run_folder_fails_the_run_instead_of_recreating_it():
    import shutil

    store = stuck_run()
    shutil.rmtree(store.path)

    with pytest.raises(RunGone, match="its files on the server are gone"):
        execute.execute_stage(store.run_id, "retrieve")

    assert Run.objects.get(run_id=store.run_id).status == "failed"
    assert not store.path.exists()


def test_an_artifact_written_after_its_run_folder_vanished_fails_without_recreating_it(runs_dir):
    import shutil

    store = make_run(runs_dir, "vanished")
    shutil.rmtree(store.path)

    with pytest.raises(FileNotFoundError):
        store.write_texts({"round_3_pages/s1.md": "text"})
    assert not store.path.exists()


@pytest.mark.django_db
def test_a_failed_run_is_not_touched(sent, waiting):
    store = stuck_run(retrieve={"status": "failed", "finished": ago(600), "error": "no options"})
    Run.objects.filter(run_id=store.run_id).update(status=Run.Status.FAILED)
    assert recovery_pass(LEASE) == []
    assert sent == []


@pytest.mark.django_db(transaction=True)
def test_supervisors_acting_at_once_send_one_message_and_log_one_recovery(sent, waiting):
    running = {"status": "running", "started": ago(60), "heartbeat": ago(40)}
    store = stuck_run(retrieve=DONE, filter=running)
    barrier = threading.Barrier(6)

    def supervisor() -> None:
        barrier.wait()
        for _ in range(5):
            with contextlib.suppress(RunLocked):
                recovery.recover_run(store.run_id, LEASE, waiting=set())

    threads = [threading.Thread(target=supervisor) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sent == [("filter", store.run_id)]
    assert len(recovered(store)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_handover_and_a_supervisor_racing_queue_the_next_stage_once(sent, waiting):
    store = stuck_run(retrieve=DONE)
    barrier = threading.Barrier(2)

    def worker() -> None:
        barrier.wait()
        tasks.enqueue(store.run_id, "filter")

    def supervisor() -> None:
        barrier.wait()
        with contextlib.suppress(RunLocked):
            recovery.recover_run(store.run_id, LEASE, waiting=set())

    threads = [threading.Thread(target=worker), threading.Thread(target=supervisor)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sent == [("filter", store.run_id)]


# --- at worker start, and on the operator's word --------------------------------------------


@pytest.mark.django_db
def test_a_worker_starting_resumes_orphans_without_waiting_for_their_lease(sent, waiting):
    store = stuck_run(retrieve={"status": "running", "started": ago(1), "heartbeat": ago(1)})
    assert recovery.recover_orphaned_runs() == [store.run_id]
    assert sent == [("retrieve", store.run_id)]


@pytest.mark.django_db
def test_resume_sends_a_stuck_queued_stage_again_at_once_and_says_so(sent, waiting):
    store = stuck_run(retrieve={"status": "queued", "queued_at": ago(1)})
    said = recovery.resume(store.run_id)
    assert said == (
        "Queued retrieve for the workers: it was queued, but no message for it was left "
        "in the broker."
    )
    assert sent == [("retrieve", store.run_id)]


@pytest.mark.django_db
def test_resume_leaves_a_stage_whose_message_is_waiting(sent, waiting):
    store = stuck_run(retrieve={"status": "queued", "queued_at": ago(1)})
    waiting.add(("retrieve", store.run_id))
    assert recovery.resume(store.run_id) == (
        "Nothing to do: retrieve is waiting in the queue for a free worker."
    )
    assert sent == []


@pytest.mark.django_db
def test_resume_queues_a_failed_stage_again_and_reopens_the_run(sent, waiting):
    store = stuck_run(retrieve={"status": "failed", "error": "the search timed out"})
    Run.objects.filter(run_id=store.run_id).update(status=Run.Status.FAILED, error="x")
    said = recovery.resume(store.run_id)
    assert said == "Queued retrieve for the workers: it had failed (the search timed out)."
    assert sent == [("retrieve", store.run_id)]
    run = Run.objects.get(run_id=store.run_id)
    assert (run.status, run.error) == (Run.Status.QUEUED, "")


@pytest.mark.django_db
def test_resume_leaves_a_stage_a_live_worker_is_running(sent, waiting, holder):
    store = stuck_run(retrieve={"status": "running", "started": ago(1), "heartbeat": ago(1)})
    holder.hold(store)
    assert recovery.resume(store.run_id) == (
        "Nothing to do: retrieve is being worked on by a live process."
    )
    assert sent == []


@pytest.mark.django_db
def test_resume_runs_a_finished_stage_again_when_its_output_is_gone(sent, waiting):
    store = stuck_run(retrieve={"status": "done", "finished": ago(1)})
    said = recovery.resume(store.run_id)
    assert said == "Queued retrieve for the workers: it is the first stage without valid output."
    assert sent == [("retrieve", store.run_id)]
    assert [e["from_stage"] for e in store.read_log() if e["event"] == "rerun_requested"] == [
        "retrieve"
    ]


@pytest.mark.django_db
def test_resume_says_so_when_the_broker_refuses_the_message(waiting, monkeypatch):
    store = stuck_run(retrieve={"status": "queued", "queued_at": ago(1)})

    def refuse(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.STAGE_TASKS["retrieve"], "delay", refuse)
    with pytest.raises(ConnectionError):
        recovery.resume(store.run_id)
    assert status(store, "retrieve") == "queued", "a later pass sends it again"
    assert recovered(store) == []


# --- the broker -----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_message_is_live_while_it_waits_or_was_just_taken_by_a_worker(redis_url):
    from research.celery import app

    tasks.STAGE_TASKS["filter"].delay("abc123")
    assert broker.waiting_messages(30) == {("filter", "abc123")}
    with app.connection_for_read() as connection:
        queue = connection.SimpleQueue(app.conf.task_default_queue)
        taken = queue.get(timeout=5)  # taken by a worker, not acknowledged
        assert broker.waiting_messages(30) == {("filter", "abc123")}
        assert broker.waiting_messages(0) == set(), "taken too long ago: its worker died"
        taken.ack()
        queue.close()
    assert broker.waiting_messages(30) == set()


@pytest.mark.slow
def test_every_stage_goes_to_the_queue_of_its_priority_and_is_seen_waiting_there(redis_url):
    import redis as redis_client

    from research.celery import app

    for stage in STAGES:
        tasks.STAGE_TASKS[stage].delay(f"run-{stage}")
    assert broker.waiting_messages(30) == {(s, f"run-{s}") for s in STAGES}
    client = redis_client.Redis.from_url(redis_url)
    queue = app.conf.task_default_queue
    lengths = {key: client.llen(key) for key in broker.queue_keys(queue)}
    # decide, the last stage, is taken first; retrieve, the first, last.
    assert [lengths[key] for key in broker.queue_keys(queue)[:5]] == [1, 1, 1, 1, 1]
    assert client.lindex(queue, 0) and b"research.decide" in client.lindex(queue, 0)
    assert b"research.retrieve" in client.lindex(broker.queue_keys(queue)[4], 0)


def test_an_unreadable_broker_is_reported_as_unknown(settings):
    from research.celery import app

    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    try:
        assert broker.waiting_messages(30) is None
    finally:
        app.conf.broker_url = previous
