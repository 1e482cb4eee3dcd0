"""The outcome of every call that leaves the process (DESIGN section 3).

"Found nothing" (NO_HIT) and "could not look" (everything but OK and NO_HIT) are never
conflated: only OK evidence can support a conclusion.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    OK = "OK"
    NO_HIT = "NO_HIT"
    TIMEOUT = "TIMEOUT"
    UNAVAILABLE = "UNAVAILABLE"
    UNAUTHORIZED = "UNAUTHORIZED"
    RATE_LIMITED = "RATE_LIMITED"
    BLOCKED = "BLOCKED"

    @property
    def looked(self) -> bool:
        """True when the provider answered, whether or not it found anything."""
        return self in (Outcome.OK, Outcome.NO_HIT)

    @property
    def retryable(self) -> bool:
        return self in (Outcome.TIMEOUT, Outcome.UNAVAILABLE, Outcome.RATE_LIMITED)


def outcome_for_status(status: int) -> Outcome:
    """Map an HTTP status code to an outcome."""
    if status < 400:
        return Outcome.OK
    if status in (401, 403, 407):
        return Outcome.UNAUTHORIZED
    if status in (404, 410):
        return Outcome.NO_HIT
    if status == 429:
        return Outcome.RATE_LIMITED
    if status in (408, 504):
        return Outcome.TIMEOUT
    if status == 451:
        return Outcome.BLOCKED
    return Outcome.UNAVAILABLE
