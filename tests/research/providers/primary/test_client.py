"""Requests to registry APIs: deadlines, retries, what services ask of us, and caps."""

from __future__ import annotations

import ipaddress
import time

import pytest

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary.client import ApiClient, decode_xml
from research.providers.primary.limits import wait_hint
from tests.research.providers.primary.world import NOW_EPOCH
from tests.research.providers.servers import DripServer, EndlessServer
from tests.testweb import TestWeb


def client(base: str, waits: list[float] | None = None, **options: object) -> ApiClient:
    settings: dict = {
        "user_agent": "VerdictTest/1",
        "timeout": 5.0,
        "tries": 3,
        "base_delay": 0.0,
        "sleep": (waits if waits is not None else []).append,
        "clock": lambda: NOW_EPOCH,
        **options,
    }
    return ApiClient("test", "Testservice", base, **settings)


def get(api: ApiClient, path: str = "api/thing", deadline: float = 5.0, **options: object):
    call = Call.within_seconds(deadline)
    with call.active():
        return api.get(path, call=call, **options)


def test_a_json_answer_is_ok_with_its_data(testweb: TestWeb) -> None:
    testweb.add_json("/api/thing", {"name": "thing", "stars": 3})

    answer = get(client(testweb.base))

    assert answer.outcome is Outcome.OK
    assert answer.data == {"name": "thing", "stars": 3}
    assert answer.fetched_at == NOW_EPOCH
    assert not answer.from_cache


def test_query_parameters_are_sent_and_empty_ones_left_out(testweb: TestWeb) -> None:
    testweb.add_json("/api/thing", {})
    api = client(testweb.base)
    call = Call.within_seconds(5)
    with call.active():
        api.get("api/thing", {"q": "flask in:name", "page": None, "per_page": 5}, call=call)

    assert testweb.requests == ["/api/thing?q=flask+in%3Aname&per_page=5"]


def test_a_missing_record_is_no_hit_and_not_retried(testweb: TestWeb) -> None:
    answer = get(client(testweb.base), "api/missing")

    assert answer.outcome is Outcome.NO_HIT
    assert testweb.requests == ["/api/missing"]


def test_a_server_error_is_unavailable_after_three_tries_with_backoff(testweb: TestWeb) -> None:
    testweb.add("/api/thing", "<h1>boom</h1>", status=500)
    waits: list[float] = []

    answer = get(client(testweb.base, waits, base_delay=1.0))

    assert answer.outcome is Outcome.UNAVAILABLE
    assert len(testweb.requests) == 3
    assert "HTTP 500: boom" in answer.detail
    assert "after 3 tries" in answer.detail
    assert 1.0 <= waits[0] <= 2.0 and 2.0 <= waits[1] <= 4.0


def test_a_refusal_that_asking_again_cannot_change_is_not_retried(testweb: TestWeb) -> None:
    testweb.add_json("/api/thing", {"message": "Validation Failed"}, status=422)

    answer = get(client(testweb.base))

    assert answer.outcome is Outcome.UNAVAILABLE
    assert answer.detail == "Testservice answered HTTP 422: Validation Failed"
    assert len(testweb.requests) == 1


def test_bad_credentials_are_unauthorized_and_not_retried(testweb: TestWeb) -> None:
    testweb.add_json("/api/thing", {"message": "Bad credentials"}, status=401)

    answer = get(client(testweb.base))

    assert answer.outcome is Outcome.UNAUTHORIZED
    assert "Bad credentials" in answer.detail
    assert len(testweb.requests) == 1


def test_malformed_json_is_unavailable_not_a_crash(testweb: TestWeb) -> None:
    testweb.add("/api/thing", '{"name": "thi', content_type="application/json")

    answer = get(client(testweb.base, tries=1))

    assert answer.outcome is Outcome.UNAVAILABLE
    assert "malformed answer" in answer.detail


def test_xml_answers_are_read_without_expanding_entities(testweb: TestWeb) -> None:
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
        "<feed><title>&lol2;</title></feed>"
    )
    testweb.add("/api/thing", bomb, content_type="application/atom+xml")

    answer = get(client(testweb.base), decode=decode_xml)

    assert answer.outcome is Outcome.OK
    assert "lollol" not in (answer.data.findtext("title") or "")


def test_retry_after_is_waited_for_before_the_next_try(testweb: TestWeb) -> None:
    testweb.add_json(
        "/api/thing", {"message": "slow down"}, status=429, headers={"Retry-After": "2"}
    )
    waits: list[float] = []

    answer = get(client(testweb.base, waits), deadline=10.0)

    assert answer.outcome is Outcome.RATE_LIMITED
    assert waits and all(wait >= 2.0 for wait in waits)


def test_a_wait_longer_than_the_deadline_is_not_waited_for(testweb: TestWeb) -> None:
    testweb.add_json("/api/thing", {}, status=429, headers={"Retry-After": "20"})
    waits: list[float] = []

    answer = get(client(testweb.base, waits), deadline=5.0)

    assert answer.outcome is Outcome.RATE_LIMITED
    assert waits == []
    assert len(testweb.requests) == 1
    assert "left no time for another try" in answer.detail


def test_a_spent_rate_limit_closes_the_service_until_it_resets(testweb: TestWeb) -> None:
    reset = int(NOW_EPOCH) + 1800
    headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(reset)}
    testweb.add_json(
        "/api/thing", {"message": "API rate limit exceeded"}, status=403, headers=headers
    )
    now = [NOW_EPOCH]
    api = client(testweb.base, clock=lambda: now[0], rate_limit_hint="set a token")

    first = get(api)
    second = get(api)
    now[0] = reset + 1
    testweb.add_json("/api/thing", {"name": "thing"})
    third = get(api)

    assert first.outcome is Outcome.RATE_LIMITED
    assert "asked to wait 1800 s" in first.detail
    assert "not asked again until 2026-11-20T12:30:00Z (set a token)" in first.detail
    assert second.outcome is Outcome.RATE_LIMITED
    assert second.detail.startswith("not asked: Testservice's rate limit is spent until")
    assert third.outcome is Outcome.OK
    assert len(testweb.requests) == 2, "asked once, not asked while closed, asked after the reset"


def test_another_client_of_the_same_service_sees_the_closed_gate(testweb: TestWeb) -> None:
    headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW_EPOCH) + 600)}
    testweb.add_json("/api/thing", {}, status=403, headers=headers)

    get(client(testweb.base))
    answer = get(client(testweb.base))

    assert answer.outcome is Outcome.RATE_LIMITED
    assert answer.detail.startswith("not asked:")
    assert len(testweb.requests) == 1


def test_a_forbidden_answer_without_rate_limit_headers_is_unauthorized(testweb: TestWeb) -> None:
    testweb.add_json("/api/thing", {"message": "Resource not accessible"}, status=403)

    assert get(client(testweb.base)).outcome is Outcome.UNAUTHORIZED


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "7"}, 7.0),
        ({"Retry-After": "Fri, 20 Nov 2026 12:01:00 GMT"}, 60.0),
        ({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW_EPOCH) + 90)}, 90.0),
        ({"X-RateLimit-Remaining": "12", "X-RateLimit-Reset": str(int(NOW_EPOCH) + 90)}, None),
        ({"RateLimit-Reset": "30"}, 30.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_wait_hints_are_read_from_the_headers_services_use(headers, expected) -> None:
    assert wait_hint(headers, NOW_EPOCH) == expected


def test_a_hanging_service_ends_at_the_deadline() -> None:
    server = DripServer().start()
    started = time.monotonic()
    try:
        answer = get(client(server.base, timeout=5.0), deadline=0.5)
    finally:
        server.stop()

    assert answer.outcome is Outcome.TIMEOUT
    assert "0.5 s deadline" in answer.detail
    assert time.monotonic() - started < 2.0


def test_after_three_timeouts_in_a_row_the_client_stops_asking() -> None:
    server = DripServer().start()
    try:
        api = client(server.base, tries=1)
        answers = [get(api, deadline=0.2) for _ in range(5)]
    finally:
        server.stop()

    assert [answer.outcome for answer in answers] == [Outcome.TIMEOUT] * 5
    assert len(server.requests) == 3
    assert answers[-1].detail == "not asked: Testservice timed out on 3 requests in a row"


def test_an_answer_larger_than_the_cap_is_refused_unread() -> None:
    server = EndlessServer().start()
    try:
        answer = get(client(server.base, max_bytes=50_000), deadline=10.0)
    finally:
        server.stop()

    assert answer.outcome is Outcome.BLOCKED
    assert "more than 50,000 bytes (PRIMARY_MAX_BYTES)" in answer.detail
    assert server.sent < 5_000_000


def test_the_configured_host_may_be_local_but_a_redirect_elsewhere_is_guarded(
    testweb: TestWeb,
) -> None:
    elsewhere = TestWeb(host="127.0.0.2").start()
    try:
        elsewhere.add_json("/secret", {"internal": True})
        testweb.add("/api/thing", status=302, headers={"Location": elsewhere.url("/secret")})
        answer = get(client(testweb.base))
    finally:
        elsewhere.stop()

    assert answer.outcome is Outcome.BLOCKED
    assert "127.0.0.2" in answer.detail
    assert elsewhere.requests == []


def test_redirects_within_the_service_are_followed(testweb: TestWeb) -> None:
    testweb.add_json("/api/renamed", {"name": "renamed"})
    testweb.add("/api/thing", status=301, headers={"Location": "/api/renamed"})

    answer = get(client(testweb.base))

    assert answer.outcome is Outcome.OK
    assert answer.data == {"name": "renamed"}


def test_a_redirect_to_an_allowed_network_is_followed(testweb: TestWeb) -> None:
    elsewhere = TestWeb(host="127.0.0.2").start()
    try:
        elsewhere.add_json("/mirror", {"name": "mirrored"})
        testweb.add("/api/thing", status=302, headers={"Location": elsewhere.url("/mirror")})
        allowed = [ipaddress.ip_network("127.0.0.2/32")]
        answer = get(client(testweb.base, allowed_networks=allowed))
    finally:
        elsewhere.stop()

    assert answer.outcome is Outcome.OK


def test_a_service_that_asks_for_a_pace_gets_it(testweb: TestWeb) -> None:
    testweb.add_json("/api/thing", {})
    waits: list[float] = []
    api = client(testweb.base + "/paced", waits, min_interval=3.0)
    testweb.add_json("/paced/api/thing", {})

    for _ in range(3):
        get(api, deadline=30.0)

    assert len(waits) == 2
    assert waits[0] == pytest.approx(3.0, abs=0.2)
    assert waits[1] == pytest.approx(6.0, abs=0.2), "the third waits for the second's slot"


def test_a_pace_that_would_outlast_the_deadline_is_not_waited_for(testweb: TestWeb) -> None:
    testweb.add_json("/slow/api/thing", {})
    api = client(testweb.base + "/slow", min_interval=10.0)

    first = get(api, deadline=5.0)
    second = get(api, deadline=5.0)

    assert first.outcome is Outcome.OK
    assert second.outcome is Outcome.TIMEOUT
    assert "one request every 10 s" in second.detail


def test_a_missing_endpoint_is_unavailable_not_found_nothing(testweb: TestWeb) -> None:
    answer = get(client(testweb.base), "api/search", endpoint=True)

    assert answer.outcome is Outcome.UNAVAILABLE
    assert answer.detail == (
        f"Testservice answered HTTP 404 at {testweb.base}/api/search: is its address right?"
    )
