"""HttpFetcher: the one place pages are fetched from the web (DESIGN sections 3 and 4).

Every hop of a redirect chain passes the SSRF guard before a connection is made, then
robots.txt. Bodies are streamed and capped, content types are checked, and every failure
ends in an Outcome: nothing here raises for network trouble.
"""

from __future__ import annotations

import functools
import ssl
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace

import httpx
from protego import Protego

from research.outcomes import Outcome, outcome_for_status
from research.providers.base import FetchResult, with_retries
from research.providers.netguard import IPNetwork, check_url

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
# httpx timeouts apply per read: without a cap on the whole transfer, a server that drips
# a byte a second would hold a worker thread for hours.
TRANSFER_TIMEOUT_FACTOR = 4


@dataclass(frozen=True)
class _Policy:
    max_bytes: int
    accept: frozenset[str] | None  # None accepts any content type (robots.txt)
    robots: bool


_Robots = Protego | None  # None: no rules, everything allowed


class HttpFetcher:
    """A Fetcher over httpx. Safe to share between threads: each attempt opens its own
    client, and the per-origin robots.txt cache is guarded by a lock."""

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
    ) -> None:
        self.timeout = timeout
        self.user_agent = user_agent
        self.allowed_networks = list(allowed_networks)
        self.tries = tries
        self.base_delay = base_delay
        self._page_policy = _Policy(max_bytes, ACCEPTED_TYPES, respect_robots)
        self._robots_policy = _Policy(min(max_bytes, ROBOTS_MAX_BYTES), None, False)
        self._robots: dict[str, _Robots] = {}
        self._robots_lock = threading.Lock()
        # Building an SSL context costs ~50 ms; one shared context keeps a client per
        # attempt cheap (SSLContext is safe to share between threads).
        self._ssl_context = _shared_ssl_context()

    @classmethod
    def from_settings(cls) -> HttpFetcher:
        from django.conf import settings

        return cls(
            timeout=settings.FETCH_TIMEOUT,
            max_bytes=settings.FETCH_MAX_BYTES,
            user_agent=settings.FETCH_USER_AGENT,
            allowed_networks=settings.FETCH_ALLOWED_NETWORKS,
            tries=settings.RETRY_TRIES,
            base_delay=settings.RETRY_BASE_DELAY,
        )

    def fetch(self, url: str) -> FetchResult:
        result = with_retries(lambda: self._attempt(url), self.tries, self.base_delay)
        return replace(result, url=url)

    def _attempt(self, url: str) -> FetchResult:
        headers = {"User-Agent": self.user_agent, "Accept": ACCEPT_HEADER}
        # trust_env=False: a proxy from the environment would connect on our behalf to
        # addresses the guard never saw.
        with httpx.Client(
            timeout=self.timeout,
            headers=headers,
            verify=self._ssl_context,
            follow_redirects=False,
            trust_env=False,
        ) as client:
            return self._follow(client, url, self._page_policy)

    def _follow(self, client: httpx.Client, url: str, policy: _Policy) -> FetchResult:
        current = url
        for _hop in range(MAX_REDIRECTS + 1):
            step = self._hop(client, current, policy)
            if isinstance(step, FetchResult):
                return step
            current = step
        detail = f"more than {MAX_REDIRECTS} redirects"
        return FetchResult(url, Outcome.BLOCKED, final_url=current, detail=detail)

    def _hop(self, client: httpx.Client, url: str, policy: _Policy) -> FetchResult | str:
        """One request: a final result, or the URL the response redirects to."""
        refused = self._refusal(client, url, policy)
        if refused is not None:
            return refused
        deadline = time.monotonic() + self.timeout * TRANSFER_TIMEOUT_FACTOR
        try:
            with client.stream("GET", url) as response:
                return _redirect_target(response) or _read(response, url, policy, deadline)
        except httpx.TimeoutException as exc:
            return _failure(url, Outcome.TIMEOUT, f"timed out ({_describe(exc)})")
        except httpx.HTTPError as exc:
            return _failure(url, Outcome.UNAVAILABLE, _describe(exc))
        except httpx.InvalidURL as exc:
            return _failure(url, Outcome.BLOCKED, f"malformed redirect ({exc})")

    def _refusal(self, client: httpx.Client, url: str, policy: _Policy) -> FetchResult | None:
        # The connection resolves the host again (no IP pinning): httpx has no public hook
        # to dial a checked address while keeping Host and TLS SNI, so a DNS-rebinding
        # window of one TTL remains.
        refusal = check_url(url, self.allowed_networks)
        if refusal is not None:
            return _failure(url, refusal.outcome, refusal.reason)
        return self._robots_refusal(client, url) if policy.robots else None

    def _robots_refusal(self, client: httpx.Client, url: str) -> FetchResult | None:
        rules = self._robots_for(client, url)
        if isinstance(rules, FetchResult):
            return rules
        if rules is None or rules.can_fetch(url, self.user_agent):
            return None
        return _failure(url, Outcome.BLOCKED, "robots.txt disallows this URL")

    def _robots_for(self, client: httpx.Client, url: str) -> _Robots | FetchResult:
        """The origin's robots.txt rules, or the failure that kept us from reading them."""
        robots_url = str(httpx.URL(url).copy_with(raw_path=b"/robots.txt", fragment=None))
        with self._robots_lock:
            if robots_url in self._robots:
                return self._robots[robots_url]
        # Fetched outside the lock so one slow site does not stall the other threads; at
        # worst two threads read the same robots.txt once each.
        result = self._follow(client, robots_url, self._robots_policy)
        if result.outcome.retryable:
            # RFC 9309: an unreachable robots.txt means "do not crawl yet", not "allowed".
            return _failure(url, result.outcome, f"robots.txt: {result.detail}")
        rules = _parse_robots(result)
        with self._robots_lock:
            self._robots[robots_url] = rules
        return rules


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


def _read(response: httpx.Response, url: str, policy: _Policy, deadline: float) -> FetchResult:
    status = response.status_code
    content_type = response.headers.get("content-type", "")
    found = FetchResult(url, Outcome.OK, url, status, content_type)
    if not 200 <= status < 300:
        # A 3xx that could not be followed is no page either.
        outcome = outcome_for_status(status) if status >= 400 else Outcome.UNAVAILABLE
        return replace(found, outcome=outcome, detail=f"HTTP {status}")
    refused = _type_refusal(content_type, policy) or _length_refusal(response, policy)
    if refused:
        return replace(found, outcome=Outcome.BLOCKED, detail=refused)
    body = _read_capped(response, policy.max_bytes, deadline)
    if body is None:
        return replace(found, outcome=Outcome.BLOCKED, detail=_too_large(policy))
    if policy.accept is not None and not content_type:
        return _sniffed(found, body, policy.accept)
    return replace(found, body=body)


def _type_refusal(content_type: str, policy: _Policy) -> str | None:
    media_type = media_type_of(content_type)
    if policy.accept is None or not media_type or media_type in policy.accept:
        return None
    return f"content type {media_type} refused"


def _length_refusal(response: httpx.Response, policy: _Policy) -> str | None:
    try:
        declared = int(response.headers.get("content-length", ""))
    except ValueError:
        return None
    return _too_large(policy) if declared > policy.max_bytes else None


def _read_capped(response: httpx.Response, max_bytes: int, deadline: float) -> bytes | None:
    """The decoded body, or None once it grows past max_bytes (the rest is never read)."""
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            return None
        if time.monotonic() > deadline:
            raise httpx.ReadTimeout("the whole transfer took too long")
        chunks.append(chunk)
    return b"".join(chunks)


def _sniffed(found: FetchResult, body: bytes, accept: frozenset[str]) -> FetchResult:
    """A response without a Content-Type: accept it only when the body says what it is."""
    head = body[:1024].lstrip().lower()
    if head.startswith(b"%pdf-"):
        media_type = "application/pdf"
    elif head.startswith((b"<!doctype html", b"<html")):
        media_type = "text/html"
    else:
        media_type = ""
    if media_type not in accept:
        return replace(found, outcome=Outcome.BLOCKED, detail="content type missing")
    return replace(found, content_type=media_type, body=body)


def media_type_of(content_type: str) -> str:
    """ "text/html; charset=utf-8" -> "text/html"."""
    return content_type.split(";", 1)[0].strip().lower()


def _too_large(policy: _Policy) -> str:
    return f"larger than {policy.max_bytes} bytes"


def _failure(url: str, outcome: Outcome, detail: str) -> FetchResult:
    return FetchResult(url, outcome, final_url=url, detail=detail)


def _describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


@functools.cache
def _shared_ssl_context() -> ssl.SSLContext:
    # Loading the CA bundle takes ~50 ms; one context per process serves every fetcher.
    return httpx.create_ssl_context()
