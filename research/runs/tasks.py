"""Celery is just another interface to the run engine: a task takes a run id, runs one
stage (research.runs.execute), and hands over to the stage research.runs.flow names.

Each stage task has a soft time limit of STAGE_TIME_LIMIT seconds, which ends the stage as
failed with a readable reason, and a hard limit STAGE_TIME_GRACE seconds later, at which the
pool kills the process running it (time limits need the prefork pool, Celery's default).
Celery loads this module, and the worker's signals (research.runs.worker), through its
`imports` setting (CELERY_IMPORTS).
"""

from __future__ import annotations

import logging

from celery import Task
from celery import chord as celery_chord
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from django.conf import settings
from django.db import OperationalError

from research import diskspace
from research.artifacts import STAGES
from research.celery import app
from research.diskspace import DiskFull
from research.models import Run
from research.runs import chord, flow
from research.runs.execute import (
    StageResult,
    TimeLimit,
    execute_stage,
    pause_point,
    wait_for_space,
)
from research.runs.manifest import fail_stage, mark_queued, mark_stage
from research.runs.spec import StageError
from research.store import StoreError, store_for

logger = logging.getLogger(__name__)

# With the Redis broker a lower number is taken first: the further along a run is, the
# sooner its next stage runs, so a run that started goes ahead of runs still waiting for
# their first stage, and queued runs finish in the order they started (first come, first
# served). Recovery and retries send with the same priority (StageTask.apply_async).
STAGE_PRIORITY = {stage: len(STAGES) - 1 - position for position, stage in enumerate(STAGES)}

# Disk and database hiccups are worth another try; a StageError is not.
TRANSIENT = (OSError, OperationalError)
SOFT_LIMIT = TimeLimit(settings.STAGE_TIME_LIMIT, (SoftTimeLimitExceeded,))


def start(run_id: str, stage: str = "retrieve") -> None:
    Run.objects.filter(run_id=run_id).update(status=Run.Status.QUEUED, current_stage=stage)
    enqueue(run_id, stage)


def enqueue(run_id: str, stage: str) -> bool:
    """Queue `stage` unless it is already queued, running or done."""
    if not mark_queued(run_id, stage):
        return False
    pause_point(run_id, f"{stage}:queued")
    try:
        STAGE_TASKS[stage].delay(run_id)
    except Exception:
        # The broker refused it: un-mark it, so a retry or a resume can queue it again.
        mark_stage(store_for(run_id), stage, status="pending")
        raise
    return True


def advance(run_id: str, stage: str) -> str:
    if stage == chord.STAGE and not settings.CELERY_TASK_ALWAYS_EAGER and chord.splits(run_id):
        result, missing = chord.start(run_id, SOFT_LIMIT)
        if result.status == "split":
            send_parts(run_id, missing)
            return result.status
    else:
        result = execute_stage(run_id, stage, lock_wait=5.0, time_limit=SOFT_LIMIT)
    return hand_over(run_id, stage, result)


def hand_over(run_id: str, stage: str, result: StageResult) -> str:
    """After a stage: queue the next one, unless the stage did not run to its end here."""
    if result.status not in ("done", "skipped"):
        # A locked run is handed over by the process holding it; a cancelled one stops; a
        # merge waiting for a part is done by the chord that part belongs to.
        return result.status
    pause_point(run_id, f"{stage}:finished")
    handover = flow.hand_over(run_id, stage)
    if handover.cancelled:
        return "cancelled"  # cancelled while this stage ran: its output stays, nothing follows
    if handover.next is not None:
        enqueue(run_id, handover.next)
        pause_point(run_id, f"{handover.next}:sent")
    return result.status


def send_parts(run_id: str, missing: list[int]) -> None:
    """Send deep-read's parts still to read as a chord whose callback merges them; with
    none missing, the merge alone. If the broker refuses, the stage stays running with no
    part beating its heartbeat, and a recovery pass sends the stage again."""
    priority = STAGE_PRIORITY[chord.STAGE]
    merge = deepread_merge.si(run_id).set(priority=priority)
    if not missing:
        merge.apply_async()
        return
    header = [deepread_part.si(run_id, number).set(priority=priority) for number in missing]
    celery_chord(header, merge).apply_async()


class StageTask(Task):
    """A stage task whose time limits are the running worker's, and that, killed at its hard
    limit, still fails its run with a reason."""

    def apply_async(self, args=None, kwargs=None, **options):
        # Celery writes the sender's limits into the message, and they win over the
        # worker's: a web process or a CLI with other settings would set the limit. Sent
        # without them, the worker applies its own STAGE_TIME_LIMIT.
        options.setdefault("time_limit", None)
        options.setdefault("soft_time_limit", None)
        stage = _stage_of(self.name)
        if stage in STAGE_PRIORITY:
            options.setdefault("priority", STAGE_PRIORITY[stage])
        return super().apply_async(args, kwargs, **options)

    def on_failure(self, exc, task_id, args, kwargs, einfo) -> None:
        # Celery calls this in the worker's main process when the hard limit has killed
        # the pool process, which had no chance to record anything itself.
        if not isinstance(exc, TimeLimitExceeded) or not args:
            return
        stage = _stage_of(self.name)
        message = (
            f"took longer than {settings.STAGE_TIME_LIMIT} s, the stage time limit "
            f"(STAGE_TIME_LIMIT), and was killed after {settings.STAGE_TIME_GRACE} s more"
        )
        fail_stage(store_for(args[0]), stage, message, only_if="running")


def _stage_of(task_name: str) -> str:
    """The stage a task works on: research.deepread.part is part of deep-read."""
    return task_name.removeprefix("research.").split(".")[0]


# What every task of a stage is: acknowledged once done (a killed worker's message is sent
# again), under the worker's time limits; a stage's own task and the merge of a split
# deep-read are also retried on a transient failure.
_TASK = dict(
    base=StageTask,
    bind=True,
    acks_late=True,
    soft_time_limit=settings.STAGE_TIME_LIMIT,
    time_limit=settings.STAGE_TIME_LIMIT + settings.STAGE_TIME_GRACE,
)
_RETRIED = dict(autoretry_for=TRANSIENT, retry_backoff=2, retry_jitter=True, max_retries=3)


def _stage_task(stage: str):
    @app.task(name=f"research.{stage}", **_TASK, **_RETRIED)
    def task(self, run_id: str) -> str:
        pause_point(run_id, f"{stage}:received")
        try:
            return advance(run_id, stage)
        except DiskFull:
            return "waiting"  # a recovery pass sends it again once there is room
        except (StageError, StoreError, SoftTimeLimitExceeded):
            return "failed"  # already recorded on the run; retrying cannot help
        except OSError as exc:
            if not diskspace.full(exc):
                raise
            wait_for_space(store_for(run_id), stage, exc)
            return "waiting"  # the handover to the next stage could not be written

    return task


STAGE_TASKS = {stage: _stage_task(stage) for stage in STAGES}


# --- a deep-read spread over workers (research.runs.chord) ---------------------------------


# ignore_result=False: a chord counts its parts by their results.
@app.task(name="research.deepread.part", ignore_result=False, **_TASK)
def deepread_part(self, run_id: str, number: int) -> str:
    """One part of a split deep-read. It never raises: a part that fails has failed the
    stage, and a raising part would keep its chord from ever calling the merge."""
    try:
        return chord.run_part(run_id, number, SOFT_LIMIT)
    except DiskFull:
        return "waiting"  # a recovery pass sends the stage again once there is room
    except (StageError, StoreError, SoftTimeLimitExceeded):
        return "failed"
    except Exception:
        logger.exception("part %s of deep-read of run %s crashed", number, run_id)
        return "failed"


@app.task(name="research.deepread.merge", **_TASK, **_RETRIED)
def deepread_merge(self, run_id: str) -> str:
    """The chord's callback: merge the parts, mark deep-read done, queue what follows."""
    try:
        return hand_over(run_id, chord.STAGE, chord.merge(run_id, SOFT_LIMIT))
    except DiskFull:
        return "waiting"
    except (StageError, StoreError, SoftTimeLimitExceeded):
        return "failed"


# The messages of the tasks a stage spreads over workers, as research.runs.broker names them.
PART_MESSAGES: dict[str, tuple[str, ...]] = {
    stage: tuple(
        task.name.removeprefix("research.")
        for task in (deepread_part, deepread_merge)
        if _stage_of(task.name) == stage
    )
    for stage in STAGES
}
