"""The manifest's state machine: every change of a stage's status, and of the run's
cancelled and finished marks, as index.json records them.

Every change that two processes could race for goes through `transition`, a status-gated
update of the manifest: the file twin of `UPDATE ... WHERE status IN (...)` with a check
that it changed. Each change is copied to the run's rows (research.runs.rows) and
announced to whoever follows the run (research.events).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from research import events
from research.artifacts import STAGES
from research.models import Run
from research.names import FINISHED
from research.runs import rows
from research.runs.registry import active_stages, outputs_valid
from research.store import RunStore, now_iso, store_for


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
    rows.sync_stage(store.run_id, stage, entry, **extra)
    events.publish(store.run_id, stage, entry["status"])  # after the row: readers see it


def fail_stage(store: RunStore, stage: str, message: str, only_if: str | None = None) -> bool:
    """Mark `stage` failed, and the run with it, for a reason people can read. With
    `only_if`, only while the stage still has that status."""
    when = {"status": only_if} if only_if else {}
    if not transition(store, stage, when, status="failed", finished=now_iso(), error=message):
        return False
    store.log("stage_failed", stage=stage, error=message)
    rows.mark_run(store.run_id, Run.Status.FAILED, stage, f"{stage}: {message}")
    return True


def mark_queued(run_id: str, stage: str) -> bool:
    """Mark `stage` queued unless it is already queued, running or done. Returns whether
    the caller should enqueue it: this is what keeps redelivered tasks, and recovery passes
    acting at once, from forking the chain."""
    store = store_for(run_id)
    if cancelled(store):
        return False
    return transition(store, stage, {"status": ("pending", "failed")}, **queued_fields())


def queued_fields() -> dict[str, Any]:
    """What marking a stage queued writes: the time starts its lease (research.runs.recovery)."""
    return {"status": "queued", "queued_at": now_iso()}


def cancelled(store: RunStore) -> bool:
    """Whether someone cancelled the run: no stage of it is queued or started until a
    re-run clears the mark."""
    return bool(store.index().get("cancelled"))


def cancel(store: RunStore, by: str = "") -> None:
    store.update_index(lambda index: index.__setitem__("cancelled", {"by": by, "at": now_iso()}))


def reset_from(run_id: str, stage: str) -> None:
    """Mark `stage` and every later stage pending, so they run again."""
    store = store_for(run_id)
    for later in STAGES[STAGES.index(stage) :]:
        mark_stage(store, later, status="pending", started=None, finished=None, recoveries=0)
    store.update_index(lambda index: _cleared_for_rerun(index, STAGES[STAGES.index(stage) :]))
    store.log("rerun_requested", from_stage=stage)


def _cleared_for_rerun(index: dict[str, Any], again: list[str] | tuple[str, ...]) -> None:
    """A re-run is a new attempt: not finished, not cancelled, and the model worth asking
    again (its endpoint may be back), with its time afresh in the stages that run again."""
    index.pop("finished", None)
    index.pop("cancelled", None)
    for stage in again:
        index["stages"][stage].pop("parts", None)  # a split deep-read reads every part again
    analysis = index.get("analysis") or {}
    analysis.pop("model_unreachable", None)
    if isinstance(analysis.get("time_out"), list):
        analysis["time_out"] = [
            e
            for e in analysis["time_out"]
            if not isinstance(e, dict) or e.get("stage") not in again
        ]


def first_unfinished(run_id: str) -> str | None:
    """The first stage without a finished status and sound output: where a run resumes."""
    store = store_for(run_id)
    stages = store.index()["stages"]
    for stage in active_stages():
        if stages[stage]["status"] not in FINISHED or not outputs_valid(store, stage):
            return stage
    return None


def finish_run(run_id: str, last_stage: str) -> bool:
    """Mark the run done. The manifest's `finished` stamp is claimed first, so a run is
    logged finished once however many processes get here; returns whether this one did."""
    store = store_for(run_id)
    stamp = now_iso()

    def claim(index: dict[str, Any]) -> bool:
        if index.get("finished"):
            return False
        index["finished"] = stamp
        return True

    claimed = store.update_index(claim).get("finished") == stamp
    if claimed:
        store.log("run_finished")
    rows.mark_run(run_id, Run.Status.DONE, last_stage)
    events.publish(run_id, None, Run.Status.DONE)
    return claimed
