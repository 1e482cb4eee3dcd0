"""Search DuckDuckGo and friends through the `ddgs` package (no API key).

ddgs swallows per-engine errors and raises one DDGSException at the end: "No results
found." when every engine answered with nothing, otherwise the last engine error (which
may itself be a RatelimitException or TimeoutException, passed as its argument).

ddgs tries its engines one after another, each with its own timeout, and cannot be told
about a total deadline: each search runs in a thread the caller stops waiting for when
the deadline comes.
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Callable
from typing import Any, Protocol

from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchResult, TimeoutBreaker, with_retries
from research.providers.deadline import DEFAULT_DEADLINE_FACTOR, Deadline, DeadlinePassed, within

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_NO_RESULTS = "no results found"


class DdgsClient(Protocol):
    """The part of ddgs.DDGS this provider uses."""

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]: ...


def _real_client(timeout: int) -> DdgsClient:
    from ddgs import DDGS  # imported late: loading its engines is slow and tests never need it

    return DDGS(timeout=timeout)


class DdgsProvider:
    name = "ddgs"
    # DuckDuckGo answers bursts with rate limits; a few searches at a time get through.
    max_in_flight = 3

    def __init__(
        self,
        timeout: float = 15.0,
        tries: int = 3,
        base_delay: float = 0.5,
        *,
        region: str | None = None,
        client_factory: Callable[[int], DdgsClient] = _real_client,
        sleep: Callable[[float], None] = time.sleep,
        deadline: float | None = None,
    ) -> None:
        self.timeout = max(1, math.ceil(timeout))  # ddgs takes whole seconds
        self.deadline = timeout * DEFAULT_DEADLINE_FACTOR if deadline is None else deadline
        self._breaker = TimeoutBreaker("ddgs")
        self.tries = tries
        self.base_delay = base_delay
        self.region = region
        self._client_factory = client_factory
        self._sleep = sleep

    def search(self, query: str, limit: int) -> SearchResult:
        refused = self._breaker.refusal()
        if refused is not None:
            return refused
        deadline = Deadline.after(self.deadline)
        attempt = functools.partial(self._search_within, query, limit, deadline)
        result = with_retries(attempt, self.tries, self.base_delay, self._sleep, deadline)
        return self._breaker.record(result)

    def _search_within(self, query: str, limit: int, deadline: Deadline) -> SearchResult:
        if deadline.expired:
            return SearchResult(Outcome.TIMEOUT, detail=f"ddgs: {deadline.describe()} passed")
        try:
            return within(deadline, lambda: self._search_once(query, limit, deadline), "ddgs")
        except DeadlinePassed:
            return SearchResult(
                Outcome.TIMEOUT, detail=f"ddgs: no answer within {deadline.describe()}"
            )

    def _search_once(self, query: str, limit: int, deadline: Deadline) -> SearchResult:
        region = self.region or ("cn-zh" if _CJK.search(query) else "us-en")
        timeout = max(1, min(self.timeout, math.ceil(deadline.remaining())))
        try:
            client = self._client_factory(timeout)
            rows = client.text(query, region=region, max_results=limit)
        except DDGSException as exc:
            return _failure(exc)
        except Exception as exc:  # a scraper breaking must not end the run
            return SearchResult(Outcome.UNAVAILABLE, detail=f"ddgs failed: {exc!r}")
        hits = [hit for row in rows or [] if (hit := _hit(row)) is not None][:limit]
        if not hits:
            return SearchResult(Outcome.NO_HIT, detail="ddgs returned no results")
        return SearchResult(Outcome.OK, hits)


def _failure(exc: DDGSException) -> SearchResult:
    cause = exc.args[0] if exc.args and isinstance(exc.args[0], BaseException) else exc
    detail = f"ddgs: {cause!r}"
    if isinstance(exc, RatelimitException) or isinstance(cause, RatelimitException):
        return SearchResult(Outcome.RATE_LIMITED, detail=detail)
    if isinstance(exc, TimeoutException) or isinstance(cause, TimeoutException):
        return SearchResult(Outcome.TIMEOUT, detail=detail)
    if str(exc).strip().rstrip(".").lower() == _NO_RESULTS:
        return SearchResult(Outcome.NO_HIT, detail="ddgs found no results")
    if "ratelimit" in str(exc).lower() or "429" in str(exc):
        return SearchResult(Outcome.RATE_LIMITED, detail=detail)
    return SearchResult(Outcome.UNAVAILABLE, detail=detail)


def _hit(row: Any) -> SearchHit | None:
    if not isinstance(row, dict):
        return None
    url = row.get("href") or row.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return None
    return SearchHit(
        url=url,
        title=" ".join(str(row.get("title") or url).split()),
        snippet=" ".join(str(row.get("body") or "").split()),
    )
