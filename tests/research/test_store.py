from __future__ import annotations

import hashlib
import json
import multiprocessing
import os

import pytest

from research.artifacts import STAGES, Candidates
from research.store import RunLocked, RunStore, StoreError


@pytest.fixture
def store(runs_dir):
    store = RunStore(runs_dir, "run1")
    store.create({"question": "A or B?"}, STAGES)
    return store


def test_it_records_every_artifact_with_its_size_and_sha256(store):
    store.write_text("round_3_pages/s1.md", "hello")
    entry = store.artifact_entry("round_3_pages/s1.md")
    assert entry == {
        "name": "round_3_pages/s1.md",
        "bytes": 5,
        "sha256": hashlib.sha256(b"hello").hexdigest(),
    }


def test_it_starts_a_manifest_with_every_stage_pending(store):
    index = store.index()
    assert list(index["stages"]) == list(STAGES)
    assert {s["status"] for s in index["stages"].values()} == {"pending"}
    assert index["params"] == {"question": "A or B?"}


@pytest.mark.parametrize(
    "name",
    [
        "../escape.json",
        "/etc/passwd",
        "a/../../b",
        "..",
        "round_3_pages/../../x",
        "a\\b",
        "",
        "a/b/c",
    ],
)
def test_it_refuses_artifact_names_that_could_escape_the_run_folder(store, name):
    with pytest.raises(StoreError):
        store.artifact_path(name)


@pytest.mark.parametrize("run_id", ["../x", "a/b", "", ".hidden", "x" * 65])
def test_it_refuses_run_ids_that_are_not_plain_names(runs_dir, run_id):
    with pytest.raises(StoreError):
        RunStore(runs_dir, run_id)


def test_a_tampered_artifact_is_no_longer_valid(store):
    store.write_json("round_1_candidates.json", Candidates(candidates=[]))
    assert store.is_valid("round_1_candidates.json", Candidates)
    path = store.artifact_path("round_1_candidates.json")
    path.write_text('{"candidates": [', encoding="utf-8")
    assert not store.is_valid("round_1_candidates.json", Candidates)


def test_writes_leave_no_temporary_files_behind(store):
    for i in range(5):
        store.write_json("round_0_plan.json", {"i": i})
    assert not [p for p in store.path.iterdir() if p.name.endswith(".tmp")]
    assert json.loads(store.read_text("round_0_plan.json")) == {"i": 4}


def test_the_log_is_append_only_json_lines(store):
    store.log("candidate_dropped", id="s1", reason="off topic")
    events = store.read_log()
    assert [e["event"] for e in events] == ["run_created", "candidate_dropped"]
    assert events[-1]["reason"] == "off topic"


def _hold_lock(root, run_id, ready, release):
    store = RunStore(root, run_id)
    with store.lock():
        ready.set()
        release.wait(10)


def test_a_second_process_cannot_take_a_held_run_lock(store):
    ready, release = multiprocessing.Event(), multiprocessing.Event()
    holder = multiprocessing.Process(
        target=_hold_lock, args=(store.root, store.run_id, ready, release)
    )
    holder.start()
    try:
        assert ready.wait(10)
        assert store.is_locked()
        with pytest.raises(RunLocked), store.lock():
            pass
    finally:
        release.set()
        holder.join(10)
    assert not store.is_locked()


def test_a_killed_lock_holder_releases_the_lock(store):
    ready, release = multiprocessing.Event(), multiprocessing.Event()
    holder = multiprocessing.Process(
        target=_hold_lock, args=(store.root, store.run_id, ready, release)
    )
    holder.start()
    assert ready.wait(10)
    os.kill(holder.pid, 9)
    holder.join(10)
    assert not store.is_locked()
