"""What runs next: the one answer that the Celery tasks and the in-process CLI both use."""

from __future__ import annotations

from dataclasses import dataclass

from research.runs.manifest import cancelled, finish_run
from research.runs.registry import next_stage
from research.store import store_for


@dataclass(frozen=True)
class Handover:
    next: str | None  # the stage to run next; None when the run has finished or stopped
    cancelled: bool = False  # the run was cancelled while the stage ran


def hand_over(run_id: str, stage: str) -> Handover:
    """What follows `stage`, which has just finished: the next stage or, after the last,
    the run marked finished. A run cancelled meanwhile goes no further; the output of the
    stage that was running stays."""
    following = next_stage(stage)
    if cancelled(store_for(run_id)):
        return Handover(None, cancelled=True)
    if following is None:
        finish_run(run_id, stage)
    return Handover(following)
