"""The guarded client: connect to the address that was checked, and end by the deadline."""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from research.outcomes import Outcome
from research.providers.fetch import HttpFetcher
from research.providers.http import Call, guarded_client
from tests.research.providers.servers import (
    DripServer,
    Request,
    make_certificates,
    response,
)

LOOPBACK = [ipaddress.ip_network("127.0.0.1/32")]
DEADLINE = 0.5


class FlippingResolver:
    """A DNS server under an attacker's control: its first answer for a name passes the
    guard, every later one points somewhere else."""

    def __init__(self, first: dict[str, str], later: dict[str, str] | None = None) -> None:
        self.first = first
        self.later = later or {}
        self.calls: Counter[str] = Counter()

    def __call__(self, host: str) -> list[str]:
        self.calls[host] += 1
        table = self.first if self.calls[host] == 1 else self.later
        if host not in table:
            raise OSError(f"no such host {host}")
        return [table[host]]


def not_found(request: Request) -> bytes:
    return response("not found", "404 Not Found", "text/plain")


def page(text: str):
    def answer(request: Request) -> bytes:
        return response(f"<html><body><p>{text}</p><p>{request.headers['host']}</p></body></html>")

    return answer


def fetcher(**overrides: object) -> HttpFetcher:
    options: dict = {
        "timeout": 5.0,
        "max_bytes": 200_000,
        "user_agent": "VerdictTest/1.0",
        "allowed_networks": LOOPBACK,
        "base_delay": 0,
        "deadline": 5.0,
    }
    options.update(overrides)
    return HttpFetcher(**options)


@pytest.fixture
def checked() -> Iterator[DripServer]:
    """The server the guard approves of, on 127.0.0.1."""
    server = DripServer(answers={"/robots.txt": not_found, "/page": page("checked")}).start()
    yield server
    server.stop()


@pytest.fixture
def rebound(checked: DripServer) -> Iterator[DripServer]:
    """What a rebinding name points to the second time: 127.0.0.2, on the same port."""
    server = DripServer(
        host="127.0.0.2",
        port=checked.port,
        answers={"/robots.txt": not_found, "/page": page("rebound")},
    ).start()
    yield server
    server.stop()


# --- connect to the address that was checked --------------------------------------------


def test_a_rebinding_name_is_connected_to_at_the_address_that_was_checked(
    checked: DripServer, rebound: DripServer
) -> None:
    resolver = FlippingResolver({"rebind.test": "127.0.0.1"}, {"rebind.test": "127.0.0.2"})

    result = fetcher(resolver=resolver).fetch(f"http://rebind.test:{checked.port}/page")

    assert result.outcome is Outcome.OK
    assert b"checked" in result.body
    assert resolver.calls == {"rebind.test": 1}  # robots.txt and the page share one answer
    assert rebound.requests == []
    assert [r.headers["host"] for r in checked.requests] == [f"rebind.test:{checked.port}"] * 2


def test_a_name_whose_first_answer_is_refused_is_never_connected_to(
    checked: DripServer, rebound: DripServer
) -> None:
    resolver = FlippingResolver({"rebind.test": "127.0.0.2"}, {"rebind.test": "127.0.0.1"})

    result = fetcher(resolver=resolver).fetch(f"http://rebind.test:{checked.port}/page")

    assert result.outcome is Outcome.BLOCKED
    assert "rebind.test resolves to 127.0.0.2" in result.detail
    assert resolver.calls == {"rebind.test": 1}
    assert checked.requests == rebound.requests == []


def test_every_redirect_hop_is_resolved_once_and_connected_at_its_checked_address(
    checked: DripServer, rebound: DripServer
) -> None:
    port = checked.port
    checked.answers["/go"] = lambda request: (
        f"HTTP/1.1 302 Found\r\nLocation: http://next.test:{port}/page\r\nContent-Length: 0\r\n\r\n"
    ).encode()
    resolver = FlippingResolver(
        {"start.test": "127.0.0.1", "next.test": "127.0.0.1"},
        {"start.test": "127.0.0.2", "next.test": "127.0.0.2"},
    )

    result = fetcher(resolver=resolver).fetch(f"http://start.test:{port}/go")

    assert result.outcome is Outcome.OK
    assert result.final_url == f"http://next.test:{port}/page"
    assert resolver.calls == {"start.test": 1, "next.test": 1}
    assert rebound.requests == []
    assert ("/page", f"next.test:{port}") in [(r.path, r.headers["host"]) for r in checked.requests]


def test_a_redirect_to_a_name_that_resolves_to_a_refused_address_is_blocked(
    checked: DripServer, rebound: DripServer
) -> None:
    port = checked.port
    checked.answers["/go"] = lambda request: (
        f"HTTP/1.1 302 Found\r\nLocation: http://inside.test:{port}/page\r\n"
        "Content-Length: 0\r\n\r\n"
    ).encode()
    resolver = FlippingResolver({"start.test": "127.0.0.1", "inside.test": "127.0.0.2"})

    result = fetcher(resolver=resolver).fetch(f"http://start.test:{port}/go")

    assert result.outcome is Outcome.BLOCKED
    assert "127.0.0.2" in result.detail
    assert rebound.requests == []


def test_tls_sends_the_host_name_for_sni_and_verifies_the_certificate_for_it(
    tmp_path: Path,
) -> None:
    certificates = make_certificates("secure.test", tmp_path)
    names: list[str | None] = []
    server = DripServer(
        answers={"/robots.txt": not_found, "/page": page("secret")},
        tls=certificates.server_context(names),
    ).start()
    try:
        result = fetcher(
            resolver=FlippingResolver({"secure.test": "127.0.0.1"}),
            ssl_context=certificates.client_context(),
        ).fetch(f"https://secure.test:{server.port}/page")
    finally:
        server.stop()

    assert result.outcome is Outcome.OK
    assert b"secret" in result.body
    assert set(names) == {"secure.test"}
    assert {r.headers["host"] for r in server.requests} == {f"secure.test:{server.port}"}


def test_a_certificate_for_another_name_is_refused(tmp_path: Path) -> None:
    certificates = make_certificates("secure.test", tmp_path)
    server = DripServer(
        answers={"/robots.txt": not_found, "/page": page("secret")},
        tls=certificates.server_context([]),
    ).start()
    try:
        result = fetcher(
            resolver=FlippingResolver({"impostor.test": "127.0.0.1"}),
            ssl_context=certificates.client_context(),
            tries=1,
        ).fetch(f"https://impostor.test:{server.port}/page")
    finally:
        server.stop()

    assert result.outcome is Outcome.UNAVAILABLE
    assert "CERTIFICATE_VERIFY_FAILED" in result.detail
    assert server.requests == []


def test_a_guarded_client_connects_nowhere_outside_a_call(checked: DripServer) -> None:
    with (
        guarded_client(timeout=5, headers={}, allowed_networks=LOOPBACK) as client,
        pytest.raises(httpx.ConnectError, match="no guarded call"),
    ):
        client.get(checked.url("/page"))
    assert checked.requests == []


# --- the deadline -------------------------------------------------------------------------


@pytest.mark.parametrize("headers_too", [True, False], ids=["drip headers", "drip body"])
def test_a_drip_feeding_server_is_cut_off_at_the_deadline(headers_too: bool) -> None:
    server = DripServer(answers={"/robots.txt": not_found}, headers_too=headers_too).start()
    started = time.monotonic()
    try:
        # Each byte comes well within the 5 s read timeout: only the deadline can end it.
        result = fetcher(deadline=DEADLINE).fetch(server.url("/page"))
    finally:
        server.stop()
    elapsed = time.monotonic() - started

    assert result.outcome is Outcome.TIMEOUT
    assert "0.5 s deadline" in result.detail
    assert DEADLINE * 0.9 <= elapsed < DEADLINE * 4


def test_retries_stop_when_the_deadline_leaves_no_time_for_another(checked: DripServer) -> None:
    checked.answers["/busy"] = lambda request: response("busy", "503 Service Unavailable")

    result = fetcher(deadline=DEADLINE, base_delay=1.0).fetch(checked.url("/busy"))

    assert result.outcome is Outcome.UNAVAILABLE
    assert [r.path for r in checked.requests].count("/busy") == 1
    assert "left no time for another" in result.detail


def test_a_host_name_that_never_resolves_ends_at_the_deadline() -> None:
    release = threading.Event()

    def hanging(host: str) -> list[str]:
        release.wait(30)
        return ["127.0.0.1"]

    started = time.monotonic()
    try:
        result = fetcher(deadline=DEADLINE, resolver=hanging).fetch("http://slow-dns.test/page")
    finally:
        release.set()

    assert result.outcome is Outcome.TIMEOUT
    assert time.monotonic() - started < DEADLINE * 4


def test_a_call_asks_the_resolver_once_per_host() -> None:
    resolver = FlippingResolver({"once.test": "127.0.0.1"}, {"once.test": "127.0.0.2"})
    call = Call.within_seconds(5, resolver)

    assert call.resolve("once.test") == call.resolve("once.test") == ["127.0.0.1"]
    assert resolver.calls == {"once.test": 1}
