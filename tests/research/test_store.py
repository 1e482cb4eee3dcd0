from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time

import pytest

from research.artifacts import STAGES, Candidates
from research.store import ArtifactDamaged, ManifestDamaged, RunLocked, RunStore, StoreError
from tests.processes import wait_until


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


def _hold_part(root, run_id, part, ready, release):
    store = RunStore(root, run_id)
    with store.lock(shared=True), store.lock(part=part):
        ready.set()
        release.wait(10)


def test_parts_share_the_run_lock_but_each_part_has_one_holder(store):
    ready, release = multiprocessing.Event(), multiprocessing.Event()
    holder = multiprocessing.Process(
        target=_hold_part, args=(store.root, store.run_id, "deepread-1", ready, release)
    )
    holder.start()
    try:
        assert ready.wait(10)
        # Another part runs beside it; the same part does not, nor does a whole stage.
        with store.lock(shared=True), store.lock(part="deepread-2"):
            pass
        with pytest.raises(RunLocked), store.lock(part="deepread-1"):
            pass
        assert store.is_locked()
        with pytest.raises(RunLocked), store.lock():
            pass
    finally:
        release.set()
        holder.join(10)
    assert not store.is_locked()
    with store.lock(part="deepread-1"):
        pass


def test_a_part_lock_needs_a_plain_name(store):
    with pytest.raises(StoreError, match="not a valid part name"), store.lock(part="../x"):
        pass


# --- names matched whole, links refused -----------------------------------------------------


@pytest.mark.parametrize("run_id", ["run1\n", "run1\r\n", "run1 ", "\nrun1"])
def test_a_run_id_with_anything_around_it_is_refused(runs_dir, run_id):
    with pytest.raises(StoreError, match="not a valid run id"):
        RunStore(runs_dir, run_id)


@pytest.mark.parametrize("name", ["report.md\n", "round_3_pages/s1.md\n", "report.md\r"])
def test_an_artifact_name_ending_in_a_line_break_is_refused(store, name):
    with pytest.raises(StoreError, match="not a valid artifact name"):
        store.artifact_path(name)


@pytest.fixture
def outside(tmp_path):
    """A file outside the run folder that a planted link points at."""
    target = tmp_path / "outside.txt"
    target.write_text("secret\n", encoding="utf-8")
    return target


def test_a_log_planted_as_a_link_is_refused_and_not_written_through(store, outside):
    store.path.joinpath("log.jsonl").unlink()
    store.path.joinpath("log.jsonl").symlink_to(outside)
    with pytest.raises(StoreError, match=r"log\.jsonl in run run1 is a symbolic link"):
        store.log("candidate_dropped", id="s1")
    with pytest.raises(StoreError, match="symbolic link"):
        store.read_log()
    assert outside.read_text(encoding="utf-8") == "secret\n"


@pytest.mark.parametrize("name", [".lock", ".index.lock"])
def test_a_lock_file_planted_as_a_link_is_refused(store, outside, name):
    store.path.joinpath(name).unlink(missing_ok=True)
    store.path.joinpath(name).symlink_to(outside)
    with pytest.raises(StoreError, match="symbolic link"):
        if name == ".lock":
            with store.lock():
                pass
        else:
            store.update_index(lambda index: None)
    assert outside.read_text(encoding="utf-8") == "secret\n"


def test_a_manifest_planted_as_a_link_is_refused(store, outside):
    store.path.joinpath("index.json").unlink()
    store.path.joinpath("index.json").symlink_to(outside)
    assert not store.exists()
    with pytest.raises(StoreError, match=r"index\.json in run run1 is a symbolic link"):
        store.index()


def test_an_artifact_planted_as_a_link_is_neither_read_nor_written_through(store, outside):
    store.write_text("report.md", "# Report\n")
    store.path.joinpath("report.md").unlink()
    store.path.joinpath("report.md").symlink_to(outside)
    with pytest.raises(StoreError, match=r"report\.md in run run1 is a symbolic link"):
        store.read_text("report.md")
    with pytest.raises(StoreError, match="symbolic link"):
        store.write_text("report.md", "overwritten")
    assert not store.is_valid("report.md")
    assert outside.read_text(encoding="utf-8") == "secret\n"


def test_a_link_to_another_file_of_the_same_run_is_refused_too(store):
    store.write_json("round_0_plan.json", {"question": "A or B?"})
    store.path.joinpath("report.md").symlink_to(store.path / "round_0_plan.json")
    with pytest.raises(StoreError, match="symbolic link"):
        store.write_text("report.md", "# Report\n")
    assert json.loads(store.read_text("round_0_plan.json")) == {"question": "A or B?"}


def test_a_pages_folder_planted_as_a_link_is_refused(store, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "s1.md").write_text("planted", encoding="utf-8")
    store.path.joinpath("round_3_pages").symlink_to(elsewhere)
    with pytest.raises(StoreError, match=r"round_3_pages/s1\.md in run run1 is a symbolic link"):
        store.read_text("round_3_pages/s1.md")
    with pytest.raises(StoreError, match="symbolic link"):
        store.write_text("round_3_pages/s2.md", "page")
    assert not (elsewhere / "s2.md").exists()


# --- leftovers and forks --------------------------------------------------------------------


def test_temporary_files_a_killed_writer_left_are_removed_and_nothing_else(store):
    store.write_text("round_3_pages/s1.md", "page")
    leftovers = [
        store.path / ".round_2_filtered.json.k2j3h4.tmp",
        store.path / "round_3_pages" / ".s2.md.x8y9z0.tmp",
        store.path / ".index.json.a1b2c3.tmp",
    ]
    for path in leftovers:
        path.write_text("half a fil", encoding="utf-8")
    assert store.remove_temporaries() == [
        ".index.json.a1b2c3.tmp",
        ".round_2_filtered.json.k2j3h4.tmp",
        "round_3_pages/.s2.md.x8y9z0.tmp",
    ]
    assert not any(path.exists() for path in leftovers)
    assert store.read_text("round_3_pages/s1.md") == "page"
    assert store.index()["run_id"] == "run1"
    assert store.remove_temporaries() == []


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def test_a_process_forked_while_a_lock_is_held_does_not_keep_the_run_locked(store):
    # A Celery prefork pool replaces a worker process by forking the parent, whose
    # supervisor thread may hold a run lock at that moment.
    fork = multiprocessing.get_context("fork")
    with store.lock():
        child = fork.Process(target=_sleep, args=(10,))
        child.start()
    try:
        wait_until(lambda: not store.is_locked(), 5, "the child to let go of the lock")
    finally:
        child.terminate()
        child.join(10)


# --- damage ---------------------------------------------------------------------------------


def test_reading_an_artifact_changed_after_it_was_written_names_it_and_the_stage_to_rerun(store):
    store.write_text("round_3_pages/s1.md", "Quillsync is MIT licensed.")
    store.artifact_path("round_3_pages/s1.md").write_text("Quillsync is", encoding="utf-8")

    with pytest.raises(ArtifactDamaged) as caught:
        store.read_text("round_3_pages/s1.md")

    assert str(caught.value) == (
        "round_3_pages/s1.md is damaged: its contents no longer match the checksum recorded "
        "when it was written (26 bytes then, 12 bytes now). Re-run from deep-read to write it "
        "again."
    )
    assert caught.value.stage == "deepread"
    assert not store.is_valid("round_3_pages/s1.md")


def test_a_recorded_artifact_that_is_missing_is_damaged_and_one_never_written_is_not_there(store):
    store.write_json("round_2_filtered.json", {"kept": [], "dropped": []})
    store.artifact_path("round_2_filtered.json").unlink()

    with pytest.raises(ArtifactDamaged, match=r"it is missing\. Re-run from filter"):
        store.read_json("round_2_filtered.json")
    with pytest.raises(FileNotFoundError):
        store.read_json("round_4_crosscheck.json")


def test_a_sound_file_that_no_longer_parses_as_its_model_is_damaged(store):
    store.write_json("round_1_candidates.json", {"candidates": "not a list"})

    with pytest.raises(ArtifactDamaged, match=r"it cannot be read .*Re-run from retrieve"):
        store.read_model("round_1_candidates.json", Candidates)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"run_id": "run1", "sta', "it is not valid JSON"),
        ("[1, 2]", "it is not a JSON object"),
        ('{"run_id": "run1"}', "it has no stages or no list of artifacts"),
    ],
)
def test_a_manifest_that_cannot_be_read_as_one_is_damaged(store, text, problem):
    store.path.joinpath("index.json").write_text(text, encoding="utf-8")

    with pytest.raises(ManifestDamaged) as caught:
        store.index()

    assert caught.value.problem.startswith(problem)
    assert "Resuming the run rebuilds it from the files that are still sound." in str(caught.value)


def test_the_log_leaves_out_a_line_that_does_not_parse(store):
    store.log("first")
    with open(store.path / "log.jsonl", "ab") as handle:
        handle.write(b'{"ts": "2026-01-01", "event": "cut sho')
    assert [e["event"] for e in store.read_log()] == ["run_created", "first"]
