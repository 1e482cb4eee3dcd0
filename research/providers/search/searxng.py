"""Search through a SearXNG instance's JSON API (GET /search?q=...&format=json).

The operator configures the instance URL, so its host is trusted: it is exempt from the
private-address guard, which lets a SearXNG on localhost or the intranet work. Everything
else goes through the guarded client: a redirect to another host is checked like any
fetch, and each search ends within its total deadline.
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import httpx

from research.outcomes import Outcome, outcome_for_status
from research.providers.base import SearchHit, SearchResult, TimeoutBreaker, with_retries
from research.providers.deadline import DEFAULT_DEADLINE_FACTOR
from research.providers.documents import iso_date
from research.providers.http import Call, guarded_client, read_capped
from research.providers.netguard import IPNetwork

DEFAULT_USER_AGENT = "VerdictBot/0.1"
DEFAULT_MAX_BYTES = 2_000_000


class SearxngProvider:
    name = "searxng"

    def __init__(
        self,
        base_url: str,
        timeout: float = 15.0,
        tries: int = 3,
        base_delay: float = 0.5,
        *,
        user_agent: str = DEFAULT_USER_AGENT,
        sleep: Callable[[float], None] = time.sleep,
        deadline: float | None = None,
        allowed_networks: Iterable[IPNetwork] = (),
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.max_bytes = max_bytes  # of one answer, counted as it streams
        self.timeout = timeout  # for each connect and read
        self.deadline = timeout * DEFAULT_DEADLINE_FACTOR if deadline is None else deadline
        self.allowed_networks = list(allowed_networks)  # for redirects to other hosts
        self._breaker = TimeoutBreaker("SearXNG")
        self.tries = tries
        self.base_delay = base_delay
        self.user_agent = user_agent
        self._sleep = sleep
        self._client: httpx.Client | None = None
        self._client_lock = threading.Lock()

    @property
    def client(self) -> httpx.Client:
        """One client for every search: a new one per call costs tens of milliseconds of
        TLS set-up that concurrent searches cannot share."""
        with self._client_lock:
            if self._client is None:
                self._client = guarded_client(
                    timeout=self.timeout,
                    headers={"User-Agent": self.user_agent, "Accept": "application/json"},
                    allowed_networks=self.allowed_networks,
                    exempt_hosts=[httpx.URL(self.base_url).host],
                    follow_redirects=True,
                    limits=httpx.Limits(max_connections=32, max_keepalive_connections=16),
                )
            return self._client

    def close(self) -> None:
        with self._client_lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def search(self, query: str, limit: int) -> SearchResult:
        refused = self._breaker.refusal()
        if refused is not None:
            return refused
        call = Call.within_seconds(self.deadline)
        with call.active():
            attempt = functools.partial(self._search_once, query, limit, call)
            result = with_retries(
                attempt, self.tries, self.base_delay, self._sleep, deadline=call.deadline
            )
        return self._breaker.record(result)

    def _search_once(self, query: str, limit: int, call: Call) -> SearchResult:
        url = f"{self.base_url}/search"
        try:
            with self.client.stream("GET", url, params={"q": query, "format": "json"}) as response:
                if response.status_code >= 400:
                    return _status_result(response.status_code, self.base_url)
                body = read_capped(response, self.max_bytes, call.deadline)
        except httpx.HTTPError as exc:
            outcome, reason = call.failure(exc)
            return SearchResult(outcome, detail=f"SearXNG {_FAILURES[outcome]}: {reason}")
        if body is None:
            detail = (
                f"SearXNG answered with more than {self.max_bytes:,} bytes (SEARCH_MAX_BYTES); "
                "the answer was refused unread"
            )
            return SearchResult(Outcome.BLOCKED, detail=detail)
        return _parse(body, limit)


_FAILURES = {
    Outcome.TIMEOUT: "timed out",
    Outcome.BLOCKED: "refused",
    Outcome.UNAVAILABLE: "unreachable",
}


def _status_result(status: int, base_url: str) -> SearchResult:
    outcome = outcome_for_status(status)
    if outcome is Outcome.NO_HIT:
        # A 404 from the search endpoint means a wrong URL, not "found nothing".
        outcome = Outcome.UNAVAILABLE
    detail = f"SearXNG at {base_url} answered HTTP {status}"
    if status == 403:
        detail += " (is 'json' listed under search.formats in its settings.yml?)"
    return SearchResult(outcome, detail=detail)


def _parse(body: bytes, limit: int) -> SearchResult:
    try:
        payload = json.loads(body)
    except ValueError as exc:
        return SearchResult(Outcome.UNAVAILABLE, detail=f"SearXNG sent malformed JSON: {exc}")
    results = payload.get("results") if isinstance(payload, dict) else None
    if not isinstance(results, list):
        return SearchResult(Outcome.UNAVAILABLE, detail="SearXNG JSON has no 'results' list")
    hits = [hit for item in results if (hit := _hit(item)) is not None][:limit]
    if hits:
        return SearchResult(Outcome.OK, hits)
    return _empty(payload)


def _hit(item: Any) -> SearchHit | None:
    if not isinstance(item, dict):
        return None
    url = item.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return None
    return SearchHit(
        url=url,
        title=_text(item.get("title")) or url,
        snippet=_text(item.get("content")),
        published=iso_date(_text(item.get("publishedDate"))),
    )


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _empty(payload: dict[str, Any]) -> SearchResult:
    """No results. When every engine failed, SearXNG could not look: that is no NO_HIT."""
    failed = payload.get("unresponsive_engines") or []
    if not failed:
        return SearchResult(Outcome.NO_HIT, detail="SearXNG returned no results")
    reasons = [" ".join(str(part) for part in entry) for entry in failed if entry]
    detail = "SearXNG engines did not answer: " + "; ".join(reasons)
    all_timeouts = all("timeout" in reason.lower() for reason in reasons)
    return SearchResult(Outcome.TIMEOUT if all_timeouts else Outcome.UNAVAILABLE, detail=detail)
