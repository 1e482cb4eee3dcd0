"""Child processes that start together, report why they fail, and never outlive their parent.

Each child runs in a session of its own (a terminal's Ctrl-C reaches only the supervisor,
which stops the children in order) behind a small guard that asks Linux to signal it when
the supervisor dies (PR_SET_PDEATHSIG), so even a SIGKILLed supervisor leaves no orphan.
Their output is copied to the supervisor's, line by line with the child's name in front, and
the last lines are kept to explain a failure.
"""

from __future__ import annotations

import collections
import contextlib
import errno
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

# Runs in the child before the real program: set the parent-death signal, check the parent
# did not die before it was set, then become the program (the signal survives execv).
GUARD = """
import ctypes, os, sys
parent, sig = int(sys.argv[1]), int(sys.argv[2])
try:
    ctypes.CDLL(None, use_errno=True).prctl(1, sig)  # 1 = PR_SET_PDEATHSIG
except (AttributeError, OSError):
    pass  # not Linux: stopping relies on the supervisor's own shutdown
if os.getppid() != parent:
    sys.exit(0)
os.execv(sys.argv[3], sys.argv[3:])
"""
TAIL_LINES = 25


class StartFailed(Exception):
    """A child did not start; the message says which and why."""


class Child:
    def __init__(
        self,
        name: str,
        title: str,
        argv: list[str],
        *,
        env: dict[str, str],
        out: Any,  # a text stream, or a management command's OutputWrapper
        death_signal: int = signal.SIGTERM,
    ) -> None:
        self.name, self.title, self.argv = name, title, argv
        self.env, self.out, self.death_signal = env, out, death_signal
        self.tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self.proc: subprocess.Popen[bytes] | None = None
        self._seen = threading.Lock()
        self._reader: threading.Thread | None = None

    def start(self) -> None:
        guard = [sys.executable, "-c", GUARD, str(os.getpid()), str(int(self.death_signal))]
        self.proc = subprocess.Popen(
            [*guard, *self.argv],
            env={**self.env, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._reader = threading.Thread(
            target=self._copy_output, name=f"{self.name}-output", daemon=True
        )
        self._reader.start()

    def _copy_output(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", errors="replace").rstrip()
            with self._seen:
                self.tail.append(line)
            with contextlib.suppress(ValueError, OSError):  # the terminal went away
                self.out.write(f"{self.name:<6} | {line}\n")
                self.out.flush()

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def exit_code(self) -> int | None:
        return None if self.proc is None else self.proc.poll()

    def said(self, marker: str) -> bool:
        with self._seen:
            return any(marker in line for line in self.tail)

    def is_ready(self, ready: Callable[[], bool], deadline: float, timeout: float) -> bool:
        """Whether `ready` holds now; StartFailed if the child exited or `deadline` (set
        `timeout` seconds after the start) has passed."""
        if ready():
            return True
        code = self.exit_code()
        if code is not None:
            self._drain()
            raise StartFailed(self.explain(f"it exited with code {code}"))
        if time.monotonic() >= deadline:
            raise StartFailed(self.explain(f"it was not ready after {timeout:.0f}s"))
        return False

    def explain(self, what: str) -> str:
        lines = [line for line in self.tail if line.strip()][-10:]
        shown = "\n".join(f"    {line}" for line in lines) or "    (it printed nothing)"
        return f"{self.title} did not start: {what}. Its last words:\n{shown}"

    def _drain(self) -> None:
        """Give the output thread a moment to copy the dead child's last lines."""
        if self._reader is not None:
            self._reader.join(2)

    def signal_group(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, sig)


def stop_all(children: list[Child], timeout: float = 10.0) -> None:
    """SIGTERM every child's process group, newest first; SIGKILL what is left at the end."""
    for child in reversed(children):
        child.signal_group(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for child in children:
        if child.proc is None:
            continue
        try:
            child.proc.wait(max(deadline - time.monotonic(), 0.01))
        except subprocess.TimeoutExpired:
            child.signal_group(signal.SIGKILL)
            child.proc.wait(5)
        child.signal_group(signal.SIGKILL)  # stragglers of its group, if any


def port_problem(host: str, port: int) -> str | None:
    """Why nothing can listen on host:port, or None when it is free."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is already in use{_user_of(port)}"
            return f"cannot listen on {host}:{port}: {exc.strerror}"
    return None


def _user_of(port: int) -> str:
    """' (by pid N: command)' when this user may see which process listens on `port`."""
    try:
        import psutil

        for conn in psutil.net_connections(kind="tcp"):
            if conn.laddr and conn.laddr.port == port and conn.status == "LISTEN" and conn.pid:
                command = " ".join(psutil.Process(conn.pid).cmdline()[:4])
                return f" (by pid {conn.pid}: {command})"
    except Exception:
        pass  # best effort: naming the process is a courtesy
    return ""


def listens(pid: int, host: str, port: int) -> bool:
    """True once process `pid` itself listens on `port`: an intruder on the port that
    accepts connections must not pass for a child that is ready."""
    try:
        import psutil

        connections = psutil.Process(pid).net_connections(kind="tcp")
    except Exception:
        return accepts(host, port)  # where a process's sockets cannot be listed
    return any(c.status == "LISTEN" and c.laddr and c.laddr.port == port for c in connections)


def accepts(host: str, port: int) -> bool:
    """True once something accepts TCP connections on host:port."""
    target = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    try:
        with socket.create_connection((target, port), timeout=0.5):
            return True
    except OSError:
        return False
