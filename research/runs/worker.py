"""What a Celery worker does besides running stage tasks: when it starts, it imports every
stage's code and pays the first page extraction's one-off costs (before its pool forks, so
every child starts warm); when it is ready, it resumes the runs a dead worker left mid-stage
and starts its recovery loop; when it shuts down, it stops the loop. Celery loads this
module through its `imports` setting (CELERY_IMPORTS)."""

from __future__ import annotations

import logging

from celery.signals import worker_init, worker_process_init, worker_ready, worker_shutdown
from django.conf import settings

from research.providers import extract_pool
from research.providers.extract import warm_up
from research.runs.loop import RecoveryLoop
from research.runs.recovery import recover_orphaned_runs
from research.runs.runners import import_runners

logger = logging.getLogger(__name__)


@worker_init.connect
@worker_process_init.connect
def _warm_up_extraction(**_: object) -> None:
    # Once per process: a child forked from a warm parent finds it done, every stage's
    # code imported.
    import_runners()
    warm_up()


@worker_process_init.connect
def _start_extraction_processes(**_: object) -> None:
    # Each pool process its own (research.providers.extract_pool), started before its
    # first run reads a page.
    extract_pool.start()


@worker_ready.connect
def _recover_on_start(**_: object) -> None:
    resumed = recover_orphaned_runs()
    if resumed:
        logger.warning("resumed runs left mid-stage by a dead worker: %s", ", ".join(resumed))
    RecoveryLoop.start_once(settings.STAGE_LEASE)


@worker_shutdown.connect
def _stop_recovering(**_: object) -> None:
    RecoveryLoop.stop_running()
