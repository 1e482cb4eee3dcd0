"""Many model calls at once from a synchronous stage.

Stages are plain synchronous functions run by Celery (or the CLI, or a test). The calls
are async (one event loop, one connection pool, a semaphore for LLM_CONCURRENCY), so the
sync entry point runs a fresh event loop for them, and runs it in a thread of its own when
the caller is already inside one (an async server calling a stage), where asyncio.run
would refuse.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_sync(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run the coroutine `make()` to completion and return its result."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(1, thread_name_prefix="llm") as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


async def gather_limited(calls: Sequence[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    """Await every call, at most `limit` at once; results in the order of `calls`."""
    gate = asyncio.Semaphore(max(1, limit))

    async def one(call: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await call()

    return list(await asyncio.gather(*(one(call) for call in calls)))


def run_all(calls: Sequence[Callable[[], Awaitable[T]]], limit: int) -> list[T]:
    """The synchronous entry point: every call's result, at most `limit` running at once."""

    async def main() -> list[T]:
        return await gather_limited(calls, limit)

    return run_sync(main)
