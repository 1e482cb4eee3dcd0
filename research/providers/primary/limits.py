"""What services ask of their clients: to stop when a rate limit is spent, to wait as
long as they say, and to keep a pace.

The state is shared by every client of a service in this process (one ServiceGate per
service and address), so a limit one lookup ran into holds for the lookups beside it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from datetime import UTC
from email.utils import parsedate_to_datetime


class ServiceGate:
    """What every client of one service in this process shares: whether its rate limit
    is spent (and until when), and the pace it asks for."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._closed_until = 0.0  # epoch seconds
        self._reason = ""
        self._next_slot = 0.0  # time.monotonic() of the next request allowed by the pace

    def closed(self, now: float) -> str | None:
        with self._lock:
            if now < self._closed_until:
                return self._reason
            return None

    def close(self, until: float, reason: str) -> None:
        with self._lock:
            if until > self._closed_until:
                self._closed_until, self._reason = until, reason

    def reserve(self, interval: float) -> float:
        """Seconds to wait before the next request keeps the pace; books that slot."""
        if interval <= 0:
            return 0.0
        with self._lock:
            now = time.monotonic()
            slot = max(now, self._next_slot)
            self._next_slot = slot + interval
            return slot - now


_GATES: dict[tuple[str, str], ServiceGate] = {}
_GATES_LOCK = threading.Lock()


def gate_for(service: str, base_url: str) -> ServiceGate:
    with _GATES_LOCK:
        return _GATES.setdefault((service, base_url), ServiceGate())


def rate_limited(headers: Mapping[str, str]) -> bool:
    """GitHub answers a spent rate limit with 403 and X-RateLimit-Remaining: 0, and its
    secondary limits with 403 and Retry-After."""
    lowered = {key.lower(): value for key, value in headers.items()}
    return lowered.get("x-ratelimit-remaining") == "0" or "retry-after" in lowered


def wait_hint(headers: Mapping[str, str], now: float) -> float | None:
    """Seconds the service asks to wait: Retry-After (seconds or an HTTP date), then
    GitHub's X-RateLimit-Reset (epoch seconds, when nothing remains), then the IETF draft's
    RateLimit-Reset (seconds). None when it says nothing usable."""
    lowered = {key.lower(): value for key, value in headers.items()}
    retry_after = _retry_after(lowered.get("retry-after"), now)
    if retry_after is not None:
        return retry_after
    if lowered.get("x-ratelimit-remaining") == "0":
        reset = _number(lowered.get("x-ratelimit-reset"))
        if reset is not None:
            return max(0.0, reset - now)
    return _number(lowered.get("ratelimit-reset"))


def _retry_after(value: str | None, now: float) -> float | None:
    if not value or not value.strip():
        return None
    seconds = _number(value)
    if seconds is not None:
        return max(0.0, seconds)
    try:
        when = parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
