"""SearXNG over its JSON API, against the local test web."""

from __future__ import annotations

import ipaddress
import json
import socket
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from research.outcomes import Outcome
from research.providers.search import SourceSpecError, build_provider
from research.providers.search.searxng import SearxngProvider
from tests.research.providers.servers import DripServer, EndlessServer
from tests.testweb import TestWeb

RESULTS = [
    {
        "url": "https://quillnote.dev/docs/licence",
        "title": "Licence | Quillnote",
        "content": "Quillnote is  AGPL-3.0\n licensed.",
        "publishedDate": "2025-01-02T08:00:00",
    },
    {"url": "https://inkpad.app/pricing", "title": "Inkpad pricing", "content": "8 dollars"},
    {"url": "ftp://old.example/file", "title": "not a web page"},
    {"title": "no url at all"},
]


def provider(base_url: str, **kwargs: object) -> SearxngProvider:
    options: dict = {"timeout": 5.0, "tries": 3, "base_delay": 0.0, **kwargs}
    return SearxngProvider(base_url, **options)


def searches(web: TestWeb) -> list[str]:
    return [path for path in web.requests if path.startswith("/search")]


def test_results_are_mapped_to_hits(testweb: TestWeb) -> None:
    base = testweb.add_searxng(lambda q: RESULTS)

    result = provider(base).search("Quillnote licence", 10)

    assert result.outcome is Outcome.OK
    assert [h.url for h in result.hits] == [
        "https://quillnote.dev/docs/licence",
        "https://inkpad.app/pricing",
    ]
    first = result.hits[0]
    assert (first.title, first.snippet, first.published) == (
        "Licence | Quillnote",
        "Quillnote is AGPL-3.0 licensed.",
        "2025-01-02",
    )
    assert result.hits[1].published is None
    assert first.local_path is None


def test_it_asks_for_json_with_the_query(testweb: TestWeb) -> None:
    base = testweb.add_searxng(lambda q: RESULTS)

    provider(base + "/").search("河图引擎 许可", 10)

    query = parse_qs(urlsplit(searches(testweb)[0]).query)
    assert query == {"q": ["河图引擎 许可"], "format": ["json"]}


def test_it_returns_at_most_limit_hits(testweb: TestWeb) -> None:
    base = testweb.add_searxng(lambda q: RESULTS)

    assert len(provider(base).search("anything", 1).hits) == 1


def test_empty_results_are_no_hit(testweb: TestWeb) -> None:
    base = testweb.add_searxng(lambda q: [])

    result = provider(base).search("zebrafish xylophone", 10)

    assert result.outcome is Outcome.NO_HIT
    assert len(searches(testweb)) == 1  # found nothing is an answer: no retry


def test_empty_results_because_every_engine_failed_are_not_no_hit(testweb: TestWeb) -> None:
    payload = {"results": [], "unresponsive_engines": [["google", "Suspended: CAPTCHA"]]}
    testweb.add_json("/search", payload)

    result = provider(testweb.base).search("Quillnote", 10)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "google" in result.detail


def test_empty_results_because_every_engine_timed_out_are_a_timeout(testweb: TestWeb) -> None:
    payload = {"results": [], "unresponsive_engines": [["bing", "timeout"], ["ddg", "timeout"]]}
    testweb.add_json("/search", payload)

    assert provider(testweb.base).search("Quillnote", 10).outcome is Outcome.TIMEOUT


def test_a_server_error_is_unavailable_after_three_tries(testweb: TestWeb) -> None:
    testweb.add("/search", "boom", status=500, content_type="text/plain")

    result = provider(testweb.base).search("Quillnote", 10)

    assert result.outcome is Outcome.UNAVAILABLE
    assert len(searches(testweb)) == 3
    assert "HTTP 500" in result.detail
    assert "after 3 tries" in result.detail


def test_too_many_requests_is_rate_limited(testweb: TestWeb) -> None:
    testweb.add("/search", "slow down", status=429, content_type="text/plain")

    result = provider(testweb.base).search("Quillnote", 10)

    assert result.outcome is Outcome.RATE_LIMITED
    assert len(searches(testweb)) == 3


def test_a_forbidden_instance_is_unauthorized_and_not_retried(testweb: TestWeb) -> None:
    testweb.add("/search", "json disabled", status=403, content_type="text/plain")

    result = provider(testweb.base).search("Quillnote", 10)

    assert result.outcome is Outcome.UNAUTHORIZED
    assert "search.formats" in result.detail
    assert len(searches(testweb)) == 1


def test_a_wrong_url_is_unavailable_not_no_hit(testweb: TestWeb) -> None:
    result = provider(testweb.url("/not-searxng")).search("Quillnote", 10)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "HTTP 404" in result.detail


def test_malformed_json_is_unavailable_with_detail(testweb: TestWeb) -> None:
    testweb.add("/search", '{"results": [', content_type="application/json")

    result = provider(testweb.base).search("Quillnote", 10)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "malformed JSON" in result.detail


def test_json_without_a_results_list_is_unavailable(testweb: TestWeb) -> None:
    testweb.add("/search", json.dumps({"results": "nope"}), content_type="application/json")

    result = provider(testweb.base).search("Quillnote", 10)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "'results'" in result.detail


def test_a_slow_instance_times_out(testweb: TestWeb) -> None:
    testweb.add_json("/search", {"results": RESULTS}, delay=1.0)

    result = provider(testweb.base, timeout=0.1, tries=1).search("Quillnote", 10)

    assert result.outcome is Outcome.TIMEOUT


def test_a_refused_connection_is_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again before the search: nothing listens

    result = provider(f"http://127.0.0.1:{port}", tries=2).search("Quillnote", 10)

    assert result.outcome is Outcome.UNAVAILABLE
    assert "unreachable" in result.detail


def test_a_dropped_connection_is_unavailable(testweb: TestWeb) -> None:
    testweb.add("/search", drop_connection=True)

    assert provider(testweb.base, tries=1).search("Quillnote", 10).outcome is Outcome.UNAVAILABLE


def test_retries_back_off_exponentially(testweb: TestWeb) -> None:
    testweb.add("/search", "boom", status=502, content_type="text/plain")
    waits: list[float] = []

    provider(testweb.base, base_delay=1.0, sleep=waits.append).search("Quillnote", 10)

    assert len(waits) == 2
    assert 1.0 <= waits[0] <= 2.0
    assert 2.0 <= waits[1] <= 4.0


def test_a_searxng_spec_uses_the_settings(testweb: TestWeb, settings) -> None:
    settings.SEARCH_TIMEOUT = 7.0
    settings.RETRY_TRIES = 2
    settings.FETCH_USER_AGENT = "VerdictTest/1"

    built = build_provider(f"searxng:{testweb.base}/")

    assert isinstance(built, SearxngProvider)
    assert (built.base_url, built.timeout, built.tries) == (testweb.base, 7.0, 2)
    assert built.user_agent == "VerdictTest/1"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("searxng:", "give the instance URL"),
        ("searxng:localhost:8888", "not an http"),
        ("searxng:file:///etc/passwd", "not an http"),
        ("searxng:http://", "not an http"),
    ],
)
def test_bad_searxng_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(SourceSpecError, match=message):
        build_provider(spec)


# --- bounded time and the guard ---------------------------------------------------------


def test_an_instance_that_drip_feeds_its_answer_ends_at_the_deadline() -> None:
    server = DripServer().start()
    started = time.monotonic()
    try:
        # Each byte comes well within the read timeout: only the deadline can end it.
        result = provider(server.base, timeout=5.0, deadline=0.5).search("Quillnote", 10)
    finally:
        server.stop()

    assert result.outcome is Outcome.TIMEOUT
    assert "0.5 s deadline" in result.detail
    assert time.monotonic() - started < 0.5 * 4


def test_after_three_timeouts_in_a_row_the_instance_is_not_asked_again() -> None:
    server = DripServer().start()
    try:
        searxng = provider(server.base, timeout=5.0, deadline=0.2, tries=1)
        results = [searxng.search(f"query {n}", 10) for n in range(5)]
    finally:
        server.stop()

    assert [r.outcome for r in results] == [Outcome.TIMEOUT] * 5
    assert len(server.requests) == 3
    assert results[-1].detail == "not asked: SearXNG timed out on 3 searches in a row"


def test_the_configured_instance_may_be_private_but_its_redirects_are_guarded(
    testweb: TestWeb,
) -> None:
    elsewhere = TestWeb(host="127.0.0.2").start()
    try:
        target = elsewhere.add_searxng(lambda q: RESULTS) + "/search?q=x&format=json"
        testweb.add("/search", status=302, headers={"Location": target})
        result = provider(testweb.base).search("Quillnote", 10)
    finally:
        elsewhere.stop()

    assert result.outcome is Outcome.BLOCKED
    assert "127.0.0.2" in result.detail
    assert elsewhere.requests == []


def test_redirects_to_an_allowed_network_are_followed(testweb: TestWeb) -> None:
    elsewhere = TestWeb(host="127.0.0.2").start()
    try:
        target = elsewhere.add_searxng(lambda q: RESULTS) + "/search?q=x&format=json"
        testweb.add("/search", status=302, headers={"Location": target})
        allowed = [ipaddress.ip_network("127.0.0.2/32")]
        result = provider(testweb.base, allowed_networks=allowed).search("Quillnote", 10)
    finally:
        elsewhere.stop()

    assert result.outcome is Outcome.OK


def test_a_searxng_spec_takes_its_deadline_and_allowed_networks_from_the_settings(
    testweb: TestWeb, settings
) -> None:
    settings.SEARCH_DEADLINE = 9.0
    settings.FETCH_ALLOWED_NETWORKS = [ipaddress.ip_network("10.0.0.0/8")]

    built = build_provider(f"searxng:{testweb.base}")

    assert isinstance(built, SearxngProvider)
    assert (built.deadline, built.allowed_networks) == (9.0, settings.FETCH_ALLOWED_NETWORKS)


def test_an_answer_larger_than_the_cap_is_refused_without_being_read_whole() -> None:
    server = EndlessServer().start()
    try:
        started = time.monotonic()
        result = provider(server.base, max_bytes=100_000, deadline=30.0).search("q", 5)
        took = time.monotonic() - started
    finally:
        server.stop()

    assert result.outcome is Outcome.BLOCKED
    assert result.detail == (
        "SearXNG answered with more than 100,000 bytes (SEARCH_MAX_BYTES); "
        "the answer was refused unread"
    )
    assert took < 5, "it stopped reading at the cap, not at the deadline"
    assert server.sent < 20_000_000


def test_an_answer_announced_larger_than_the_cap_is_refused_before_its_body(
    testweb: TestWeb,
) -> None:
    base = testweb.add_searxng(lambda q: RESULTS * 400)

    result = provider(base, max_bytes=2048).search("Quillnote", 5)

    assert result.outcome is Outcome.BLOCKED
    assert "more than 2,048 bytes (SEARCH_MAX_BYTES)" in result.detail


def test_the_answer_cap_comes_from_the_settings(settings) -> None:
    settings.SEARCH_MAX_BYTES = 123_456
    assert build_provider("searxng:http://127.0.0.1:8888").max_bytes == 123_456  # type: ignore[attr-defined]
