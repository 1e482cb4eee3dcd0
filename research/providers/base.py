"""Interfaces every provider implements. Each call returns an Outcome, never raises for
network trouble: the caller records what happened and carries on."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from research.outcomes import Outcome


@dataclass(frozen=True)
class SearchHit:
    url: str
    title: str
    snippet: str = ""
    published: str | None = None  # ISO date (YYYY-MM-DD) when known
    local_path: str | None = None  # the local corpus sets this; deep-read reads the file


@dataclass(frozen=True)
class SearchResult:
    outcome: Outcome
    hits: list[SearchHit] = field(default_factory=list)
    detail: str = ""


class SearchProvider(Protocol):
    name: str

    def search(self, query: str, limit: int) -> SearchResult: ...


@dataclass(frozen=True)
class FetchResult:
    url: str  # the URL asked for
    outcome: Outcome
    final_url: str | None = None  # after redirects
    status_code: int | None = None
    content_type: str = ""
    body: bytes = b""
    detail: str = ""
    truncated: bool = False


class Fetcher(Protocol):
    def fetch(self, url: str) -> FetchResult: ...


R = TypeVar("R", SearchResult, FetchResult)


def with_retries(
    call: Callable[[], R],
    tries: int,
    base_delay: float,
    sleep: Callable[[float], None] = time.sleep,
) -> R:
    """Run `call` until its outcome is not retryable, at most `tries` times.

    Waits base_delay * 2**attempt plus up to 100% jitter between tries. A result that is
    still a failure after several tries says so in its detail.
    """
    attempt = 0
    while True:
        result = call()
        attempt += 1
        if not result.outcome.retryable or attempt >= tries:
            break
        delay = base_delay * (2 ** (attempt - 1))
        sleep(delay + random.uniform(0, delay))
    if attempt > 1 and not result.outcome.looked:
        result = dataclasses.replace(result, detail=f"{result.detail} (after {attempt} tries)")
    return result
