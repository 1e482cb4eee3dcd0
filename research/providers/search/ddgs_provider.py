"""Search DuckDuckGo and friends through the `ddgs` package (no API key).

ddgs swallows per-engine errors and raises one DDGSException at the end: "No results
found." when every engine answered with nothing, otherwise the last engine error (which
may itself be a RatelimitException or TimeoutException, passed as its argument).
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from typing import Any, Protocol

from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchResult, with_retries

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
    ) -> None:
        self.timeout = max(1, math.ceil(timeout))  # ddgs takes whole seconds
        self.tries = tries
        self.base_delay = base_delay
        self.region = region
        self._client_factory = client_factory
        self._sleep = sleep

    def search(self, query: str, limit: int) -> SearchResult:
        return with_retries(
            lambda: self._search_once(query, limit), self.tries, self.base_delay, self._sleep
        )

    def _search_once(self, query: str, limit: int) -> SearchResult:
        region = self.region or ("cn-zh" if _CJK.search(query) else "us-en")
        try:
            client = self._client_factory(self.timeout)
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
