"""Retrieve runs its sub-queries side by side, a bounded number per provider, and its
artifact and log come out the same whatever order the searches finish in."""

from __future__ import annotations

import threading

import pytest

from research.artifacts import Candidates, Dimension, Plan, SubQuery
from research.context import StageContext
from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchProvider, SearchResult
from research.stages.retrieve import retrieve

WAIT = 5.0  # seconds; only reached when the behaviour under test is broken


def make_plan(queries: int) -> Plan:
    return Plan(
        question="Choose between Alderstream and Brightwell",
        options=["Alderstream", "Brightwell"],
        dimensions=[Dimension(name="cost", weight=1.0)],
        sources=["web", "local"],
        queries=[
            SubQuery(id=f"q{n:02d}", text=f"Alderstream cost {n}", option="Alderstream")
            for n in range(queries)
        ],
    )


def texts(plan: Plan) -> list[str]:
    return [q.text for q in plan.queries]


class CannedSearch(SearchProvider):
    """Answers at once: two pages of its own per query, plus one page every query finds.
    Queries in `failing` are UNAVAILABLE."""

    name = "canned"

    def __init__(self, failing: frozenset[str] = frozenset()) -> None:
        self.failing = failing

    def search(self, query: str, limit: int) -> SearchResult:
        if query in self.failing:
            return SearchResult(Outcome.UNAVAILABLE, detail=f"{query!r}: server down")
        slug = query.replace(" ", "-")
        hits = [
            SearchHit(url=f"https://example.com/{slug}/a", title=f"{query} a"),
            SearchHit(url="https://example.com/shared", title="Shared page"),
            SearchHit(url=f"https://example.com/{slug}/b", title=f"{query} b"),
        ]
        return SearchResult(Outcome.OK, hits[:limit])


class Gathering(CannedSearch):
    """Holds every call until `parties` calls are in flight together; counts the most
    ever in flight at once."""

    def __init__(self, parties: int) -> None:
        super().__init__()
        self.parties = parties
        self.together = threading.Barrier(parties, timeout=WAIT)
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most = 0

    def search(self, query: str, limit: int) -> SearchResult:
        with self.lock:
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
        try:
            self.together.wait()
        except threading.BrokenBarrierError:
            return SearchResult(Outcome.TIMEOUT, detail=f"never {self.parties} calls at once")
        finally:
            with self.lock:
                self.in_flight -= 1
        return super().search(query, limit)


class FinishingInReverse(CannedSearch):
    """Each query is answered only after the next query in the plan has been answered."""

    def __init__(self, order: list[str], failing: frozenset[str] = frozenset()) -> None:
        super().__init__(failing)
        self.order = order
        self.answered = {query: threading.Event() for query in order}
        self.finished: list[str] = []

    def search(self, query: str, limit: int) -> SearchResult:
        position = self.order.index(query)
        later = self.order[position + 1 :]
        if later and not self.answered[later[0]].wait(WAIT):
            return SearchResult(Outcome.TIMEOUT, detail="the next query was never answered")
        result = super().search(query, limit)
        self.finished.append(query)  # before set(): the next one waits for this
        self.answered[query].set()
        return result


class WaitingFor(CannedSearch):
    """Answers only once `event` is set."""

    def __init__(self, event: threading.Event) -> None:
        super().__init__()
        self.event = event

    def search(self, query: str, limit: int) -> SearchResult:
        if not self.event.wait(WAIT):
            return SearchResult(Outcome.TIMEOUT, detail="the other provider was held up")
        return super().search(query, limit)


class Announcing(CannedSearch):
    """Sets `event` once it has answered `count` calls."""

    def __init__(self, event: threading.Event, count: int) -> None:
        super().__init__()
        self.event = event
        self.remaining = count
        self.lock = threading.Lock()

    def search(self, query: str, limit: int) -> SearchResult:
        result = super().search(query, limit)
        with self.lock:
            self.remaining -= 1
            if self.remaining == 0:
                self.event.set()
        return result


def artifact(candidates: Candidates) -> dict:
    """The artifact without call durations, the one part that depends on timing."""
    data = candidates.model_dump(mode="json")
    for call in data["provider_calls"]:
        call["elapsed_ms"] = 0
    return data


def failures(ctx: StageContext) -> list[dict]:
    return [e for e in ctx.events if e["event"] == "provider_outcome"]


@pytest.mark.parametrize("bound", [1, 3])
def test_each_provider_has_its_bound_of_searches_in_flight_and_never_more(bound: int):
    plan = make_plan(bound * 4)
    providers = {"web": Gathering(bound), "local": Gathering(bound)}
    result = retrieve(plan, providers, StageContext(), concurrency=bound)
    # Every call was answered, so every call had `bound` calls in flight on its provider.
    assert {c.outcome for c in result.provider_calls} == {Outcome.OK}
    # An oversized pool shows here only when an extra call starts before a gathered group
    # leaves, which is likely rather than certain: proving that nothing more could start
    # would take a timed wait.
    assert [p.most for p in providers.values()] == [bound, bound]


def test_by_default_every_sub_query_of_the_plan_is_in_flight_at_once():
    plan = make_plan(14)
    providers = {"web": Gathering(14), "local": Gathering(14)}
    result = retrieve(plan, providers, StageContext())
    # Each call waited until all 14 of its provider's calls had started together.
    assert {c.outcome for c in result.provider_calls} == {Outcome.OK}
    assert [p.most for p in providers.values()] == [14, 14]


def test_the_result_follows_the_plan_even_when_later_queries_finish_first():
    plan = make_plan(6)
    provider = FinishingInReverse(texts(plan))
    concurrent = retrieve(plan, {"web": provider}, StageContext(), concurrency=6)
    assert provider.finished == texts(plan)[::-1]
    sequential = retrieve(plan, {"web": CannedSearch()}, StageContext())
    assert artifact(concurrent) == artifact(sequential)
    assert [c.query for c in concurrent.provider_calls] == texts(plan)
    assert concurrent.candidates[0].url == "https://example.com/Alderstream-cost-0/a"


def test_every_failed_call_is_recorded_and_logged_in_plan_order():
    plan = make_plan(6)
    down = frozenset({texts(plan)[1], texts(plan)[4]})
    ctx = StageContext()
    providers = {"web": FinishingInReverse(texts(plan), down), "local": CannedSearch()}
    result = retrieve(plan, providers, ctx, concurrency=6)
    assert [(c.provider, c.query, c.outcome) for c in result.provider_calls] == [
        (name, text, Outcome.UNAVAILABLE if name == "web" and text in down else Outcome.OK)
        for text in texts(plan)
        for name in ("web", "local")
    ]
    assert [(e["provider"], e["query"], e["outcome"]) for e in failures(ctx)] == [
        ("web", texts(plan)[1], "UNAVAILABLE"),
        ("web", texts(plan)[4], "UNAVAILABLE"),
    ]
    sequential = StageContext()
    retrieve(plan, {"web": CannedSearch(down), "local": CannedSearch()}, sequential)
    assert ctx.events == sequential.events


def test_a_slow_provider_does_not_hold_up_another_providers_searches():
    plan = make_plan(4)
    fast_done = threading.Event()
    providers = {
        "slow": WaitingFor(fast_done),
        "fast": Announcing(fast_done, count=len(plan.queries)),
    }
    result = retrieve(plan, providers, StageContext(), concurrency=2)
    assert {c.outcome for c in result.provider_calls} == {Outcome.OK}


def test_a_provider_that_rate_limits_bursts_keeps_its_own_lower_bound():
    class Shy(Gathering):
        max_in_flight = 2

    plan = make_plan(6)
    shy = Shy(parties=2)
    result = retrieve(plan, {"shy": shy}, StageContext(), concurrency=6)
    assert shy.most == 2
    assert {c.outcome for c in result.provider_calls} == {Outcome.OK}


class CarelessSearch(SearchProvider):
    """A search API that mixes broken addresses in with good ones."""

    name = "careless"

    def __init__(self, broken_only: bool = False) -> None:
        self.broken_only = broken_only

    def search(self, query: str, limit: int) -> SearchResult:
        broken = [
            SearchHit(url="http://[::1/admin", title="bad IPv6 host"),
            SearchHit(url="https://example.com:99999/x", title="port out of range"),
            SearchHit(url="https://user:pw@example.com/x", title="credentials"),
            SearchHit(url="javascript:alert(1)", title="script"),
            SearchHit(url="https://example.com/a b", title="space"),
        ]
        good = [] if self.broken_only else [SearchHit(url="https://example.com/ok", title="ok")]
        return SearchResult(Outcome.OK, broken + good)


def test_results_without_a_usable_web_address_are_left_out_and_the_stage_goes_on():
    plan = make_plan(1)
    candidates = retrieve(plan, {"web": CarelessSearch()}, StageContext())
    assert [c.url for c in candidates.candidates] == ["https://example.com/ok"]
    [call] = candidates.provider_calls
    assert call.outcome is Outcome.OK and call.hits == 1
    assert "5 result(s) without a usable http(s) address left out" in call.detail


def test_a_search_whose_every_result_is_unusable_found_nothing():
    candidates = retrieve(make_plan(1), {"web": CarelessSearch(broken_only=True)}, StageContext())
    assert candidates.candidates == []
    [call] = candidates.provider_calls
    assert call.outcome is Outcome.NO_HIT and call.hits == 0
