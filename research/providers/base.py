"""Interfaces every provider implements. Each call returns an Outcome, never raises for
network trouble: the caller records what happened and carries on."""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from research.outcomes import Outcome
from research.providers.deadline import Deadline


@dataclass(frozen=True)
class SearchHit:
    url: str
    title: str
    snippet: str = ""
    published: str | None = None  # ISO date (YYYY-MM-DD) when known
    # Set by the local corpus: the file's place inside its folder, which deep-read reads.
    local_path: str | None = None


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
    # The answer's Last-Modified and Date headers, which can date the page.
    headers: dict[str, str] = field(default_factory=dict)


class Fetcher(Protocol):
    def fetch(self, url: str) -> FetchResult: ...


R = TypeVar("R", SearchResult, FetchResult)


def with_retries(
    call: Callable[[], R],
    tries: int,
    base_delay: float,
    sleep: Callable[[float], None] = time.sleep,
    deadline: Deadline | None = None,
) -> R:
    """Run `call` until its outcome is not retryable, at most `tries` times.

    Waits base_delay * 2**attempt plus up to 100% jitter between tries. With a deadline,
    no wait runs past it and no try starts once it is spent. A result that is still a
    failure after several tries says so in its detail.
    """
    attempt = 0
    spent = False
    while True:
        result = call()
        attempt += 1
        if not result.outcome.retryable or attempt >= tries:
            break
        delay = base_delay * (2 ** (attempt - 1))
        delay += random.uniform(0, delay)
        if deadline is not None and deadline.remaining() <= delay:
            spent = True
            break
        sleep(delay)
    if not result.outcome.looked and (attempt > 1 or spent):
        note = f"after {attempt} {'try' if attempt == 1 else 'tries'}"
        if spent and deadline is not None:
            note += f"; {deadline.describe()} left no time for another"
        result = dataclasses.replace(result, detail=f"{result.detail} ({note})")
    return result


class TimeoutBreaker:
    """Stops asking a search provider that has timed out `limit` times in a row.

    A provider lives for one stage. When it hangs, every later search of the stage would
    wait out its own deadline too; after a few in a row the rest end at once, as TIMEOUT,
    saying why. Any answer (even an error) resets the count.
    """

    def __init__(self, provider: str, limit: int = 3) -> None:
        self.provider = provider
        self.limit = limit
        self._in_a_row = 0
        self._lock = threading.Lock()

    def refusal(self) -> SearchResult | None:
        with self._lock:
            if self._in_a_row < self.limit:
                return None
        detail = f"not asked: {self.provider} timed out on {self.limit} searches in a row"
        return SearchResult(Outcome.TIMEOUT, detail=detail)

    def record(self, result: SearchResult) -> SearchResult:
        with self._lock:
            self._in_a_row = self._in_a_row + 1 if result.outcome is Outcome.TIMEOUT else 0
        return result
