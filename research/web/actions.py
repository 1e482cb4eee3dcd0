"""Cancel a run, or re-run it from a stage: thin writes over the pipeline and its tasks.

Cancelling marks the queued or running stage cancelled and the run stopped, in the manifest
and the database, and logs it; later stages stay pending and earlier results stay on disk.
A worker mid-stage finishes that stage (its output stays valid) but queues nothing after it,
and a stage message still waiting is skipped when it arrives; a re-run clears the mark.
"""

from __future__ import annotations

import logging

from research import pipeline, repair, services, tasks
from research.models import Run
from research.names import stage_label
from research.store import StoreError, now_iso

logger = logging.getLogger(__name__)

CANCELLED = "Cancelled on request. Re-run it from any stage to continue."
UNFINISHED = ("queued", "running")


def cancel_run(run: Run, by: str = "") -> None:
    store = services.store_for(run.run_id)
    try:
        pipeline.cancel(store, by)
        stages = store.index()["stages"]
        for stage, entry in stages.items():
            if entry["status"] in UNFINISHED:
                pipeline.mark_stage(store, stage, status="cancelled", finished=now_iso(), error="")
        store.log("run_cancelled", by=by, stage=run.current_stage)
    except (StoreError, OSError) as exc:
        # Its files cannot take the mark (damaged, gone, a full disk): the database says
        # it, and nothing queues a stage of a failed run.
        logger.warning("run %s cancelled in the database only: %s", run.run_id, exc)
    services.mark_run(run.run_id, Run.Status.FAILED, run.current_stage, CANCELLED)


def rerun_from(run: Run, stage: str) -> None:
    """Run `stage` and every later one again; earlier stages keep their output. A damaged
    manifest is rebuilt first, from the files still sound."""
    store = services.store_for(run.run_id)
    damage = repair.manifest_damage(store)
    if damage is not None:
        repair.rebuild_manifest(store, damage)
    pipeline.reset_from(run.run_id, stage)
    services.mark_run(run.run_id, Run.Status.QUEUED, stage)
    tasks.start(run.run_id, stage)


def repair_run(run: Run) -> str:
    """Rebuild a damaged manifest, then carry on from the first stage whose output is not
    sound; says what was done."""
    store = services.store_for(run.run_id)
    damage = repair.manifest_damage(store)
    said = repair.rebuild_manifest(store, damage) if damage is not None else "the manifest is sound"
    stage = pipeline.first_unfinished(run.run_id)
    if stage is None:
        pipeline.finish_run(run.run_id, pipeline.active_stages()[-1])
        return f"Verdict {said}."
    rerun_from(run, stage)
    return f"Verdict {said}; the run goes on from {stage_label(stage)}."


def is_cancelled(run: Run) -> bool:
    return run.status == Run.Status.FAILED and run.error == CANCELLED
