"""The stage runners in research.runs.runners hand the settings to their stages."""

from __future__ import annotations

import threading

import pytest

from research import services
from research.artifacts import Question
from research.outcomes import Outcome
from research.runs import execute
from research.store import store_for
from tests.testweb import TestWeb

pytestmark = pytest.mark.django_db


def held_search(together: threading.Barrier):
    """SearXNG results that hold the first `together.parties` requests until they are all
    in flight at once; a search held in vain finds nothing."""
    lock = threading.Lock()
    arrivals = [0]

    def results(query: str) -> list[dict]:
        with lock:
            arrivals[0] += 1
            held = arrivals[0] <= together.parties
        try:
            if held:
                together.wait()
        except threading.BrokenBarrierError:
            return []
        return [{"url": f"https://example.com/{query.replace(' ', '-')}", "title": query}]

    return results


def test_retrieve_sends_as_many_searches_at_once_as_search_concurrency_allows(
    testweb: TestWeb, settings
):
    settings.SEARCH_CONCURRENCY = 3
    base = testweb.add_searxng(held_search(threading.Barrier(3, timeout=5)))
    run = services.create_run(
        Question(
            question="Choose between Alderstream and Brightwell",
            dimensions=[{"name": "cost", "weight": 1}],
            sources=[f"searxng:{base}"],
        )
    )
    execute.execute_stage(run.run_id, "retrieve")
    store = store_for(run.run_id)
    calls = store.read_json("round_1_candidates.json")["provider_calls"]
    assert len(calls) > 3
    assert {c["outcome"] for c in calls} == {Outcome.OK.value}
