"""Celery is just another interface to the pipeline: a task takes a run id, runs one stage
through research.pipeline, and hands over to the next stage."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError

from research import pipeline, services, steps  # noqa: F401  (steps registers the stages)
from research.models import Run

logger = logging.getLogger(__name__)

# Disk and database hiccups are worth another try; a StageError is not.
TRANSIENT = (OSError, OperationalError)


def enqueue(run_id: str, stage: str) -> bool:
    """Queue `stage` unless it is already queued, running or done."""
    if not pipeline.mark_queued(run_id, stage):
        return False
    try:
        STAGE_TASKS[stage].delay(run_id)
    except Exception:
        # The broker refused it: un-mark it, so a retry or a resume can queue it again.
        pipeline.mark_stage(services.store_for(run_id), stage, status="pending")
        raise
    return True


def advance(run_id: str, stage: str) -> str:
    result = pipeline.execute_stage(run_id, stage, lock_wait=5.0)
    if result.status == "locked":
        return result.status  # the process holding the run will hand over itself
    following = pipeline.next_stage(stage)
    if following is None:
        pipeline.finish_run(run_id, stage)
    else:
        enqueue(run_id, following)
    return result.status


def _stage_task(stage: str):
    @shared_task(
        name=f"research.{stage}",
        bind=True,
        acks_late=True,
        autoretry_for=TRANSIENT,
        retry_backoff=2,
        retry_jitter=True,
        max_retries=3,
    )
    def task(self, run_id: str) -> str:
        try:
            return advance(run_id, stage)
        except pipeline.StageError:
            return "failed"  # already recorded on the run; retrying cannot help

    return task


retrieve_task = _stage_task("retrieve")
filter_task = _stage_task("filter")
deepread_task = _stage_task("deepread")
crosscheck_task = _stage_task("crosscheck")
decide_task = _stage_task("decide")

STAGE_TASKS = {
    "retrieve": retrieve_task,
    "filter": filter_task,
    "deepread": deepread_task,
    "crosscheck": crosscheck_task,
    "decide": decide_task,
}


def start(run_id: str, stage: str = "retrieve") -> None:
    Run.objects.filter(run_id=run_id).update(status=Run.Status.QUEUED, current_stage=stage)
    enqueue(run_id, stage)


@worker_ready.connect
def _recover_on_start(**_: object) -> None:
    from research.recovery import recover_orphaned_runs

    resumed = recover_orphaned_runs()
    if resumed:
        logger.warning("resumed runs left mid-stage by a dead worker: %s", ", ".join(resumed))
