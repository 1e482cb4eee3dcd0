"""Retries within a deadline, and giving up on a provider that keeps timing out."""

from __future__ import annotations

from research.outcomes import Outcome
from research.providers.base import SearchResult, TimeoutBreaker, with_retries
from research.providers.deadline import Deadline


def failing(outcome: Outcome, calls: list[int]):
    def call() -> SearchResult:
        calls.append(1)
        return SearchResult(outcome, detail="HTTP 503")

    return call


def test_retries_back_off_while_the_deadline_allows() -> None:
    calls: list[int] = []
    waits: list[float] = []

    result = with_retries(
        failing(Outcome.UNAVAILABLE, calls), 3, 0.1, waits.append, Deadline.after(60)
    )

    assert len(calls) == 3
    assert len(waits) == 2
    assert result.detail == "HTTP 503 (after 3 tries)"


def test_no_retry_waits_past_the_deadline() -> None:
    calls: list[int] = []
    waits: list[float] = []

    result = with_retries(
        failing(Outcome.UNAVAILABLE, calls), 3, 5.0, waits.append, Deadline.after(1)
    )

    assert (len(calls), waits) == (1, [])
    assert result.outcome is Outcome.UNAVAILABLE
    assert result.detail == "HTTP 503 (after 1 try; the 1 s deadline left no time for another)"


def test_the_breaker_opens_after_timeouts_in_a_row_only() -> None:
    breaker = TimeoutBreaker("SearXNG", limit=3)
    timeout, answer = SearchResult(Outcome.TIMEOUT), SearchResult(Outcome.UNAVAILABLE)

    for result in (timeout, timeout, answer, timeout, timeout):
        breaker.record(result)
    assert breaker.refusal() is None

    breaker.record(timeout)
    refusal = breaker.refusal()
    assert refusal is not None
    assert refusal.outcome is Outcome.TIMEOUT
