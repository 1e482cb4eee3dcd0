"""Runs one stage of one run: load its inputs from disk, call the stage, save its outputs.

research.steps registers each stage with the artifacts it writes. Celery tasks and the
CLI both call `execute_stage`; neither holds page text or stage state in memory between
stages.
"""

from __future__ import annotations

import logging
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from research import services
from research.artifacts import STAGES
from research.models import Run
from research.stages.context import StageContext
from research.store import RunLocked, RunStore, now_iso

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
    status: str  # done | skipped | locked
    counts: dict[str, Any] = field(default_factory=dict)


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
    spec = REGISTRY[stage]
    return all(store.is_valid(name, model) for name, model in spec.outputs)


def execute_stage(
    run_id: str, stage: str, *, force: bool = False, lock_wait: float = 0.0
) -> StageResult:
    """Run `stage` for `run_id` unless its valid output is already on disk."""
    store = services.store_for(run_id)
    try:
        with store.lock(wait=lock_wait):
            return _execute_locked(store, stage, force)
    except RunLocked:
        store.log("stage_deferred", stage=stage, reason="another process holds the run")
        return StageResult(stage, "locked")


def _execute_locked(store: RunStore, stage: str, force: bool) -> StageResult:
    spec = REGISTRY[stage]
    entry = store.index()["stages"][stage]
    if not force and entry["status"] in ("done", "skipped") and outputs_valid(store, stage):
        store.log("stage_skipped", stage=stage, reason="valid output already on disk")
        return StageResult(stage, "skipped")
    mark_stage(
        store,
        stage,
        status="running",
        started=now_iso(),
        finished=None,
        attempts=entry["attempts"] + 1,
        error="",
    )
    services.mark_run(store.run_id, Run.Status.RUNNING, stage)
    store.log("stage_started", stage=stage, attempt=entry["attempts"] + 1)
    ctx = StageContext(log=store.log)
    try:
        counts = spec.run(store, ctx)
    except Exception as exc:
        _fail(store, stage, exc)
        raise
    mark_stage(store, stage, status="done", finished=now_iso(), counts=counts)
    store.log("stage_finished", stage=stage, counts=counts)
    return StageResult(stage, "done", counts)


def _fail(store: RunStore, stage: str, exc: Exception) -> None:
    if isinstance(exc, StageError):
        message = str(exc)
    else:
        logger.error("stage %s of run %s crashed\n%s", stage, store.run_id, traceback.format_exc())
        message = f"internal error during {stage} ({type(exc).__name__}); see the server log"
    mark_stage(store, stage, status="failed", finished=now_iso(), error=message)
    store.log("stage_failed", stage=stage, error=message)
    services.mark_run(store.run_id, Run.Status.FAILED, stage, f"{stage}: {message}")


def mark_stage(
    store: RunStore, stage: str, counts: dict[str, Any] | None = None, **fields: Any
) -> None:
    def change(index: dict[str, Any]) -> None:
        index["stages"][stage].update(fields)
        if counts is not None:
            index["stages"][stage]["counts"] = counts

    index = store.update_index(change)
    entry = index["stages"][stage]
    extra: dict[str, Any] = {"error": entry.get("error", "")}
    if counts is not None:
        extra["counts"] = {k: v for k, v in counts.items() if k != "outcomes"}
        extra["outcomes"] = counts.get("outcomes", {})
    services.sync_stage(store.run_id, stage, entry, **extra)


def mark_queued(run_id: str, stage: str) -> bool:
    """Mark `stage` queued unless it is already queued, running or done. Returns whether
    the caller should enqueue it: this is what keeps redelivered tasks from forking the
    chain."""
    store = services.store_for(run_id)
    entry = store.index()["stages"][stage]
    if entry["status"] in ("queued", "running", "done", "skipped"):
        return False
    mark_stage(store, stage, status="queued")
    return True


def reset_from(run_id: str, stage: str) -> None:
    """Mark `stage` and every later stage pending, so they run again."""
    store = services.store_for(run_id)
    for later in STAGES[STAGES.index(stage) :]:
        mark_stage(store, later, status="pending", started=None, finished=None)
    store.log("rerun_requested", from_stage=stage)


def first_unfinished(run_id: str) -> str | None:
    store = services.store_for(run_id)
    stages = store.index()["stages"]
    for stage in active_stages():
        if stages[stage]["status"] not in ("done", "skipped") or not outputs_valid(store, stage):
            return stage
    return None


def finish_run(run_id: str, last_stage: str) -> None:
    store = services.store_for(run_id)
    store.log("run_finished")
    services.mark_run(run_id, Run.Status.DONE, last_stage)


def outcome_counts(calls: list[Any]) -> dict[str, int]:
    return dict(Counter(str(c.outcome) for c in calls))
