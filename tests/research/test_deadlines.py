"""A run whose providers all hang ends soon, with TIMEOUT outcomes and no recommendation.

Whole runs in-process (research.runs), against servers on 127.0.0.1 that drip-feed
their answers a byte at a time: fast enough that no read timeout ever fires, so only the
total deadline of each provider call can end them. Times are compared with the deadline,
never with the wall clock.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterator

import pytest

from research.outcomes import Outcome
from research.store import store_for
from tests.research.providers.servers import DripServer, response
from tests.runs import drive, new_run
from tests.testweb import TestWeb

pytestmark = pytest.mark.django_db

DEADLINE = 1.0
# Retrieve, the replan and deep-read each wait out about one deadline; the rest of the run
# takes well under one more. The bound leaves room for a slow machine, not for a hang.
BOUND = 10 * DEADLINE
QUESTION = "Choose between Alderstream and Brightwell for our sync layer"


@pytest.fixture(autouse=True)
def deadlines(settings) -> None:
    settings.SEARCH_DEADLINE = settings.FETCH_DEADLINE = DEADLINE
    # Far longer than the deadline: a drip never trips a read timeout.
    settings.SEARCH_TIMEOUT = settings.FETCH_TIMEOUT = 30.0
    settings.FETCH_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]


@pytest.fixture
def hanging() -> Iterator[DripServer]:
    """Drips every answer, status line included; robots.txt alone answers at once."""
    not_found = response("not found", "404 Not Found", "text/plain")
    server = DripServer(answers={"/robots.txt": lambda request: not_found}).start()
    yield server
    server.stop()


def hits_on(server: DripServer):
    """A SearXNG that answers at once, with pages that all live on the hanging server."""

    def results(query: str) -> list[dict]:
        return [
            {
                "url": server.url(f"/{option.lower()}-{topic}"),
                "title": f"{option} {topic}: what the {option} docs say",
                "content": f"{option} {topic} explained for teams choosing a sync layer.",
            }
            for option in ("Alderstream", "Brightwell")
            for topic in ("licence", "pricing", "community")
        ]

    return results


def run_to_the_end(sources: list[str]) -> tuple[str, float]:
    run = new_run(QUESTION, sources=sources, dimensions=[{"name": "licence risk", "weight": 1}])
    started = time.monotonic()
    drive(run.run_id)
    return run.run_id, time.monotonic() - started


def assert_no_recommendation(run_id: str) -> None:
    store = store_for(run_id)
    decision = store.read_json("round_5_decision.json")
    assert decision["recommendation"]["option"] is None
    assert "No recommendation" in store.read_text("report.md")


def test_a_run_whose_searches_all_hang_ends_soon_without_a_recommendation(
    hanging: DripServer,
) -> None:
    run_id, elapsed = run_to_the_end([f"searxng:{hanging.base}"])

    store = store_for(run_id)
    calls = store.read_json("round_1_candidates.json")["provider_calls"]
    assert calls and {c["outcome"] for c in calls} == {Outcome.TIMEOUT.value}
    assert store.index()["replans"]  # the broader search hung too
    assert store.read_json("round_1_candidates.json")["candidates"] == []
    assert_no_recommendation(run_id)
    assert elapsed < BOUND


def test_a_run_whose_pages_all_hang_ends_soon_without_a_recommendation(
    hanging: DripServer, testweb: TestWeb
) -> None:
    answering = testweb.add_searxng(hits_on(hanging))

    run_id, elapsed = run_to_the_end([f"searxng:{hanging.base}", f"searxng:{answering}"])

    store = store_for(run_id)
    outcomes = store.index()["provider_outcomes"]
    assert set(outcomes["retrieve"][f"searxng:{hanging.base}"]) == {Outcome.TIMEOUT.value}
    assert set(outcomes["retrieve"][f"searxng:{answering}"]) == {Outcome.OK.value}
    sources = store.read_json("round_3_notes.json")["sources"]
    assert sources and {s["status"] for s in sources} == {Outcome.TIMEOUT.value}
    assert all("1 s deadline" in s["detail"] for s in sources)
    page_requests = [r for r in hanging.requests if r.path not in ("/robots.txt", "/search")]
    assert len(page_requests) == len(sources)  # each page asked for once: no time to retry
    assert_no_recommendation(run_id)
    assert elapsed < BOUND
