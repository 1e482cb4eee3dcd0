"""One user's heavy tool calls do not slow anyone else: the real ASGI app under uvicorn on
127.0.0.1, with one user's text work running while another user opens the sign-in page."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import anyio
import pytest
from asgiref.sync import async_to_sync
from mcp import Client

from research.mcp import build_server
from research.mcp.fairness import IN_FLIGHT
from research.models import ApiToken
from tests.processes import ThreadedServer, wait_until
from tests.testweb import Route
from tools.bench.fairness import SENTENCE, Load, key_points_call, page_seconds


@pytest.fixture
def url() -> Iterator[str]:
    from research.asgi import application

    server = ThreadedServer(application, lifespan="on")
    yield server.start()
    server.stop()


@pytest.mark.django_db(transaction=True)
@pytest.mark.serial  # it times itself
def test_the_sign_in_page_stays_quick_while_another_user_runs_ten_heavy_calls(url, ada, settings):
    settings.MCP_USER_CONCURRENCY = 10  # all ten run: what is measured is how they run
    _, secret = ApiToken.issue(ada, "laptop")
    page_seconds(url, 2)  # the first requests set things up
    with Load(url, secret, calls=10, chars=100_000) as load:
        wait_until(lambda: IN_FLIGHT.running(ada.pk) == 10, 20, "the ten calls to be running")
        loaded = page_seconds(url, 8)
        measured_by = time.monotonic()
    assert load.finished > measured_by  # the page was timed while the calls ran
    assert len(load.results) == 10 and not any(r.is_error for r in load.results)
    assert max(loaded) < 0.5


# --- heavy calls per user -------------------------------------------------------------------

ARTICLE = (
    "<html><head><title>Quillsync notes</title></head><body><article><p>Quillsync is "
    "released under the MIT licence.</p></article></body></html>"
)


@pytest.fixture
def held_page(testweb, allow_loopback):
    """A page whose server answers only once released; `arrived` counts the requests."""
    release, arrived = threading.Event(), []

    def answer(query):
        arrived.append(query)
        release.wait(30)
        return 200, "text/html; charset=utf-8", ARTICLE.encode()

    url = testweb.url("/held")
    testweb.routes["/held"] = Route(handler=answer)
    yield url, release, arrived
    release.set()


@pytest.mark.django_db
def test_a_third_heavy_call_is_refused_while_two_run_but_another_user_is_served(
    held_page, ada, bob, settings
):
    settings.MCP_USER_CONCURRENCY = 2
    url, release, arrived = held_page

    async def main():
        async with Client(build_server(ada)) as mine, Client(build_server(bob)) as theirs:
            fetches = []

            async def fetch() -> None:
                fetches.append(await mine.call_tool("page_fetch_markdown", {"url": url}))

            async with anyio.create_task_group() as group:
                group.start_soon(fetch)
                group.start_soon(fetch)
                with anyio.fail_after(20):
                    while len(arrived) < 2:  # both fetches are waiting on the page
                        await anyio.sleep(0.01)
                third = await mine.call_tool("extract_key_points", key_points_call(SENTENCE))
                other = await theirs.call_tool("extract_key_points", key_points_call(SENTENCE))
                release.set()
            after = await mine.call_tool("extract_key_points", key_points_call(SENTENCE))
            return fetches, third, other, after

    fetches, third, other, after = async_to_sync(main)()
    assert third.is_error and third.structured_content["status"] == "BUSY"
    assert third.content[0].text.startswith(
        "BUSY: you have 2 heavy calls running; wait for one to finish"
    )
    assert not other.is_error and other.structured_content["status"] == "OK"
    assert [f.structured_content["status"] for f in fetches] == ["OK", "OK"]
    assert not after.is_error  # a finished call gives its place back
    assert IN_FLIGHT.running(ada.pk) == 0


@pytest.mark.django_db
def test_light_calls_are_not_counted_against_the_limit(held_page, ada, settings):
    settings.MCP_USER_CONCURRENCY = 1
    url, release, arrived = held_page

    async def main():
        async with Client(build_server(ada)) as mine:
            async with anyio.create_task_group() as group:
                group.start_soon(mine.call_tool, "page_fetch_markdown", {"url": url})
                with anyio.fail_after(20):
                    while not arrived:
                        await anyio.sleep(0.01)
                listed = await mine.call_tool("list_sources", {})
                release.set()
            return listed

    assert not async_to_sync(main)().is_error
