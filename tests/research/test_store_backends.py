"""The run store keeps the same promises in a folder and in a bucket: every test here runs
against both (RUNS_STORE unset, and RUNS_STORE=s3://... on a local S3 service with leases in
a local Redis)."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import threading

import pytest

from research.artifacts import STAGES, Candidates
from research.store import (
    ArtifactDamaged,
    ManifestDamaged,
    RunLocked,
    StoreError,
    readers,
    run_ids,
    store_for,
)
from research.store.errors import LeaseLost
from tests.processes import wait_until


@pytest.fixture(params=["folder", "s3"])
def kind(request, runs_dir):
    if request.param == "s3":
        request.getfixturevalue("s3_runs")
    return request.param


@pytest.fixture
def store(kind):
    store = store_for("run1")
    store.create({"question": "A or B?"}, STAGES)
    return store


def overwrite(store, name: str, data: bytes) -> None:
    """Change a file behind the manifest's back, as a disk fault or a hand edit would."""
    store.backend.write(name, data)


def test_an_artifact_reads_back_as_written_with_its_size_and_sha256_in_the_manifest(store):
    store.write_text("round_3_pages/s1.md", "héllo")
    data = "héllo".encode()
    assert store.read_text("round_3_pages/s1.md") == "héllo"
    assert store.artifact_entry("round_3_pages/s1.md") == {
        "name": "round_3_pages/s1.md",
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    assert store.has("round_3_pages/s1.md") and not store.has("report.md")


def test_an_artifact_changed_after_it_was_written_is_damaged_and_names_the_stage(store):
    store.write_json("round_1_candidates.json", Candidates(candidates=[]))
    overwrite(store, "round_1_candidates.json", b'{"candidates": [')
    with pytest.raises(ArtifactDamaged) as caught:
        store.read_bytes("round_1_candidates.json")
    assert "no longer match the checksum" in str(caught.value)
    assert "Re-run from retrieve" in str(caught.value)
    assert not store.is_valid("round_1_candidates.json", Candidates)
    assert readers.sound(store, "round_1_candidates.json") is False


def test_a_manifest_that_is_not_json_is_damaged(store):
    overwrite(store, "index.json", b"{ not json")
    with pytest.raises(ManifestDamaged, match=r"index\.json is damaged: it is not valid JSON"):
        store.index()


@pytest.mark.parametrize("name", ["../escape.json", "/etc/passwd", "a/../b", "a\\b", "", "a/b/c"])
def test_names_that_could_escape_the_run_are_refused(store, name):
    with pytest.raises(StoreError):
        store.write_text(name, "x")
    with pytest.raises(StoreError):
        store.read_bytes(name)
    with pytest.raises(StoreError):
        store.has(name)


@pytest.mark.parametrize("run_id", ["../x", "a/b", "", ".hidden", "x" * 65])
def test_run_ids_that_are_not_plain_names_are_refused(kind, run_id):
    with pytest.raises(StoreError):
        store_for(run_id)


def test_log_lines_from_many_writers_are_each_whole_and_in_each_writers_order(store):
    def write(writer: int) -> None:
        mine = store_for(store.run_id)  # each its own store, as separate workers have
        for n in range(8):
            mine.log("step", writer=writer, n=n, text="长" * 50)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    events = [e for e in store.read_log() if e["event"] == "step"]
    assert len(events) == 32
    for writer in range(4):
        assert [e["n"] for e in events if e["writer"] == writer] == list(range(8))
    assert store.read_log()[0]["event"] == "run_created"


def test_manifest_updates_from_many_writers_are_none_of_them_lost(store):
    def add(n: int) -> None:
        store_for(store.run_id).add_tokens(f"stage{n}", 1, 2)

    threads = [threading.Thread(target=add, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.index()["tokens"]["total"] == 18


def test_every_run_is_listed_from_the_store(kind):
    for run_id in ("r-b", "r-a"):
        store_for(run_id).create({"question": "?"}, STAGES)
    assert run_ids() == ["r-a", "r-b"]


def test_a_held_run_lock_keeps_a_second_holder_out_until_released(store):
    other = store_for(store.run_id)
    with store.lock():
        assert other.is_locked()
        with pytest.raises(RunLocked), other.lock():
            pass
    assert not other.is_locked()
    with other.lock():
        pass


def _hold(run_id, ready, release):
    with store_for(run_id).lock():
        ready.set()
        release.wait(30)


def test_a_killed_lock_holder_leaves_the_run_free_within_the_lease(store, kind):
    ready, release = multiprocessing.Event(), multiprocessing.Event()
    holder = multiprocessing.Process(target=_hold, args=(store.run_id, ready, release))
    holder.start()
    assert ready.wait(20)
    assert store.is_locked()
    os.kill(holder.pid, signal.SIGKILL)
    holder.join(10)
    # A kernel lock goes with its holder; a lease lapses once nobody renews it (5 s here).
    wait_until(lambda: not store.is_locked(), 20, "the dead holder's lock to be released")
    with store.lock():
        store.write_text("report.md", "taken over")
    assert store.read_text("report.md") == "taken over"


def _hold_part(run_id, part, ready, release):
    store = store_for(run_id)
    with store.lock(shared=True), store.lock(part=part):
        store.write_text(f"round_3_parts/{part}.json", part)
        ready.set()
        release.wait(30)


def test_parts_share_the_run_lock_and_write_beside_each_other_but_each_part_has_one_holder(
    store,
):
    ready, release = multiprocessing.Event(), multiprocessing.Event()
    holder = multiprocessing.Process(
        target=_hold_part, args=(store.run_id, "deepread-1", ready, release)
    )
    holder.start()
    try:
        assert ready.wait(20)
        # Another part runs and writes beside it; the same part does not, nor a whole stage.
        with store.lock(shared=True), store.lock(part="deepread-2"):
            store.write_text("round_3_parts/deepread-2.json", "deepread-2")
        with pytest.raises(RunLocked), store.lock(part="deepread-1"):
            pass
        assert store.is_locked()
        with pytest.raises(RunLocked), store.lock():
            pass
    finally:
        release.set()
        holder.join(20)
    assert holder.exitcode == 0
    assert not store.is_locked()
    with store.lock():
        store.write_text("report.md", "after the parts")
    for part in ("deepread-1", "deepread-2"):
        assert store.read_text(f"round_3_parts/{part}.json") == part
    assert store.read_text("report.md") == "after the parts"


def _stalled_part(run_id, ready, go, said):
    """A part's worker: holds the run shared, writes, and (stopped meanwhile) tries again."""
    store = store_for(run_id)
    with store.lock(shared=True), store.lock(part="deepread-0"):
        store.write_text("round_3_parts/0.json", "first")
        ready.set()
        go.wait(60)
        try:
            store.write_text("round_3_parts/0.json", "late")
            said.put("written")
        except LeaseLost as exc:
            said.put(f"refused: {exc}")


def test_a_part_whose_shared_lease_lapsed_cannot_write_after_the_run_was_taken(s3_runs):
    store = store_for("run1")
    store.create({"question": "A or B?"}, STAGES)
    ready, go, said = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
    part = multiprocessing.Process(target=_stalled_part, args=("run1", ready, go, said))
    part.start()
    try:
        assert ready.wait(20)
        os.kill(part.pid, signal.SIGSTOP)
        wait_until(lambda: not store.is_locked(), 20, "the part's shared lease to lapse")
        with store.lock():  # a recovery pass takes the run
            store.write_text("round_3_parts/0.json", "recovered")
            os.kill(part.pid, signal.SIGCONT)
            go.set()
            answer = said.get(timeout=20)
        assert answer.startswith("refused: run run1: lease lost"), answer
    finally:
        os.kill(part.pid, signal.SIGCONT)
        part.join(20)
    assert store.read_text("round_3_parts/0.json") == "recovered"


# --- fencing: a lease that lapsed cannot write over the next holder's work (bucket only) ------


def _stalled_worker(run_id, ready, go, said):
    """Worker A: takes the lease, writes, and (stopped by the test meanwhile) tries again."""
    store = store_for(run_id)
    with store.lock():
        store.write_text("report.md", "A's first report")
        ready.set()
        go.wait(60)
        for attempt in (
            lambda: store.write_text("report.md", "A's late report"),
            lambda: store.update_analysis(mode="A"),
            lambda: store.log("late", by="A"),
        ):
            try:
                attempt()
                said.put("written")
            except LeaseLost as exc:
                said.put(f"refused: {exc}")


def test_a_worker_whose_lease_lapsed_cannot_overwrite_the_next_workers_work(s3_runs):
    store = store_for("run1")
    store.create({"question": "A or B?"}, STAGES)
    ready, go, said = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
    worker_a = multiprocessing.Process(target=_stalled_worker, args=("run1", ready, go, said))
    worker_a.start()
    try:
        assert ready.wait(20)
        os.kill(worker_a.pid, signal.SIGSTOP)  # a pause long enough for its lease to lapse
        wait_until(lambda: not store.is_locked(), 20, "A's lease to lapse")
        worker_b = store_for("run1")
        with worker_b.lock():
            worker_b.write_text("report.md", "B's report")
            os.kill(worker_a.pid, signal.SIGCONT)
            go.set()
            answers = [said.get(timeout=20) for _ in range(3)]
            worker_b.log("still", by="B")
        assert all(a.startswith("refused: run run1: lease lost") for a in answers), answers
    finally:
        os.kill(worker_a.pid, signal.SIGCONT)
        worker_a.join(20)
    assert store.read_text("report.md") == "B's report"
    index = store.index()
    assert index["analysis"]["mode"] == "deterministic"
    assert index["fence"] == 2
    assert [e["event"] for e in store.read_log()] == ["run_created", "still"]
    assert json.loads(s3_runs.get("verdict/runs/run1/index.json"))["fence"] == 2


def test_runs_in_a_bucket_are_objects_named_as_the_folders_files(s3_runs):
    store = store_for("run1")
    store.create({"question": "A or B?"}, STAGES)
    store.write_texts({"round_3_pages/s1.md": "one", "report.md": "# Report"})
    assert s3_runs.object_keys() == [
        "verdict/runs/run1/index.json",
        "verdict/runs/run1/log.jsonl",
        "verdict/runs/run1/report.md",
        "verdict/runs/run1/round_3_pages/s1.md",
    ]
    assert store.location == f"s3://{s3_runs.name}/verdict/runs/run1"
    with pytest.raises(StoreError, match="not in a folder"):
        _ = store.path


def test_after_redis_forgets_its_tokens_the_next_holder_still_writes(s3_runs, redis_url):
    import redis

    store = store_for("run1")
    store.create({"question": "A or B?"}, STAGES)
    for n in range(3):
        with store.lock():
            store.write_text("report.md", f"report {n}")
    assert store.index()["fence"] == 3
    redis.Redis.from_url(redis_url).flushall()  # a restart without persistence
    with store.lock():
        store.write_text("report.md", "after the restart")
    assert store.read_text("report.md") == "after the restart"
    assert store.index()["fence"] == 4


def test_a_lease_that_lapsed_while_nobody_took_the_run_is_taken_back_by_its_holder(
    s3_runs, redis_url
):
    import redis

    store = store_for("run1")
    store.create({"question": "A or B?"}, STAGES)
    client = redis.Redis.from_url(redis_url)
    with store.lock():
        (lease_key,) = client.keys("*:run1:lease")
        client.delete(lease_key)  # as if it had lapsed during a long pause
        assert not store.is_locked()
        wait_until(store.is_locked, 10, "the holder's heartbeat to take its lease back")
        store.write_text("report.md", "still mine")
    assert store.read_text("report.md") == "still mine"
    assert not store.is_locked()
