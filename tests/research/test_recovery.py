"""research.recovery.orphaned_runs(): which runs a dead worker left mid-stage."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from pathlib import Path

import pytest

from research.artifacts import STAGES
from research.recovery import orphaned_runs
from research.store import RunStore


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
