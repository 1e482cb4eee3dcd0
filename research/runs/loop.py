"""The recovery loop: a thread in every worker that makes a recovery pass over every
unfinished run each STAGE_LEASE / 3 seconds (research.runs.recovery judges each run).

Why a thread in each worker and not a Celery beat schedule: beat must run exactly once per
deployment, so it lives in one process (`worker -B`), and when that worker dies nobody is
left to notice the runs that died with it. A loop in every worker keeps recovery going for
as long as any worker is alive, needs no extra process, and does not wait behind a long
stage for a pool slot. Several passes acting at once are safe: see research.runs.recovery.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from typing import ClassVar

from django.db import close_old_connections

from research.models import Run
from research.runs import broker, rows
from research.runs.execute import never_completed
from research.runs.recovery import Recovery, out_of_space, recover_run
from research.store import store_for

logger = logging.getLogger(__name__)


def recovery_pass(lease: float) -> list[Recovery]:
    """One pass over every unfinished run; returns what was done."""
    runs = unfinished_runs()
    waiting = broker.waiting_messages(lease) if runs else set()
    done = []
    for run_id, created in runs:
        try:
            recovery = _lost(run_id, created, lease) or recover_run(run_id, lease, waiting=waiting)
        except Exception as exc:  # one damaged run must not stop the others being looked after
            if not out_of_space(run_id, exc):
                logger.exception("could not check run %s for recovery", run_id)
            continue
        if recovery.did:
            logger.warning("run %s: %s", run_id, recovery.sentence())
            done.append(recovery)
    return done


def unfinished_runs() -> list[tuple[str, datetime]]:
    """(run id, created) of every run the database says is queued or running, oldest first."""
    open_statuses = (Run.Status.QUEUED, Run.Status.RUNNING)
    found = Run.objects.filter(status__in=open_statuses).order_by("created")
    return list(found.values_list("run_id", "created"))


def _lost(run_id: str, created: datetime, lease: float) -> Recovery | None:
    """A run whose folder is gone, or was never completed, cannot go on: fail it with the
    reason. A run's row is written a moment before its folder, so a folder is waited for
    a third of the lease, one recovery pass, after the row was created."""
    store = store_for(run_id)
    # A run whose manifest alone is missing is still there: recovery rebuilds the manifest.
    if store.found() or (datetime.now(UTC) - created).total_seconds() < lease / 3:
        return None
    reason = rows.FOLDER_UNFINISHED if never_completed(store) else rows.FOLDER_GONE
    if not rows.fail_lost_run(run_id, reason):
        return Recovery(run_id, None, "", "was just failed by another process")
    return Recovery(run_id, None, "failed", f"{reason} (folder {store.location})")


class RecoveryLoop(threading.Thread):
    """The loop of one worker process, started once when the worker is ready."""

    current: ClassVar[RecoveryLoop | None] = None

    def __init__(self, lease: float) -> None:
        super().__init__(name="verdict-recovery", daemon=True)
        self.lease = lease
        self.stopping = threading.Event()

    @classmethod
    def start_once(cls, lease: float) -> RecoveryLoop:
        if cls.current is None or not cls.current.is_alive():
            cls.current = cls(lease)
            cls.current.start()
        return cls.current

    @classmethod
    def stop_running(cls) -> None:
        if cls.current is not None:
            cls.current.stopping.set()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                recovery_pass(self.lease)
            except Exception:
                logger.exception("the recovery pass failed; it tries again")
            finally:
                close_old_connections()
            self.stopping.wait(self.lease / 3)
