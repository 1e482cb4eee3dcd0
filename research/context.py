"""What a stage function gets besides its input artifacts: a way to explain itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

LogFn = Callable[..., None]


def _discard(event: str, **data: Any) -> None:
    pass


@dataclass
class StageContext:
    """`log(event, **data)` appends to the run's decision log (a no-op in plain tests)."""

    log: LogFn = _discard
    events: list[dict[str, Any]] = field(default_factory=list)

    def record(self, event: str, **data: Any) -> None:
        self.events.append({"event": event, **data})
        self.log(event, **data)
