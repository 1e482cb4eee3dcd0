"""Runs one stage of one run: load its inputs from disk, call the stage, save its outputs.

Celery tasks (research.runs.tasks) and the in-process CLI both call `execute_stage`;
neither holds page text or stage state in memory between stages. Which stage runs next is
research.runs.flow's to say.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import threading
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings

from research import diskspace
from research.context import StageContext
from research.models import Run
from research.names import FINISHED
from research.runs import rows
from research.runs.manifest import (
    cancelled,
    fail_stage,
    mark_stage,
    queued_fields,
    transition,
)
from research.runs.registry import REGISTRY, outputs_valid
from research.runs.spec import StageError
from research.store import (
    INDEX,
    INDEX_LOCK,
    LOCK,
    RunGone,
    RunLocked,
    RunStore,
    StoreError,
    now_iso,
    store_for,
)

logger = logging.getLogger(__name__)


@dataclass
class StageResult:
    stage: str
    status: str  # done | skipped | locked | cancelled
    counts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TimeLimit:
    """A time limit the caller enforces (Celery's soft limit): the exceptions it raises in
    the stage, and the seconds it allows, for the reason the run fails with."""

    seconds: float
    errors: tuple[type[BaseException], ...]


def execute_stage(
    run_id: str,
    stage: str,
    *,
    force: bool = False,
    lock_wait: float = 0.0,
    time_limit: TimeLimit | None = None,
) -> StageResult:
    """Run `stage` for `run_id` unless its valid output is already on disk. A run whose
    folder is gone raises RunGone, having failed the run's rows with the reason."""
    store = store_for(run_id)
    if not store.exists():
        raise lost(store)
    try:
        with disk_watched(store, stage), store.lock(wait=lock_wait):
            return _execute_locked(store, stage, force, time_limit)
    except RunLocked:
        store.log("stage_deferred", stage=stage, reason="another process holds the run")
        return StageResult(stage, "locked")


@contextlib.contextmanager
def disk_watched(store: RunStore, stage: str) -> Iterator[None]:
    """An OSError outside the stage's own work: a run folder gone fails the run, a full
    disk makes it wait for room, anything else is raised as it is."""
    try:
        yield
    except OSError as exc:
        if not store.exists():
            raise lost(store) from exc
        if diskspace.full(exc):
            raise wait_for_space(store, stage, exc) from exc
        raise


def wait_for_space(store: RunStore, stage: str, exc: BaseException) -> diskspace.DiskFull:
    """The stage could not write for want of space: it goes back to queued (in the manifest
    if a write still gets through, in the database in any case) for a recovery pass to send
    again once there is room, and the run's row says why it waits."""
    cause = diskspace.full(exc) or OSError(errno.ENOSPC, "no space left")
    with contextlib.suppress(OSError):
        transition(store, stage, {"status": "running"}, sync=False, **queued_fields(), error="")
    if rows.wait_for_space(store.run_id, stage):
        logger.warning(
            "run %s: %s is waiting for disk space: %s (run folder %s)",
            store.run_id,
            stage,
            cause.strerror or cause,
            store.location,
        )
    return diskspace.DiskFull(stage, cause)


def lost(store: RunStore, log: bool = True) -> RunGone:
    """Fail the rows of a run whose folder is gone or was never completed, and say why."""
    reason = rows.FOLDER_UNFINISHED if never_completed(store) else rows.FOLDER_GONE
    if rows.fail_lost_run(store.run_id, reason) and log:
        logger.warning("run %s stopped: %s (folder %s)", store.run_id, reason, store.location)
    return RunGone(reason)


def never_completed(store: RunStore) -> bool:
    """A run folder holding nothing but locks and the temporary file of its first manifest:
    the process creating it stopped before the manifest was in place."""
    names = store.backend.names()
    if names is None:
        return False
    return not store.exists() and all(
        name in (LOCK, INDEX_LOCK) or name.startswith(f".{INDEX}.") for name in names
    )


def _execute_locked(
    store: RunStore, stage: str, force: bool, time_limit: TimeLimit | None
) -> StageResult:
    began = begin_locked(store, stage, force)
    if isinstance(began, StageResult):
        return began
    try:
        with Heartbeat(store, stage, heartbeat_interval()):
            pause_point(store.run_id, f"{stage}:running")
            counts = REGISTRY[stage].run(store, began)
    except Exception as exc:
        failure = stage_failed(store, stage, exc, time_limit)
        if failure is exc:
            raise
        raise failure from exc
    return finish_locked(store, stage, counts)


def begin_locked(store: RunStore, stage: str, force: bool = False) -> StageResult | StageContext:
    """Start `stage`, holding the run's lock: a StageResult when it is not to run (the run
    was cancelled, or its valid output is on disk), else the stage marked running, one
    attempt more, and the context its work logs through."""
    entry = store.index()["stages"][stage]
    if cancelled(store):
        store.log("stage_not_run", stage=stage, reason="the run was cancelled")
        return StageResult(stage, "cancelled")
    if not force and entry["status"] in FINISHED and outputs_valid(store, stage):
        store.log("stage_skipped", stage=stage, reason="valid output already on disk")
        return StageResult(stage, "skipped")
    removed = store.remove_temporaries()
    if removed:
        store.log("temporary_files_removed", stage=stage, files=removed)
    started = now_iso()
    mark_stage(
        store,
        stage,
        status="running",
        started=started,
        heartbeat=started,
        finished=None,
        attempts=entry["attempts"] + 1,
        error="",
    )
    rows.mark_run(store.run_id, Run.Status.RUNNING, stage)
    store.log("stage_started", stage=stage, attempt=entry["attempts"] + 1)
    return StageContext(log=store.log)


def finish_locked(store: RunStore, stage: str, counts: dict[str, Any]) -> StageResult:
    """Mark `stage` done with its counts; its outputs are written."""
    pause_point(store.run_id, f"{stage}:written")
    mark_stage(store, stage, status="done", finished=now_iso(), counts=counts)
    store.log("stage_finished", stage=stage, counts=counts)
    return StageResult(stage, "done", counts)


def stage_failed(
    store: RunStore, stage: str, exc: Exception, time_limit: TimeLimit | None
) -> Exception:
    """What a stage's work raising `exc` becomes: RunGone for a folder gone, DiskFull for a
    full disk (the stage waits for room), else the failure recorded and `exc` itself."""
    if not store.exists():
        return lost(store)
    if diskspace.full(exc):
        return wait_for_space(store, stage, exc)
    _fail(store, stage, exc, time_limit)
    return exc


def _fail(store: RunStore, stage: str, exc: Exception, time_limit: TimeLimit | None) -> None:
    if isinstance(exc, StageError | StoreError):
        message = str(exc)
    elif time_limit is not None and isinstance(exc, time_limit.errors):
        message = (
            f"took longer than {time_limit.seconds:g} s, the stage time limit "
            "(STAGE_TIME_LIMIT), and was stopped"
        )
    else:
        logger.error("stage %s of run %s crashed\n%s", stage, store.run_id, traceback.format_exc())
        message = f"internal error during {stage} ({type(exc).__name__}); see the server log"
    fail_stage(store, stage, message)


# --- liveness -------------------------------------------------------------------------------


def heartbeat_interval() -> float:
    """Three beats per lease, so one slow write never makes a live stage look dead."""
    return settings.STAGE_LEASE / 3


class Heartbeat:
    """While a stage runs, a background thread stamps its manifest entry every few seconds,
    so a recovery pass on any machine can tell a slow stage from one whose worker died."""

    def __init__(self, store: RunStore, stage: str, every: float) -> None:
        self.store, self.stage, self.every = store, stage, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"heartbeat-{stage}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _beat(self) -> None:
        failing = False
        while not self._stop.wait(self.every):
            if self._gone():
                return  # the run folder is gone: the stage fails at its next write
            try:
                transition(
                    self.store, self.stage, {"status": "running"}, sync=False, heartbeat=now_iso()
                )
                failing = False
            except Exception as exc:  # a missed beat is no reason to stop the stage
                if not failing:  # once, not every beat, while it keeps failing
                    logger.warning(
                        "heartbeat of %s/%s failed: %s", self.store.run_id, self.stage, exc
                    )
                failing = True

    def _gone(self) -> bool:
        """Whether the run is no longer there; a bucket that does not answer for a moment
        is not a run that is gone (the beat after it tries again)."""
        try:
            return not self.store.exists()
        except StoreError:
            return False


def pause_point(run_id: str, point: str) -> None:
    """Test-only: with VERDICT_PAUSE_FILE naming a file that holds "<run_id>:<point>", a
    process that gets here stops for good, so the chaos test can SIGKILL a worker at an
    exact point of a run. The variable is never set outside that test; unset, this does
    nothing."""
    armed = os.environ.get("VERDICT_PAUSE_FILE")
    if not armed:
        return
    try:
        target = Path(armed).read_text(encoding="utf-8").strip()
    except OSError:
        return
    if target == f"{run_id}:{point}":
        logger.warning("paused at %s:%s for the chaos test", run_id, point)
        threading.Event().wait()
