"""How one user's heavy MCP calls slow another user's pages (`manage.py bench --fairness`).

The real ASGI app under uvicorn on 127.0.0.1: one user makes ten extract_key_points calls at
once, each with 100,000 characters of text, while another person opens the sign-in page
again and again. It is timed with the text work in the server's threads (HEAVY_PROCESSES=0,
where pure-Python work holds the GIL the event loop needs) and in its heavy processes (the
default), and prints the sign-in page's time idle and under load, and how long the calls took.
"""

from __future__ import annotations

import secrets
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import anyio
import httpx
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import override_settings
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from research import offload
from research.mcp.fairness import IN_FLIGHT
from research.models import ApiToken

SENTENCE = (
    "Quillsync is released under the MIT licence and costs nothing to run. Loamdb had forty "
    "commits last month, so its maintenance is active. "
)
SIGN_IN = "/accounts/login/"


def page_of(chars: int) -> str:
    return (SENTENCE * (chars // len(SENTENCE) + 1))[:chars]


def key_points_call(text: str) -> dict:
    return {"text": text, "options": ["Quillsync", "Loamdb"], "dimensions": ["cost"]}


def mcp_client(url: str, secret: str) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {secret}"})
    return Client(streamable_http_client(f"{url}/mcp", http_client=http), mode="legacy")


class Load:
    """`calls` extract_key_points calls at once from one token, in a thread of their own."""

    def __init__(self, url: str, secret: str, calls: int, chars: int) -> None:
        self.results: list = []
        self.started = self.finished = 0.0
        self.thread = threading.Thread(
            target=anyio.run, args=(self._run, url, secret, calls, chars), daemon=True
        )

    async def _run(self, url: str, secret: str, calls: int, chars: int) -> None:
        async with mcp_client(url, secret) as session:
            self.started = time.monotonic()

            async def one(n: int) -> None:
                text = page_of(chars - n)  # each a text of its own
                result = await session.call_tool("extract_key_points", key_points_call(text))
                self.results.append(result)

            async with anyio.create_task_group() as group:
                for n in range(calls):
                    group.start_soon(one, n)
        self.finished = time.monotonic()

    def __enter__(self) -> Load:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.thread.join(300)


def page_seconds(url: str, samples: int, path: str = SIGN_IN) -> list[float]:
    """The time to load `path` (the sign-in page), `samples` times one after another."""
    seconds = []
    with httpx.Client(base_url=url, timeout=60) as browser:
        for _ in range(samples):
            start = time.perf_counter()
            response = browser.get(path)
            seconds.append(time.perf_counter() - start)
            response.raise_for_status()
    return seconds


def wait_for(check: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the heavy calls did not start")
        time.sleep(0.05)


@contextmanager
def serving() -> Iterator[str]:
    """research.asgi:application under uvicorn in a thread on 127.0.0.1; its base URL."""
    import uvicorn

    from research.asgi import application

    config = uvicorn.Config(application, host="127.0.0.1", port=0, lifespan="on", log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started or not thread.is_alive(), 30)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)


class FairnessBench:
    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write

    def run(self, calls: int = 10, chars: int = 100_000) -> None:
        user = get_user_model().objects.create_user(f"bench-{secrets.token_hex(4)}")
        _, secret = ApiToken.issue(user, "bench")
        try:
            self.write(
                f"{calls} extract_key_points calls of {chars:,} characters at once from one "
                f"user; the sign-in page timed by another ({settings.HEAVY_PROCESSES} heavy "
                "processes by default)"
            )
            for label, processes in (
                ("in threads (HEAVY_PROCESSES=0)", 0),
                (f"in processes (HEAVY_PROCESSES={settings.HEAVY_PROCESSES})", None),
            ):
                self.write(f"  {label}: " + self.once(user, secret, calls, chars, processes))
        finally:
            offload.shutdown()
            user.delete()

    def once(self, user, secret: str, calls: int, chars: int, processes: int | None) -> str:
        wanted = settings.HEAVY_PROCESSES if processes is None else processes
        with override_settings(HEAVY_PROCESSES=wanted, MCP_USER_CONCURRENCY=calls):
            offload.shutdown()
            with serving() as url:
                idle = page_seconds(url, 5)
                with Load(url, secret, calls, chars) as load:
                    wait_for(lambda: IN_FLIGHT.running(user.pk) == calls, 60)
                    loaded = page_seconds(url, 8)
                offload.shutdown()
        return (
            f"sign-in page idle {statistics.median(idle) * 1000:.0f} ms; under load median "
            f"{statistics.median(loaded) * 1000:.0f} ms, worst {max(loaded) * 1000:.0f} ms; "
            f"the calls took {load.finished - load.started:.1f} s"
        )
