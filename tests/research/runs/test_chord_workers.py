"""A split deep-read on real Celery workers: its chord of parts spread over two workers, a
worker killed in the middle of a part, and one killed while merging. Every run ends with
the same pages and notes as one reading of all the pages, each part read to the end once."""

from __future__ import annotations

import pytest

from research.runs import tasks
from research.store import store_for
from tests.objectstore import CREDENTIALS
from tests.processes import wait_until
from tests.research.runs.test_chaos import SAFETY, wait_done, wait_paused
from tests.research.runs.test_chord import deepread_files, read_once
from tests.runs import events, serve_many_pages, served_run

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SPLIT = {"DEEPREAD_SPLIT_PAGES": "4", "DEEPREAD_PART_PAGES": "3"}
LEASE = "2"


@pytest.fixture
def base(testweb, allow_loopback) -> str:
    return serve_many_pages(testweb, count=10)


def parts_read(store) -> list[int]:
    return sorted(e["part"] for e in events(store, "part_read"))


def test_two_workers_read_the_parts_of_one_run_and_merge_what_one_reading_writes(
    workers, base, settings
):
    whole = read_once(base, settings, split=100, part=100)
    first = workers.start(**SPLIT)
    second = workers.start(**SPLIT)
    for proc in (first, second):
        workers.wait_ready(proc)
    run = served_run(base)
    tasks.start(run.run_id)
    wait_done(run, SAFETY)

    store = store_for(run.run_id)
    assert deepread_files(store) == deepread_files(whole)
    assert [e["parts"] for e in events(store, "deepread_split")] == [4]
    assert parts_read(store) == [0, 1, 2, 3]
    assert store.index()["stages"]["deepread"]["parts"]["done"] == [0, 1, 2, 3]
    assert len(events(store, "stage_finished")) == 5
    # The one that sent the chord was busy sending it while the other, idle, took a part.
    assert {e["pid"] for e in events(store, "part_started")} == {first.pid, second.pid}
    for proc in (first, second):
        assert proc.poll() is None, workers.log_of(proc)


def test_a_worker_killed_mid_part_leaves_only_that_part_and_those_after_it_to_read(
    workers, base, settings, tmp_path
):
    whole = read_once(base, settings, split=100, part=100)
    pause = tmp_path / "pause-at"
    env = {**SPLIT, "STAGE_LEASE": LEASE, "VERDICT_PAUSE_FILE": str(pause)}
    worker = workers.start(**env)
    run = served_run(base)
    pause.write_text(f"{run.run_id}:deepread:part1:running", encoding="utf-8")
    tasks.start(run.run_id)
    wait_paused(workers, worker, run.run_id, "deepread:part1:running")
    store = store_for(run.run_id)
    assert parts_read(store) == [0]

    workers.kill(worker)
    pause.write_text("", encoding="utf-8")
    workers.start(**env)
    wait_done(run, SAFETY)

    assert deepread_files(store) == deepread_files(whole)
    # Part 0 was read before the kill and not again; part 1 was started twice, read once.
    assert parts_read(store) == [0, 1, 2, 3]
    assert [e["part"] for e in events(store, "part_started")].count(0) == 1
    assert [e["part"] for e in events(store, "part_started")].count(1) == 2
    assert [e["stage"] for e in events(store, "run_recovered")] == ["deepread"]
    assert len(events(store, "stage_finished")) == 5


def test_a_worker_killed_while_merging_merges_again_without_reading_a_part_again(
    workers, base, settings, tmp_path
):
    whole = read_once(base, settings, split=100, part=100)
    pause = tmp_path / "pause-at"
    env = {**SPLIT, "STAGE_LEASE": LEASE, "VERDICT_PAUSE_FILE": str(pause)}
    worker = workers.start(**env)
    run = served_run(base)
    pause.write_text(f"{run.run_id}:deepread:merging", encoding="utf-8")
    tasks.start(run.run_id)
    wait_paused(workers, worker, run.run_id, "deepread:merging")

    workers.kill(worker)
    pause.write_text("", encoding="utf-8")
    workers.start(**env)
    wait_done(run, SAFETY)

    store = store_for(run.run_id)
    assert deepread_files(store) == deepread_files(whole)
    assert parts_read(store) == [0, 1, 2, 3]
    assert not events(store, "part_started")[4:]
    wait_until(lambda: events(store, "run_finished"), 30, "the run to be logged finished")


def test_two_workers_on_folders_of_their_own_read_the_parts_of_a_run_kept_in_a_bucket(
    workers, base, settings, s3_runs, tmp_path
):
    settings.RUNS_STORE = ""
    whole = read_once(base, settings, split=100, part=100)
    expected = deepread_files(whole)
    settings.RUNS_STORE = s3_runs.runs_store
    env = {**SPLIT, "RUNS_STORE": s3_runs.runs_store, "S3_ENDPOINT_URL": s3_runs.endpoint}
    procs = [
        workers.start(RUNS_DIR=str(tmp_path / f"host{n}"), **env, **CREDENTIALS) for n in (1, 2)
    ]
    for proc in procs:
        workers.wait_ready(proc)
    run = served_run(base)
    tasks.start(run.run_id)
    wait_done(run, SAFETY)

    store = store_for(run.run_id)
    assert deepread_files(store) == expected
    assert parts_read(store) == [0, 1, 2, 3]
    assert {e["pid"] for e in events(store, "part_started")} <= {p.pid for p in procs}
    for n in (1, 2):
        folder = tmp_path / f"host{n}"
        assert not folder.exists() or not any(folder.iterdir()), "nothing kept on a host"
