"""Total deadlines for provider calls (DESIGN section 3).

A read timeout bounds one wait; a server that drip-feeds a byte a second never trips it.
A Deadline bounds the whole call: every step (DNS, connect, each read, each redirect hop,
each retry) is given only the time that is left.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

# A provider built without an explicit deadline allows a call this many timeouts.
DEFAULT_DEADLINE_FACTOR = 4


@dataclass(frozen=True)
class Deadline:
    seconds: float  # the budget it was made with, for messages
    ends: float  # on the time.monotonic() clock

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(seconds, time.monotonic() + seconds)

    def remaining(self) -> float:
        return max(0.0, self.ends - time.monotonic())

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.ends

    def clamp(self, timeout: float | None) -> float:
        """`timeout` shortened to the time left (a timeout of None waits for the deadline)."""
        left = self.remaining()
        return left if timeout is None else min(timeout, left)

    def describe(self) -> str:
        return f"the {self.seconds:g} s deadline"


class _Box(Generic[T]):
    def __init__(self) -> None:
        self.value: T | None = None
        self.error: BaseException | None = None


class DeadlinePassed(Exception):
    """Work given to `within` was still running when the deadline came."""


def within(deadline: Deadline, work: Callable[[], T], name: str = "provider call") -> T:
    """Run `work` in a daemon thread and wait for it until the deadline at most.

    For libraries that cannot be told about a deadline (ddgs, pypdf inside the local
    index): the caller gets its answer in time and the thread is left to finish on its
    own. Daemon threads, so one never holds up the process at exit.
    """
    box: _Box[T] = _Box()

    def run() -> None:
        try:
            box.value = work()
        except BaseException as exc:  # handed to the caller's thread below
            box.error = exc

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    thread.join(deadline.remaining())
    if thread.is_alive():
        raise DeadlinePassed(f"no answer within {deadline.describe()}")
    if box.error is not None:
        raise box.error
    return box.value  # type: ignore[return-value]
