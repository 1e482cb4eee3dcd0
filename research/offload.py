"""CPU-heavy text work (a page's key points, a page's main text, judging candidates that a
client sent) in a few processes of its own, off the web server's process.

The web server is one process: an event loop that answers every user, and the threads that
run Django's views and the MCP tools. Pure-Python work in a thread still holds the GIL, so
ten long readings in threads slowed everyone's pages from milliseconds to seconds. Here the
work runs in HEAVY_PROCESSES processes started from a fresh interpreter (spawn, never forked
from a process running threads) on first use, at a lower CPU priority than the web's own;
the calling thread waits on the answer without holding the GIL. With HEAVY_PROCESSES=0, or
for RESTART_PAUSE after a process of the pool ended unasked, the work runs in the calling
thread as before. The first call waits for the processes to start (a second or two, Django
and the reading code imported once).

What is sent must be picklable and the function importable by name; it should not need the
database (the processes set Django up with the process's settings module, not the settings
a test overrides).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

import anyio.to_thread
from django.conf import settings

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

NICENESS = 5  # how much lower the heavy processes' priority is than the web's

# After a process of the pool ends unasked, the work runs here for this long: a pool that
# cannot start (a broken install, a main module that starts a server on import) must not
# cost every call a start and a wait.
RESTART_PAUSE = 30.0

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_paused_until = 0.0


def call(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """fn(*args), in a heavy process when there are any; blocks the calling thread (never
    call it on the event loop: `await run(...)` there)."""
    pool = _get_pool()
    if pool is None:
        return fn(*args, **kwargs)
    try:
        return pool.submit(fn, *args, **kwargs).result()
    except BrokenProcessPool as exc:
        _discard(pool)
        log.warning("a heavy-work process ended (%s): running %s here", exc, fn.__name__)
        return fn(*args, **kwargs)


async def run(fn: Callable[..., R], *args: object) -> R:
    """`call`, from async code: the wait happens in a worker thread, not on the event loop."""
    return await anyio.to_thread.run_sync(call, fn, *args)


def shutdown() -> None:
    """End the processes (the next call starts new ones)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _get_pool() -> ProcessPoolExecutor | None:
    global _pool
    wanted = settings.HEAVY_PROCESSES
    if wanted <= 0:
        return None
    with _lock:
        if _pool is None:
            if time.monotonic() < _paused_until:
                return None
            _pool = ProcessPoolExecutor(
                max_workers=wanted,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_ready,
                initargs=(os.environ.get("DJANGO_SETTINGS_MODULE", "research.settings"),),
            )
        return _pool


def _discard(pool: ProcessPoolExecutor) -> None:
    global _pool, _paused_until
    with _lock:
        if _pool is pool:
            _pool = None
            _paused_until = time.monotonic() + RESTART_PAUSE
    pool.shutdown(wait=False, cancel_futures=True)


def _ready(settings_module: str) -> None:
    """In each heavy process, once: a lower priority, and Django set up for the imports."""
    import django

    with contextlib.suppress(OSError):  # a platform without nice
        os.nice(NICENESS)
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    django.setup()


def _forget_in_child() -> None:
    """A forked process (a Celery worker's child) starts its own pool, if it needs one."""
    global _pool, _lock
    _lock = threading.Lock()
    _pool = None


os.register_at_fork(after_in_child=_forget_in_child)
