"""Real processes for tests: a Redis server and Celery workers on 127.0.0.1, sharing the
test database file and runs folder."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings

from research.celery import app as celery_app
from research.env import database_url
from tools.fakes.redis_server import start_redis, stop_redis


def wait_until(check: Callable[[], object], timeout: float, what: str) -> object:
    """Poll `check` until it returns something truthy; fail with `what` on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class ThreadedServer:
    """An ASGI app under uvicorn in a thread on 127.0.0.1, on a port the system picks."""

    def __init__(self, app: object, lifespan: str = "auto") -> None:
        import uvicorn

        config = uvicorn.Config(
            app, host="127.0.0.1", port=0, lifespan=lifespan, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self, timeout: float = 20) -> str:
        """Start it and return its base URL, http://127.0.0.1:PORT."""
        self.thread.start()
        wait_until(
            lambda: self.server.started or not self.thread.is_alive(), timeout, "uvicorn to start"
        )
        assert self.server.started, "uvicorn stopped before it started"
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def stop(self, timeout: float = 15) -> None:
        self.server.should_exit = True
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "uvicorn did not stop"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_held: list[socket.socket] = []


def refused_port() -> int:
    """A port where nothing listens, for as long as the tests run: it is bound and never
    listened on, so a connection there is refused and no other test's server can take it
    (a port that is merely free may be picked by a test running in parallel)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    _held.append(sock)
    return sock.getsockname()[1]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    proc, url = start_redis(tmp_path)
    previous = celery_app.conf.broker_url
    _use_broker(url)
    yield url
    _use_broker(previous)
    stop_redis(proc)


def _use_broker(url: str) -> None:
    """Point this process's producer at `url`, dropping connections to any earlier broker."""
    celery_app.conf.broker_url = url
    celery_app._after_fork()  # forget pooled connections, as a freshly forked worker would


class Workers:
    """Starts Celery worker processes against the test broker, database and runs folder."""

    def __init__(self, redis_url: str, runs_dir: Path, tmp_path: Path) -> None:
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "RUNS_DIR": str(runs_dir),
            # The test's own search indexes, as in this process, never ./var/index.
            "LOCAL_INDEX_DIR": str(settings.LOCAL_INDEX_DIR),
            "DATABASE_URL": database_url(settings.DATABASES["default"]),
            "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32",
            "RETRY_BASE_DELAY": "0",
            "CELERY_TASK_ALWAYS_EAGER": "false",
        }
        self.log_dir = tmp_path
        self.procs: list[subprocess.Popen] = []
        self.logs: list[Path] = []

    def log_of(self, proc: subprocess.Popen) -> str:
        return self.logs[self.procs.index(proc)].read_text(encoding="utf-8", errors="replace")

    def wait_ready(self, proc: subprocess.Popen, timeout: float = 60) -> None:
        wait_until(lambda: "ready." in self.log_of(proc), timeout, "the worker to be ready")

    @staticmethod
    def _configured() -> dict[str, str]:
        """The sources and state folder this test configured, as a worker of the same
        deployment reads them: a run names its sources, and the worker looks them up."""
        sources = settings.SOURCES
        pairs = sources.items() if isinstance(sources, dict) else sources
        return {
            "SOURCES": ",".join(f"{name}={spec}" for name, spec in pairs),
            "VAR_DIR": str(settings.VAR_DIR),
        }

    def start(self, pool: str = "solo", **env: str) -> subprocess.Popen:
        """Start a worker; `env` adds to its environment (STAGE_LEASE="2", ...). The prefork
        pool runs one child process, which is what enforces time limits."""
        number = len(self.procs)
        self.logs.append(self.log_dir / f"worker{number}.log")
        log = open(self.logs[-1], "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "research",
                "worker",
                f"--pool={pool}",
                "--concurrency=1",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                f"--hostname=test{number}@%h",
            ],
            env={**self.env, **self._configured(), **env},
            cwd=settings.BASE_DIR,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen) -> None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def workers(redis_url, runs_dir, tmp_path) -> Iterator[Workers]:
    pool = Workers(redis_url, runs_dir, tmp_path)
    yield pool
    pool.stop_all()
