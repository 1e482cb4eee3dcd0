"""DuckDuckGo through ddgs, with a fake client: these tests never touch the network."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from research.outcomes import Outcome
from research.providers.search import SourceSpecError, build_provider
from research.providers.search.ddgs_provider import DdgsProvider

ROWS = [
    {"title": "Quillnote  licence", "href": "https://quillnote.dev/licence", "body": "AGPL\n3.0"},
    {"title": "Inkpad", "href": "https://inkpad.app/", "body": "Notes for teams"},
    {"title": "tracker", "href": "javascript:void(0)", "body": "not a page"},
]


class FakeDdgs:
    """Stands in for ddgs.DDGS: answers each call with the next scripted row list or error."""

    def __init__(self, *answers: list[dict[str, Any]] | Exception) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.timeouts: list[int] = []

    def factory(self, timeout: int) -> FakeDdgs:
        self.timeouts.append(timeout)
        return self

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        self.calls.append((query, kwargs))
        answer = self.answers[min(len(self.calls), len(self.answers)) - 1]
        if isinstance(answer, Exception):
            raise answer
        return answer


def provider(fake: FakeDdgs, **kwargs: Any) -> DdgsProvider:
    return DdgsProvider(timeout=4.5, tries=3, base_delay=0.0, client_factory=fake.factory, **kwargs)


def test_results_are_mapped_to_hits() -> None:
    fake = FakeDdgs(ROWS)

    result = provider(fake).search("Quillnote licence", 10)

    assert result.outcome is Outcome.OK
    assert [(h.url, h.title, h.snippet) for h in result.hits] == [
        ("https://quillnote.dev/licence", "Quillnote licence", "AGPL 3.0"),
        ("https://inkpad.app/", "Inkpad", "Notes for teams"),
    ]


def test_it_asks_for_limit_results_in_a_region_that_fits_the_language() -> None:
    fake = FakeDdgs(ROWS)

    provider(fake).search("Quillnote licence", 5)
    provider(fake).search("河图引擎 许可", 5)

    assert fake.calls[0] == ("Quillnote licence", {"region": "us-en", "max_results": 5})
    assert fake.calls[1][1]["region"] == "cn-zh"
    assert fake.timeouts == [5, 5]  # ddgs takes whole seconds, rounded up


def test_a_configured_region_wins() -> None:
    fake = FakeDdgs(ROWS)

    provider(fake, region="uk-en").search("河图引擎", 5)

    assert fake.calls[0][1]["region"] == "uk-en"


def test_it_returns_at_most_limit_hits() -> None:
    assert len(provider(FakeDdgs(ROWS)).search("Quillnote", 1).hits) == 1


def test_an_empty_list_is_no_hit() -> None:
    assert provider(FakeDdgs([])).search("zebrafish", 10).outcome is Outcome.NO_HIT


def test_ddgs_saying_no_results_found_is_no_hit_and_not_retried() -> None:
    fake = FakeDdgs(DDGSException("No results found."))

    result = provider(fake).search("zebrafish", 10)

    assert result.outcome is Outcome.NO_HIT
    assert len(fake.calls) == 1


def test_a_rate_limit_is_rate_limited_after_three_tries() -> None:
    fake = FakeDdgs(RatelimitException("202 Ratelimit"))

    result = provider(fake).search("Quillnote", 10)

    assert result.outcome is Outcome.RATE_LIMITED
    assert len(fake.calls) == 3
    assert "after 3 tries" in result.detail


def test_a_rate_limit_wrapped_by_ddgs_is_still_rate_limited() -> None:
    # ddgs re-raises the last engine error as DDGSException(err).
    fake = FakeDdgs(DDGSException(RatelimitException("https://duckduckgo.com 202")))

    assert provider(fake).search("Quillnote", 10).outcome is Outcome.RATE_LIMITED


def test_a_timeout_is_timeout() -> None:
    fake = FakeDdgs(TimeoutException("timed out"), DDGSException(TimeoutException("timed out")))

    result = provider(fake).search("Quillnote", 10)

    assert result.outcome is Outcome.TIMEOUT
    assert len(fake.calls) == 3


def test_other_ddgs_errors_are_unavailable() -> None:
    fake = FakeDdgs(DDGSException("ConnectError: dns failure"))

    result = provider(fake).search("Quillnote", 10)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "dns failure" in result.detail


def test_an_unexpected_error_in_the_library_is_unavailable_not_a_crash() -> None:
    fake = FakeDdgs(KeyError("href"))

    assert provider(fake).search("Quillnote", 10).outcome is Outcome.UNAVAILABLE


def test_a_transient_failure_then_success_is_ok() -> None:
    fake = FakeDdgs(TimeoutException("timed out"), ROWS)

    result = provider(fake).search("Quillnote", 10)

    assert result.outcome is Outcome.OK
    assert len(fake.calls) == 2


def test_a_ddgs_spec_uses_the_settings(settings) -> None:
    settings.SEARCH_TIMEOUT = 9.2
    settings.RETRY_TRIES = 4

    built = build_provider("ddgs")

    assert isinstance(built, DdgsProvider)
    assert (built.timeout, built.tries) == (10, 4)


def test_a_ddgs_spec_takes_no_argument() -> None:
    with pytest.raises(SourceSpecError, match="takes no argument"):
        build_provider("ddgs:fast")


class HangingDdgs(FakeDdgs):
    """A ddgs whose engines never answer (until the test lets them go)."""

    def __init__(self) -> None:
        super().__init__([])
        self.release = threading.Event()

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        self.calls.append((query, kwargs))
        self.release.wait(30)
        return []


def test_a_search_that_hangs_ends_at_the_deadline() -> None:
    fake = HangingDdgs()
    started = time.monotonic()
    try:
        result = provider(fake, deadline=0.3).search("Quillnote", 10)
    finally:
        fake.release.set()

    assert result.outcome is Outcome.TIMEOUT
    assert result.detail.startswith("ddgs: no answer within the 0.3 s deadline")
    assert time.monotonic() - started < 0.3 * 4
    assert len(fake.calls) == 1  # no time was left for another try


def test_after_three_timeouts_in_a_row_ddgs_is_not_asked_again() -> None:
    fake = FakeDdgs(TimeoutException("timed out"))
    ddgs = DdgsProvider(timeout=4.5, tries=1, base_delay=0.0, client_factory=fake.factory)

    results = [ddgs.search(f"query {n}", 10) for n in range(5)]

    assert [r.outcome for r in results] == [Outcome.TIMEOUT] * 5
    assert len(fake.calls) == 3
    assert results[-1].detail == "not asked: ddgs timed out on 3 searches in a row"


def test_a_ddgs_spec_takes_its_deadline_from_the_settings(settings) -> None:
    settings.SEARCH_DEADLINE = 12.0

    built = build_provider("ddgs")

    assert isinstance(built, DdgsProvider)
    assert built.deadline == 12.0
