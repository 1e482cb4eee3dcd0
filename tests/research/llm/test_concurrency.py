"""Many async calls from synchronous stage code, at most a set number at once."""

from __future__ import annotations

import asyncio

from research.llm import run_all


def tracked(limit_seen: list[int], running: list[int], value: int):
    async def call() -> int:
        running[0] += 1
        limit_seen.append(running[0])
        await asyncio.sleep(0.02)
        running[0] -= 1
        return value * 10

    return call


def test_every_result_comes_back_in_order_with_at_most_limit_running():
    seen: list[int] = []
    running = [0]
    results = run_all([tracked(seen, running, n) for n in range(7)], limit=3)
    assert results == [n * 10 for n in range(7)]
    assert max(seen) == 3


def test_it_works_when_called_from_code_already_inside_an_event_loop():
    async def server_handler() -> list[int]:
        # A stage called synchronously from async code (an ASGI view, an MCP tool).
        return run_all([tracked([], [0], n) for n in range(3)], limit=2)

    assert asyncio.run(server_handler()) == [0, 10, 20]
