"""`manage.py serve` with real processes on 127.0.0.1: it starts, says why it cannot, and
leaves nothing behind however it is stopped."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest
from django.conf import settings

from tests.processes import wait_until

pytestmark = pytest.mark.slow

START = 120.0  # seconds for the whole stack to start on a busy machine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> str:
    """A migrated database of their own for the servers these tests start."""
    folder = tmp_path_factory.mktemp("serve-db")
    url = f"sqlite:///{folder / 'db.sqlite3'}"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DATABASE_URL": url, "VAR_DIR": str(folder)},
        check=True,
        timeout=120,
    )
    return url


class Serve:
    """`manage.py serve` in a process of its own, its output collected as it comes."""

    def __init__(self, tmp_path: Path, database: str, *args: str, **env: str) -> None:
        self.web_port, self.redis_port = free_port(), free_port()
        full_env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        full_env.update(
            DATABASE_URL=database,
            VAR_DIR=str(tmp_path / "var"),
            RUNS_DIR=str(tmp_path / "runs"),
            PYTHONUNBUFFERED="1",
            **env,
        )
        argv = ["--port", str(self.web_port), "--redis-port", str(self.redis_port)]
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--concurrency", "1", *argv, *args],
            cwd=settings.BASE_DIR,
            env=full_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self.out), daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stderr, self.err), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream, lines: list[str]) -> None:
        for line in stream:
            lines.append(line)

    def said(self, text: str) -> bool:
        return any(text in line for line in self.out)

    def wait_for(self, text: str, timeout: float = START) -> None:
        def seen() -> bool:
            if self.proc.poll() is not None and not self.said(text):
                raise AssertionError(f"serve exited first:\n{self.output()}")
            return self.said(text)

        wait_until(seen, timeout, repr(text))

    def descendants(self) -> list[psutil.Process]:
        return psutil.Process(self.proc.pid).children(recursive=True)

    def exit_code(self, timeout: float = 60) -> int:
        code = self.proc.wait(timeout)
        for reader in self._readers:
            reader.join(5)
        return code

    def output(self) -> str:
        return "".join(self.out) + "".join(self.err)

    def kill(self) -> None:
        for process in [*self.descendants(), psutil.Process(self.proc.pid)]:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()


@pytest.fixture
def serve(tmp_path, database) -> Iterator[Callable[..., Serve]]:
    started: list[Serve] = []

    def start(*args: str, **env: str) -> Serve:
        started.append(Serve(tmp_path, database, *args, **env))
        return started[-1]

    yield start
    for server in started:
        if server.proc.poll() is None:
            server.kill()


def _dead(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def gone(processes: list[psutil.Process]) -> bool:
    return all(_dead(p) for p in processes)


def wait_gone(processes: list[psutil.Process], what: str) -> None:
    try:
        wait_until(lambda: gone(processes), 30, what)
    except AssertionError:
        left = [f"{p.pid} {p.status()} {' '.join(p.cmdline())[:120]}" for p in processes
                if not _dead(p)]  # fmt: skip
        raise AssertionError(f"{what}: still running after 30s:\n" + "\n".join(left)) from None


def get(port: int, path: str) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return response.status


# --- refusing to start ----------------------------------------------------------------------


def test_a_taken_web_port_is_named_and_nothing_starts(serve):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = serve("--port", str(port))
        assert server.exit_code() == 1
    assert "The web server cannot start: port" in server.output()
    assert f"port {port} on 127.0.0.1 is already in use" in server.output()
    assert "choose another port with `manage.py serve --port N`" in server.output()
    assert not server.said("Starting")


def test_a_taken_redis_port_is_named_and_nothing_starts(serve):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = serve("--redis-port", str(port))
        assert server.exit_code() == 1
    assert f"The embedded Redis cannot start: port {port} on 127.0.0.1 is already in use" in (
        server.output()
    )
    assert not server.said("Starting")


def test_an_external_redis_that_does_not_answer_is_named(serve):
    url = f"redis://127.0.0.1:{free_port()}/0"
    server = serve(REDIS_URL=url)
    assert server.exit_code() == 1
    assert f"Redis at {url} (REDIS_URL) does not answer" in server.output()


def test_a_child_that_fails_to_start_is_named_with_its_own_words_and_the_rest_stop(serve):
    # Bound but not yet listening, the port passes the check; it is taken for real while
    # the worker starts, so the web server's own bind fails.
    thief = socket.socket()
    thief.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    thief.bind(("127.0.0.1", 0))
    port = thief.getsockname()[1]
    try:
        server = serve("--port", str(port))
        server.wait_for("Starting the Celery worker")
        thief.listen()
        server.wait_for("Starting the web server")
        others = server.descendants()
        assert server.exit_code() == 1
    finally:
        thief.close()
    output = server.output()
    assert "The web server did not start: it exited with code" in output
    assert "address already in use" in output
    assert "Another program took the port after the check" in output
    wait_gone(others, "the Redis and worker started before it to stop")


# --- starting -------------------------------------------------------------------------------


def test_the_four_start_together_and_each_is_reported_ready_as_it_becomes_so(serve):
    server = serve()
    server.wait_for("Verdict is running at")
    lines = [line.strip() for line in server.out]
    titles = ("The embedded Redis", "The Celery worker", "Celery beat", "The web server")
    started = [lines.index(f"Starting {t[0].lower()}{t[1:]}...") for t in titles]
    ready = [
        next(i for i, line in enumerate(lines) if line.startswith(f"{t} is ready ("))
        for t in titles
    ]
    running = next(i for i, line in enumerate(lines) if "Verdict is running at" in line)
    # Every process was started before any was waited for, and all were ready before the
    # address was given.
    assert max(started) < min(ready)
    assert max(ready) < running
    assert get(server.web_port, "/accounts/login/") == 200


# --- stopping -------------------------------------------------------------------------------


def test_killing_the_supervisor_with_sigkill_leaves_no_orphan(serve):
    server = serve()
    server.wait_for("Verdict is running at")
    assert get(server.web_port, "/accounts/login/") == 200, "plain http on 127.0.0.1"
    assert get(server.web_port, "/static/admin/css/base.css") == 200
    children = server.descendants()
    names = " ".join(" ".join(p.cmdline()) for p in children)
    assert "redis-server" in names and "celery" in names and "uvicorn" in names
    assert " beat " in names, "the clock that asks scheduled questions again runs too"
    os.kill(server.proc.pid, signal.SIGKILL)
    wait_gone(children, "every child of the killed supervisor to exit")


def test_sigterm_stops_every_child_and_exits_cleanly(serve):
    server = serve()
    server.wait_for("Verdict is running at")
    children = server.descendants()
    server.proc.send_signal(signal.SIGTERM)
    assert server.exit_code() == 0
    assert server.said("Stopping Verdict...")
    wait_gone(children, "every child to exit")


def test_a_child_that_dies_later_stops_the_others_and_the_supervisor_exits_non_zero(serve):
    server = serve()
    server.wait_for("Verdict is running at")
    children = server.descendants()
    worker = next(p for p in children if "celery" in " ".join(p.cmdline()) and
                  p.ppid() == server.proc.pid)  # fmt: skip
    worker.kill()
    assert server.exit_code() == 1
    assert "The Celery worker stopped unexpectedly (exit code -9)" in server.output()
    wait_gone(children, "the web server and Redis to stop")
