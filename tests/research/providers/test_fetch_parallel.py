"""Many fetches at once through one fetcher: a bound per host, robots.txt read once per
host, and the hosts' robots.txt read side by side."""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from research.outcomes import Outcome
from research.providers.fetch import HttpFetcher
from tests.testweb import TestWeb

WAIT = 5.0  # a safety net for a broken run, never a measure
PAGE = b"<html><head><title>Page</title></head><body><p>Some text.</p></body></html>"


def make_fetcher(per_host: int) -> HttpFetcher:
    return HttpFetcher(
        timeout=WAIT,
        max_bytes=100_000,
        user_agent="VerdictTest/1.0",
        allowed_networks=[ipaddress.ip_network("127.0.0.0/30")],
        tries=1,
        base_delay=0,
        per_host=per_host,
    )


class Crowd:
    """A route handler that answers requests in groups of `size`, each once its whole group
    has arrived, and counts the most requests ever in flight on its host at once."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.changed = threading.Condition()
        self.arrived = 0
        self.in_flight = 0
        self.most = 0

    def __call__(self, query: dict) -> tuple[int, str, bytes]:
        with self.changed:
            group_full = (self.arrived // self.size + 1) * self.size
            self.arrived += 1
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
            self.changed.notify_all()
            gathered = self.changed.wait_for(lambda: self.arrived >= group_full, WAIT)
            self.in_flight -= 1
        if not gathered:
            return 503, "text/plain", b"never that many requests at once"
        return 200, "text/html; charset=utf-8", PAGE


@pytest.fixture
def two_hosts() -> Iterator[tuple[TestWeb, TestWeb]]:
    webs = (TestWeb().start(), TestWeb(host="127.0.0.2").start())
    yield webs
    for web in webs:
        web.stop()


def fetch_all(fetcher: HttpFetcher, urls: list[str]) -> list[Outcome]:
    with ThreadPoolExecutor(len(urls)) as pool:
        return [r.outcome for r in pool.map(fetcher.fetch, urls)]


def test_no_more_than_the_bound_of_requests_go_to_one_host_at_once(two_hosts):
    first, second = two_hosts
    crowds = [Crowd(2), Crowd(2)]
    urls = [
        web.add(f"/page/{n}", handler=crowd)
        for web, crowd in zip(two_hosts, crowds, strict=True)
        for n in range(6)
    ]
    outcomes = fetch_all(make_fetcher(per_host=2), urls)
    # Every request was answered, so each found its host with two in flight; none found three.
    assert outcomes == [Outcome.OK] * 12
    assert [c.most for c in crowds] == [2, 2]
    assert first.requests.count("/robots.txt") == second.requests.count("/robots.txt") == 1


def test_robots_txt_is_read_once_per_host_and_the_hosts_side_by_side(two_hosts):
    both_asked = threading.Barrier(2, timeout=WAIT)

    def robots(query: dict) -> tuple[int, str, bytes]:
        try:
            both_asked.wait()  # each host's robots.txt answers once the other's is asked
        except threading.BrokenBarrierError:
            return 503, "text/plain", b"the other host's robots.txt was never asked for"
        return 200, "text/plain", b"User-agent: *\nDisallow: /private/\n"

    urls = []
    for web in two_hosts:
        web.add("/robots.txt", handler=robots)
        urls += [web.add(f"/page/{n}", PAGE) for n in range(4)]
        urls.append(web.add("/private/page", PAGE))
    outcomes = fetch_all(make_fetcher(per_host=6), urls)
    assert outcomes == ([Outcome.OK] * 4 + [Outcome.BLOCKED]) * 2
    assert [web.requests.count("/robots.txt") for web in two_hosts] == [1, 1]
