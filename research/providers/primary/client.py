"""GET requests to registry and database APIs, through the one guarded HTTP client.

Every request of a lookup shares the lookup's deadline (research.providers.http.Call).
Answers are streamed and capped, read as JSON or XML, and end in an Outcome: nothing here
raises for network trouble. Failures that may pass are tried again with exponential
backoff and jitter, waiting at least as long as the service asks (Retry-After, GitHub's
X-RateLimit-Reset, RateLimit-Reset) when that fits in the deadline. A service whose rate
limit is spent is not asked again, by any client in this process, until it said it would
reset. Services that ask for a pace (arXiv: one request every 3 s) get it, across threads
(research.providers.primary.limits).

The configured base URLs are the operator's, so their hosts are exempt from the
private-address guard (as a SearXNG instance is); a redirect to any other host is guarded.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx
from lxml import etree

from research.outcomes import Outcome
from research.providers.http import Call, guarded_client, read_capped
from research.providers.netguard import IPNetwork
from research.providers.primary.cache import ResponseCache
from research.providers.primary.dates import timestamp
from research.providers.primary.limits import gate_for, rate_limited, wait_hint

RETRY_WAIT_CAP = 30.0  # seconds: a service asking for a longer wait is not waited for
TIMEOUTS_IN_A_ROW = 3  # after this many, a client stops asking for the rest of its life
ERROR_BODY_BYTES = 16_384

Decoder = Callable[[bytes], Any]


def decode_json(body: bytes) -> Any:
    return json.loads(body)


_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def decode_xml(body: bytes) -> etree._Element:
    """An XML document, without entity expansion or network access."""
    try:
        return etree.fromstring(body, parser=_XML_PARSER)
    except etree.XMLSyntaxError as exc:
        raise ValueError(str(exc)) from None


@dataclass(frozen=True)
class ApiAnswer:
    outcome: Outcome
    url: str
    status: int | None = None
    data: Any = None
    detail: str = ""
    fetched_at: float | None = None  # epoch seconds the service gave this answer
    from_cache: bool = False

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.OK


@dataclass
class _Reply:
    outcome: Outcome
    status: int | None = None
    data: Any = None
    body: bytes = b""
    detail: str = ""
    retry: bool = False
    wait: float | None = None  # seconds the service asked us to wait


class ApiClient:
    """GETs to one service's API, rooted at its configured base URL."""

    def __init__(
        self,
        service: str,
        label: str,
        base_url: str,
        *,
        user_agent: str,
        timeout: float = 10.0,
        tries: int = 3,
        base_delay: float = 0.5,
        max_bytes: int = 5_000_000,
        headers: Mapping[str, str] | None = None,
        cache: ResponseCache | None = None,
        min_interval: float = 0.0,
        allowed_networks: Iterable[IPNetwork] = (),
        rate_limit_hint: str = "",
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service  # "github": names the cache folder and the shared gate
        self.label = label  # "GitHub": how messages name it
        self.base_url = base_url.rstrip("/")
        self.user_agent = user_agent
        self.timeout = timeout
        self.tries = max(1, tries)
        self.base_delay = base_delay
        self.max_bytes = max_bytes
        self.headers = dict(headers or {})
        self.cache = cache
        self.min_interval = min_interval
        self.allowed_networks = list(allowed_networks)
        self.rate_limit_hint = rate_limit_hint  # e.g. "set GITHUB_TOKEN for a higher limit"
        self.gate = gate_for(service, self.base_url)
        self._sleep = sleep
        self._clock = clock
        self._timeouts = 0
        self._lock = threading.Lock()
        self._client: httpx.Client | None = None

    # --- the connection ---------------------------------------------------------------

    @property
    def client(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = guarded_client(
                    timeout=self.timeout,
                    headers={"User-Agent": self.user_agent, **self.headers},
                    allowed_networks=self.allowed_networks,
                    exempt_hosts=[httpx.URL(self.base_url).host],
                    follow_redirects=True,
                    limits=httpx.Limits(max_connections=16, max_keepalive_connections=8),
                )
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def url(self, path: str, params: Mapping[str, object] | None = None) -> str:
        """The full URL of `path` under the base URL, with its query parameters."""
        url = f"{self.base_url}/{path.lstrip('/')}" if path else self.base_url
        if params:
            pairs = [(key, str(value)) for key, value in params.items() if value is not None]
            url += ("&" if "?" in url else "?") + urlencode(pairs)
        return url

    # --- a request --------------------------------------------------------------------

    def get(
        self,
        path: str,
        params: Mapping[str, object] | None = None,
        *,
        call: Call,
        decode: Decoder = decode_json,
        accept: str = "application/json",
        endpoint: bool = False,
    ) -> ApiAnswer:
        """One GET: from the cache when a fresh answer is there, else from the service.

        A 404 from a record's address means there is no such record (NO_HIT); from an
        `endpoint` (a search, an API script) it means the address is wrong: UNAVAILABLE.
        """
        url = self.url(path, params)
        cached = self._cached(url, accept, decode)
        if cached is not None:
            return cached
        refused = self._refusal()
        if refused is not None:
            return ApiAnswer(refused[0], url, detail=refused[1])
        reply, fetched_at = self._with_retries(url, accept, call, decode)
        self._count_timeouts(reply.outcome)
        if endpoint and reply.outcome is Outcome.NO_HIT:
            detail = f"{self.label} answered HTTP {reply.status} at {url}: is its address right?"
            return ApiAnswer(Outcome.UNAVAILABLE, url, reply.status, detail=detail)
        if reply.outcome in (Outcome.OK, Outcome.NO_HIT) and self.cache is not None:
            self.cache.put(self.service, url, reply.status or 200, reply.body, fetched_at, accept)
        return ApiAnswer(reply.outcome, url, reply.status, reply.data, reply.detail, fetched_at)

    def _cached(self, url: str, accept: str, decode: Decoder) -> ApiAnswer | None:
        if self.cache is None:
            return None
        hit = self.cache.get(self.service, url, accept)
        if hit is None:
            return None
        if hit.status >= 400:
            detail = f"{self.label} has no such record (HTTP {hit.status}, cached)"
            return ApiAnswer(Outcome.NO_HIT, url, hit.status, None, detail, hit.stored_at, True)
        try:
            data = decode(hit.body)
        except (ValueError, TypeError):
            return None  # ask the service again
        return ApiAnswer(Outcome.OK, url, hit.status, data, "", hit.stored_at, True)

    def _refusal(self) -> tuple[Outcome, str] | None:
        reason = self.gate.closed(self._clock())
        if reason is not None:
            return Outcome.RATE_LIMITED, f"not asked: {reason}"
        with self._lock:
            if self._timeouts >= TIMEOUTS_IN_A_ROW:
                detail = f"not asked: {self.label} timed out on {self._timeouts} requests in a row"
                return Outcome.TIMEOUT, detail
        return None

    def _count_timeouts(self, outcome: Outcome) -> None:
        with self._lock:
            self._timeouts = self._timeouts + 1 if outcome is Outcome.TIMEOUT else 0

    def _with_retries(
        self, url: str, accept: str, call: Call, decode: Decoder
    ) -> tuple[_Reply, float]:
        attempt = 0
        note = ""
        while True:
            paced = self._keep_pace(call)
            if paced is not None:
                return paced, self._clock()
            reply = self._once(url, accept, call, decode)
            fetched_at = self._clock()
            attempt += 1
            if not reply.retry or attempt >= self.tries:
                break
            delay = self.base_delay * 2 ** (attempt - 1)
            delay += random.uniform(0, delay)
            if reply.wait is not None and reply.wait > RETRY_WAIT_CAP:
                note = f"it asked to wait {reply.wait:.0f} s, longer than {RETRY_WAIT_CAP:g} s"
                break
            delay = max(delay, reply.wait or 0.0)
            if delay >= call.deadline.remaining():
                note = f"{call.deadline.describe()} left no time for another try"
                break
            self._sleep(delay)
        if reply.outcome is Outcome.RATE_LIMITED:
            self._close_gate(reply)
        if reply.outcome not in (Outcome.OK, Outcome.NO_HIT) and (attempt > 1 or note):
            tries = f"after {attempt} {'try' if attempt == 1 else 'tries'}"
            reply.detail += f" ({tries}; {note})" if note else f" ({tries})"
        return reply, fetched_at

    def _keep_pace(self, call: Call) -> _Reply | None:
        pause = self.gate.reserve(self.min_interval)
        if pause <= 0:
            return None
        if pause >= call.deadline.remaining():
            detail = (
                f"not asked: {self.label} takes one request every {self.min_interval:g} s, "
                f"and the next would start after {call.deadline.describe()}"
            )
            return _Reply(Outcome.TIMEOUT, detail=detail)
        self._sleep(pause)
        return None

    def _close_gate(self, reply: _Reply) -> None:
        if reply.wait is None:
            return
        until = self._clock() + reply.wait
        reason = f"{self.label}'s rate limit is spent until {timestamp(until)}"
        if self.rate_limit_hint:
            reason += f"; {self.rate_limit_hint}"
        self.gate.close(until, reason)
        reply.detail += f"; not asked again until {timestamp(until)}"
        if self.rate_limit_hint:
            reply.detail += f" ({self.rate_limit_hint})"

    def _once(self, url: str, accept: str, call: Call, decode: Decoder) -> _Reply:
        try:
            with self.client.stream("GET", url, headers={"Accept": accept}) as response:
                if not 200 <= response.status_code < 300:
                    return self._refused(response, call)
                body = read_capped(response, self.max_bytes, call.deadline)
                status = response.status_code
        except httpx.HTTPError as exc:
            outcome, reason = call.failure(exc)
            return _Reply(outcome, detail=f"{self.label}: {reason}", retry=outcome.retryable)
        except httpx.InvalidURL as exc:
            return _Reply(Outcome.BLOCKED, detail=f"{self.label}: malformed redirect ({exc})")
        if body is None:
            detail = (
                f"{self.label} answered with more than {self.max_bytes:,} bytes "
                "(PRIMARY_MAX_BYTES); the answer was refused unread"
            )
            return _Reply(Outcome.BLOCKED, status, detail=detail)
        try:
            data = decode(body)
        except (ValueError, TypeError) as exc:
            detail = f"{self.label} sent a malformed answer: {exc}"
            return _Reply(Outcome.UNAVAILABLE, status, detail=detail, retry=True)
        return _Reply(Outcome.OK, status, data, body)

    def _refused(self, response: httpx.Response, call: Call) -> _Reply:
        status = response.status_code
        message = self._message(response, call)
        detail = f"{self.label} answered HTTP {status}" + (f": {message}" if message else "")
        wait = wait_hint(response.headers, self._clock())
        if status in (404, 410):
            return _Reply(Outcome.NO_HIT, status, detail=f"{self.label} has no such record")
        if status == 429 or (status == 403 and rate_limited(response.headers)):
            return _Reply(Outcome.RATE_LIMITED, status, detail=detail, retry=True, wait=wait)
        if status in (401, 403, 407):
            return _Reply(Outcome.UNAUTHORIZED, status, detail=detail)
        if status in (408, 504):
            return _Reply(Outcome.TIMEOUT, status, detail=detail, retry=True, wait=wait)
        if status >= 500:
            return _Reply(Outcome.UNAVAILABLE, status, detail=detail, retry=True, wait=wait)
        # Another refusal (400, 422, an unfollowed 3xx): asking again will not change it.
        return _Reply(Outcome.UNAVAILABLE, status, detail=detail)

    def _message(self, response: httpx.Response, call: Call) -> str:
        """The service's own words about a refusal, short: GitHub's `message`, say."""
        try:
            body = read_capped(response, ERROR_BODY_BYTES, call.deadline)
        except httpx.HTTPError:
            return ""
        if not body:
            return ""
        text = body.decode("utf-8", errors="replace")
        if text.lstrip().startswith("<"):
            text = _xml_message(body)
        try:
            payload = json.loads(text)
        except ValueError:
            payload = None
        if isinstance(payload, dict):
            for key in ("message", "error", "errorMessage", "detail"):
                if isinstance(payload.get(key), str):
                    text = payload[key]
                    break
        text = " ".join(text.split())
        return text if len(text) <= 200 else text[:199] + "…"


def _xml_message(body: bytes) -> str:
    """An XML or HTML refusal's words: an Atom error's summary, else the visible text."""
    try:
        root = decode_xml(body)
    except ValueError:
        return " ".join(re.sub(rb"<[^>]*>", b" ", body).decode("utf-8", errors="replace").split())
    summary = root.find(".//{*}summary")
    if summary is not None and summary.text:
        return summary.text
    return " ".join("".join(root.itertext()).split())
