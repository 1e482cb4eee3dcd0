"""Whether a Celery worker is there to run a run's stages.

A surface that queues a run asks first, so that a person is told at once that nothing will
run it, rather than seeing the run fail later. The broker is pinged with a short timeout. A
worker that is there answers at once, and that answer is never kept: a worker stopped a
moment ago must not vouch for a run started now. "No worker" costs the whole timeout to
learn, so it is kept for a few seconds, and a burst of requests asks once.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings

from research.celery import app

logger = logging.getLogger(__name__)

PING_TIMEOUT = 1.0  # seconds a worker has to answer
KEEP_FOR = 5.0  # seconds a "no worker" answer is reused
NO_WORKER = "no worker is running; start it with make run"

_lock = threading.Lock()
_answers: dict[str, tuple[float, str | None]] = {}  # broker URL -> (when, problem)


def worker_problem() -> str | None:
    """None when a worker answered a ping (or tasks run in-process); else what is wrong."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return None
    broker = str(app.conf.broker_url)
    with _lock:
        asked = _answers.get(broker)
        if asked is not None and time.monotonic() - asked[0] < KEEP_FOR:
            return asked[1]
        problem = _ask()
        if problem is None:
            _answers.pop(broker, None)
        else:
            _answers[broker] = (time.monotonic(), problem)
        return problem


def forget() -> None:
    """Drop the kept answers (a worker was just started or stopped)."""
    with _lock:
        _answers.clear()


def _ask() -> str | None:
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=PING_TIMEOUT)
            # The first reply is enough: a live worker answers without waiting out the timeout.
            replies = app.control.ping(timeout=PING_TIMEOUT, connection=connection, limit=1)
    except Exception as exc:  # the broker itself is not there: no worker can be either
        logger.info("no broker to ask for workers: %s", exc)
        return f"{NO_WORKER} (its broker, Redis, does not answer either)"
    return None if replies else NO_WORKER
