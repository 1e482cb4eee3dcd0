"""Runs one stage of one run: load its inputs from disk, call the stage, save its outputs.

research.steps registers each stage with the artifacts it writes. Celery tasks and the
CLI both call `execute_stage`; neither holds page text or stage state in memory between
stages.

Every change of a stage's status that two processes could race for goes through
`transition`, a status-gated update of the manifest: the file twin of
`UPDATE ... WHERE status IN (...)` with a check that it changed.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from pydantic import BaseModel

from research import diskspace, events, services
from research.artifacts import STAGES
from research.models import Run
from research.names import FINISHED, artifact_stage
from research.stages.context import StageContext
from research.store import (
    INDEX,
    INDEX_LOCK,
    LOCK,
    ArtifactDamaged,
    RunGone,
    RunLocked,
    RunStore,
    StoreError,
    now_iso,
)

logger = logging.getLogger(__name__)


class StageError(Exception):
    """A stage could not produce valid output. The message is safe to show to users."""


@dataclass
class StageSpec:
    name: str
    outputs: list[tuple[str, type[BaseModel] | None]]
    run: Callable[[RunStore, StageContext], dict[str, Any]]


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


REGISTRY: dict[str, StageSpec] = {}


def register(spec: StageSpec) -> None:
    REGISTRY[spec.name] = spec


def active_stages() -> list[str]:
    return [s for s in STAGES if s in REGISTRY]


def next_stage(stage: str) -> str | None:
    stages = active_stages()
    position = stages.index(stage)
    return stages[position + 1] if position + 1 < len(stages) else None


def outputs_valid(store: RunStore, stage: str) -> bool:
    """Whether every file the stage wrote is there, matches its recorded sha256 and (for
    its main outputs) parses: the stage's outputs and any other file the manifest records
    for it (deep-read's stored pages)."""
    spec = REGISTRY[stage]
    if not all(store.is_valid(name, model) for name, model in spec.outputs):
        return False
    return all(store.is_valid(name) for name in _other_outputs(store, spec))


def damaged_output(store: RunStore, stage: str) -> ArtifactDamaged | None:
    """The first of the stage's recorded files that is damaged, saying how."""
    spec = REGISTRY[stage]
    recorded = set(store.artifact_names())
    checks = [(n, m) for n, m in spec.outputs if n in recorded]
    checks += [(n, None) for n in _other_outputs(store, spec)]
    return next((d for n, m in checks if (d := store.damage(n, m)) is not None), None)


def _other_outputs(store: RunStore, spec: StageSpec) -> list[str]:
    named = {name for name, _ in spec.outputs}
    return [n for n in store.artifact_names() if artifact_stage(n) == spec.name and n not in named]


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
    store = services.store_for(run_id)
    if not store.exists():
        raise lost(store)
    try:
        with store.lock(wait=lock_wait):
            return _execute_locked(store, stage, force, time_limit)
    except RunLocked:
        store.log("stage_deferred", stage=stage, reason="another process holds the run")
        return StageResult(stage, "locked")
    except OSError as exc:
        if not store.exists():
            raise lost(store) from exc
        if diskspace.full(exc):
            raise wait_for_space(store, stage, exc) from exc
        raise


def wait_for_space(store: RunStore, stage: str, exc: BaseException) -> diskspace.DiskFull:
    """The stage could not write for want of space: it goes back to queued (in the manifest
    if a write still gets through, in the database in any case) for the supervisor to send
    again once there is room, and the run's row says why it waits."""
    cause = diskspace.full(exc) or OSError(errno.ENOSPC, "no space left")
    with contextlib.suppress(OSError):
        transition(store, stage, {"status": "running"}, sync=False, **queued_fields(), error="")
    if services.wait_for_space(store.run_id, stage):
        logger.warning(
            "run %s: %s is waiting for disk space: %s (run folder %s)",
            store.run_id,
            stage,
            cause.strerror or cause,
            store.path,
        )
    return diskspace.DiskFull(stage, cause)


def lost(store: RunStore, log: bool = True) -> RunGone:
    """Fail the rows of a run whose folder is gone or was never completed, and say why."""
    reason = services.FOLDER_UNFINISHED if never_completed(store) else services.FOLDER_GONE
    if services.fail_lost_run(store.run_id, reason) and log:
        logger.warning("run %s stopped: %s (folder %s)", store.run_id, reason, store.path)
    return RunGone(reason)


def never_completed(store: RunStore) -> bool:
    """A run folder holding nothing but locks and the temporary file of its first manifest:
    the process creating it stopped before the manifest was in place."""
    try:
        names = os.listdir(store.path)
    except OSError:
        return False
    return not store.exists() and all(
        name in (LOCK, INDEX_LOCK) or name.startswith(f".{INDEX}.") for name in names
    )


def _execute_locked(
    store: RunStore, stage: str, force: bool, time_limit: TimeLimit | None
) -> StageResult:
    spec = REGISTRY[stage]
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
    services.mark_run(store.run_id, Run.Status.RUNNING, stage)
    store.log("stage_started", stage=stage, attempt=entry["attempts"] + 1)
    ctx = StageContext(log=store.log)
    try:
        with Heartbeat(store, stage, heartbeat_interval()):
            pause_point(store.run_id, f"{stage}:running")
            counts = spec.run(store, ctx)
    except Exception as exc:
        if not store.exists():
            raise lost(store) from exc
        if diskspace.full(exc):
            raise wait_for_space(store, stage, exc) from exc
        _fail(store, stage, exc, time_limit)
        raise
    pause_point(store.run_id, f"{stage}:written")
    mark_stage(store, stage, status="done", finished=now_iso(), counts=counts)
    store.log("stage_finished", stage=stage, counts=counts)
    return StageResult(stage, "done", counts)


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


def fail_stage(store: RunStore, stage: str, message: str, only_if: str | None = None) -> bool:
    """Mark `stage` failed, and the run with it, for a reason people can read. With
    `only_if`, only while the stage still has that status."""
    when = {"status": only_if} if only_if else {}
    if not transition(store, stage, when, status="failed", finished=now_iso(), error=message):
        return False
    store.log("stage_failed", stage=stage, error=message)
    services.mark_run(store.run_id, Run.Status.FAILED, stage, f"{stage}: {message}")
    return True


def mark_stage(
    store: RunStore, stage: str, counts: dict[str, Any] | None = None, **fields: Any
) -> None:
    def change(index: dict[str, Any]) -> None:
        index["stages"][stage].update(fields)
        if counts is not None:
            index["stages"][stage]["counts"] = counts

    index = store.update_index(change)
    _sync(store, stage, index["stages"][stage], counts)


def transition(
    store: RunStore, stage: str, when: Mapping[str, Any], *, sync: bool = True, **fields: Any
) -> bool:
    """Set `fields` on the stage's manifest entry only if it still matches `when` (a tuple
    means any of these values), in one locked read-modify-write. Returns whether it
    changed: of several processes racing through here, exactly one wins."""
    changed = False

    def change(index: dict[str, Any]) -> bool:
        nonlocal changed
        entry = index["stages"][stage]
        for key, expected in when.items():
            value = entry.get(key)
            if not (value in expected if isinstance(expected, tuple) else value == expected):
                return False
        entry.update(fields)
        changed = True
        return True

    index = store.update_index(change)
    if changed and sync:
        _sync(store, stage, index["stages"][stage])
    return changed


def _sync(
    store: RunStore, stage: str, entry: dict[str, Any], counts: dict[str, Any] | None = None
) -> None:
    extra: dict[str, Any] = {"error": entry.get("error", "")}
    if counts is not None:
        extra["counts"] = {k: v for k, v in counts.items() if k != "outcomes"}
        extra["outcomes"] = counts.get("outcomes", {})
    services.sync_stage(store.run_id, stage, entry, **extra)
    events.publish(store.run_id, stage, entry["status"])  # after the row: readers see it


def mark_queued(run_id: str, stage: str) -> bool:
    """Mark `stage` queued unless it is already queued, running or done. Returns whether
    the caller should enqueue it: this is what keeps redelivered tasks, and supervisors
    acting at once, from forking the chain."""
    store = services.store_for(run_id)
    if cancelled(store):
        return False
    return transition(store, stage, {"status": ("pending", "failed")}, **queued_fields())


def cancelled(store: RunStore) -> bool:
    """Whether someone cancelled the run: no stage of it is queued or started until a
    re-run clears the mark."""
    return bool(store.index().get("cancelled"))


def cancel(store: RunStore, by: str = "") -> None:
    store.update_index(lambda index: index.__setitem__("cancelled", {"by": by, "at": now_iso()}))


def queued_fields() -> dict[str, Any]:
    """What marking a stage queued writes: the time starts its lease (research.recovery)."""
    return {"status": "queued", "queued_at": now_iso()}


def reset_from(run_id: str, stage: str) -> None:
    """Mark `stage` and every later stage pending, so they run again."""
    store = services.store_for(run_id)
    for later in STAGES[STAGES.index(stage) :]:
        mark_stage(store, later, status="pending", started=None, finished=None, recoveries=0)
    store.update_index(lambda index: _cleared_for_rerun(index, STAGES[STAGES.index(stage) :]))
    store.log("rerun_requested", from_stage=stage)


def _cleared_for_rerun(index: dict[str, Any], again: list[str] | tuple[str, ...]) -> None:
    """A re-run is a new attempt: not finished, not cancelled, and the model worth asking
    again (its endpoint may be back), with its time afresh in the stages that run again."""
    index.pop("finished", None)
    index.pop("cancelled", None)
    analysis = index.get("analysis") or {}
    analysis.pop("model_unreachable", None)
    if isinstance(analysis.get("time_out"), list):
        analysis["time_out"] = [
            e
            for e in analysis["time_out"]
            if not isinstance(e, dict) or e.get("stage") not in again
        ]


def first_unfinished(run_id: str) -> str | None:
    store = services.store_for(run_id)
    stages = store.index()["stages"]
    for stage in active_stages():
        if stages[stage]["status"] not in FINISHED or not outputs_valid(store, stage):
            return stage
    return None


def finish_run(run_id: str, last_stage: str) -> bool:
    """Mark the run done. The manifest's `finished` stamp is claimed first, so a run is
    logged finished once however many processes get here; returns whether this one did."""
    store = services.store_for(run_id)
    stamp = now_iso()

    def claim(index: dict[str, Any]) -> bool:
        if index.get("finished"):
            return False
        index["finished"] = stamp
        return True

    claimed = store.update_index(claim).get("finished") == stamp
    if claimed:
        store.log("run_finished")
    services.mark_run(run_id, Run.Status.DONE, last_stage)
    events.publish(run_id, None, Run.Status.DONE)
    return claimed


# --- liveness -------------------------------------------------------------------------------


def heartbeat_interval() -> float:
    """Three beats per lease, so one slow write never makes a live stage look dead."""
    return settings.STAGE_LEASE / 3


class Heartbeat:
    """While a stage runs, a background thread stamps its manifest entry every few seconds,
    so a supervisor on any machine can tell a slow stage from one whose worker died."""

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
            if not self.store.exists():
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


def outcome_counts(calls: list[Any]) -> dict[str, int]:
    return dict(Counter(str(c.outcome) for c in calls))
