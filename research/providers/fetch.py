"""HttpFetcher: the one place pages are fetched from the web (DESIGN sections 3 and 4).

Every hop of a redirect chain passes the SSRF guard before a connection is made, then
robots.txt, and the connection goes to the very address the guard checked
(research.providers.http). A fetch ends within its total deadline whatever the server
does. Bodies are streamed and capped, content types are checked, the body is sniffed for
what it really is, and every failure ends in an Outcome: nothing here raises for network
trouble.
"""

from __future__ import annotations

import functools
import ssl
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

import httpx
from protego import Protego

from research.outcomes import Outcome, outcome_for_status
from research.providers.base import FetchResult, with_retries
from research.providers.deadline import DEFAULT_DEADLINE_FACTOR, Deadline
from research.providers.http import Call, guarded_client, read_capped, shared_ssl_context
from research.providers.netguard import IPNetwork, Resolver, check_url, resolve
from research.providers.sniff import media_type_of, sniff

ACCEPTED_TYPES = frozenset(
    {"text/html", "application/xhtml+xml", "text/plain", "text/markdown", "application/pdf"}
)
ACCEPT_HEADER = (
    "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.8,application/pdf;q=0.8"
)
MAX_REDIRECTS = 5
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# Crawlers cap robots.txt at about 500 KiB (RFC 9309 asks for at least that much).
ROBOTS_MAX_BYTES = 512_000


@dataclass(frozen=True)
class _Policy:
    max_bytes: int
    accept: frozenset[str] | None  # None accepts any content type (robots.txt)
    robots: bool


_Robots = Protego | None  # None: no rules, everything allowed


class HttpFetcher:
    """A Fetcher over httpx. Safe to share between threads: each attempt opens its own
    client; at most `per_host` requests go to one host at once; and each origin's robots.txt
    is read once, by the first thread that needs it, while the others for that origin wait
    for its answer (other origins' threads do not)."""

    def __init__(
        self,
        *,
        timeout: float,
        max_bytes: int,
        user_agent: str,
        allowed_networks: Iterable[IPNetwork] = (),
        respect_robots: bool = True,
        tries: int = 3,
        base_delay: float = 0.5,
        deadline: float | None = None,
        resolver: Resolver = resolve,
        ssl_context: ssl.SSLContext | None = None,
        per_host: int = 6,
    ) -> None:
        self.timeout = timeout  # for each connect and read
        self.deadline = timeout * DEFAULT_DEADLINE_FACTOR if deadline is None else deadline
        self.user_agent = user_agent
        self.allowed_networks = list(allowed_networks)
        self.tries = tries
        self.base_delay = base_delay
        self.resolver = resolver
        self._page_policy = _Policy(max_bytes, ACCEPTED_TYPES, respect_robots)
        self._robots_policy = _Policy(min(max_bytes, ROBOTS_MAX_BYTES), None, False)
        self._robots: dict[str, _Robots] = {}
        self._robots_lock = threading.Lock()
        self._robots_reading: dict[str, threading.Lock] = {}  # one lock per origin
        self._hosts = HostSlots(per_host)
        # Building an SSL context costs ~50 ms; one shared context keeps a client per
        # attempt cheap.
        self._ssl_context = ssl_context or shared_ssl_context()

    @classmethod
    def from_settings(cls, per_host: int | None = None) -> HttpFetcher:
        """The configured fetcher; `per_host` narrows FETCH_PER_HOST for one of several
        fetchers that read one run's pages at once."""
        from django.conf import settings

        return cls(
            timeout=settings.FETCH_TIMEOUT,
            max_bytes=settings.FETCH_MAX_BYTES,
            user_agent=settings.FETCH_USER_AGENT,
            allowed_networks=settings.FETCH_ALLOWED_NETWORKS,
            tries=settings.RETRY_TRIES,
            base_delay=settings.RETRY_BASE_DELAY,
            deadline=settings.FETCH_DEADLINE,
            per_host=per_host or settings.FETCH_PER_HOST,
        )

    def fetch(self, url: str) -> FetchResult:
        # One call for the whole fetch: robots.txt, every hop and every retry share its
        # deadline, and each host is resolved once.
        call = Call.within_seconds(self.deadline, self.resolver)
        with call.active():
            attempt = functools.partial(self._attempt, url, call)
            result = with_retries(attempt, self.tries, self.base_delay, deadline=call.deadline)
        return replace(result, url=url)

    def _attempt(self, url: str, call: Call) -> FetchResult:
        headers = {"User-Agent": self.user_agent, "Accept": ACCEPT_HEADER}
        with guarded_client(
            timeout=self.timeout,
            headers=headers,
            allowed_networks=self.allowed_networks,
            ssl_context=self._ssl_context,
        ) as client:
            return self._follow(client, call, url, self._page_policy)

    def _follow(self, client: httpx.Client, call: Call, url: str, policy: _Policy) -> FetchResult:
        current = url
        for _hop in range(MAX_REDIRECTS + 1):
            step = self._hop(client, call, current, policy)
            if isinstance(step, FetchResult):
                return step
            current = step
        detail = f"more than {MAX_REDIRECTS} redirects"
        return FetchResult(url, Outcome.BLOCKED, final_url=current, detail=detail)

    def _hop(
        self, client: httpx.Client, call: Call, url: str, policy: _Policy
    ) -> FetchResult | str:
        """One request: a final result, or the URL the response redirects to."""
        refused = self._refusal(client, call, url, policy)
        if refused is not None:
            return refused
        try:
            with self._hosts.slot(url), client.stream("GET", url) as response:
                return _redirect_target(response) or _read(response, url, policy, call.deadline)
        except httpx.HTTPError as exc:
            return _failure(url, *call.failure(exc))
        except httpx.InvalidURL as exc:
            return _failure(url, Outcome.BLOCKED, f"malformed redirect ({exc})")

    def _refusal(
        self, client: httpx.Client, call: Call, url: str, policy: _Policy
    ) -> FetchResult | None:
        # The call resolves each host once; the connection then goes to the address
        # checked here (research.providers.http), so a rebinding name cannot slip past.
        refusal = check_url(url, self.allowed_networks, resolver=call.resolve)
        if refusal is not None and call.deadline.expired:
            detail = f"no answer within {call.deadline.describe()} ({refusal.reason})"
            return _failure(url, Outcome.TIMEOUT, detail)
        if refusal is not None:
            return _failure(url, refusal.outcome, refusal.reason)
        return self._robots_refusal(client, call, url) if policy.robots else None

    def _robots_refusal(self, client: httpx.Client, call: Call, url: str) -> FetchResult | None:
        rules = self._robots_for(client, call, url)
        if isinstance(rules, FetchResult):
            return rules
        if rules is None or rules.can_fetch(url, self.user_agent):
            return None
        return _failure(url, Outcome.BLOCKED, "robots.txt disallows this URL")

    def _robots_for(self, client: httpx.Client, call: Call, url: str) -> _Robots | FetchResult:
        """The origin's robots.txt rules, or the failure that kept us from reading them."""
        robots_url = str(httpx.URL(url).copy_with(raw_path=b"/robots.txt", fragment=None))
        with self._robots_lock:
            if robots_url in self._robots:
                return self._robots[robots_url]
            reading = self._robots_reading.setdefault(robots_url, threading.Lock())
        # One reader per origin: the others wait for its answer instead of asking again,
        # and no origin waits for another's.
        if not reading.acquire(timeout=max(0.0, call.deadline.remaining())):
            detail = f"robots.txt: no answer within {call.deadline.describe()}"
            return _failure(url, Outcome.TIMEOUT, detail)
        try:
            with self._robots_lock:
                if robots_url in self._robots:
                    return self._robots[robots_url]
            result = self._follow(client, call, robots_url, self._robots_policy)
            if result.outcome.retryable:
                # RFC 9309: an unreachable robots.txt means "do not crawl yet", not "allowed".
                return _failure(url, result.outcome, f"robots.txt: {result.detail}")
            rules = _parse_robots(result)
            with self._robots_lock:
                self._robots[robots_url] = rules
            return rules
        finally:
            reading.release()


class HostSlots:
    """At most `per_host` requests to one host at once."""

    def __init__(self, per_host: int) -> None:
        self.per_host = max(1, per_host)
        self._lock = threading.Lock()
        self._slots: dict[str, threading.BoundedSemaphore] = {}

    @contextmanager
    def slot(self, url: str) -> Iterator[None]:
        host = (httpx.URL(url).host or "").lower()
        with self._lock:
            slots = self._slots.setdefault(host, threading.BoundedSemaphore(self.per_host))
        with slots:
            yield


def _parse_robots(result: FetchResult) -> _Robots:
    # Any other answer (404, 401, refused) means there are no rules to follow (RFC 9309).
    if result.outcome is not Outcome.OK:
        return None
    return Protego.parse(result.body.decode("utf-8", errors="replace"))


def _redirect_target(response: httpx.Response) -> str | None:
    location = response.headers.get("location")
    if response.status_code not in REDIRECT_STATUSES or not location:
        return None
    return str(response.url.join(location))


_DATING = ("last-modified", "date")  # what find_page_date reads of the headers


def _read(response: httpx.Response, url: str, policy: _Policy, deadline: Deadline) -> FetchResult:
    status = response.status_code
    content_type = response.headers.get("content-type", "")
    dating = {k: v for k in _DATING if (v := response.headers.get(k))}
    found = FetchResult(url, Outcome.OK, url, status, content_type, headers=dating)
    if not 200 <= status < 300:
        # A 3xx that could not be followed is no page either.
        outcome = outcome_for_status(status) if status >= 400 else Outcome.UNAVAILABLE
        return replace(found, outcome=outcome, detail=f"HTTP {status}")
    refused = _type_refusal(content_type, policy)
    if refused:
        return replace(found, outcome=Outcome.BLOCKED, detail=refused)
    body = read_capped(response, policy.max_bytes, deadline)
    if body is None:
        return replace(found, outcome=Outcome.BLOCKED, detail=_too_large(policy))
    if policy.accept is None:
        return replace(found, body=body)
    # The header is a claim: the body says what it really is.
    sniffed = sniff(body, content_type, policy.accept)
    if sniffed.outcome is not Outcome.OK:
        return replace(found, outcome=sniffed.outcome, detail=sniffed.detail)
    return replace(found, content_type=sniffed.content_type, body=body, detail=sniffed.detail)


def _type_refusal(content_type: str, policy: _Policy) -> str | None:
    media_type = media_type_of(content_type)
    if policy.accept is None or not media_type or media_type in policy.accept:
        return None
    return f"content type {media_type} refused"


def _too_large(policy: _Policy) -> str:
    return f"larger than {policy.max_bytes} bytes"


def _failure(url: str, outcome: Outcome, detail: str) -> FetchResult:
    return FetchResult(url, outcome, final_url=url, detail=detail)
