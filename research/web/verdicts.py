"""The recommendation and confidence of a finished run, read from round_5_decision.json."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from research.models import Run
from research.names import DECISION
from research.store import StoreError, store_for


@dataclass(frozen=True)
class Verdict:
    option: str | None  # None: the evidence did not support a recommendation
    confidence: float
    threshold: int
    reasons: list[str]
    # Set when no recommendation was given because the best-scoring option rests on this
    # one site alone.
    single_site: str | None = None

    @property
    def low(self) -> bool:
        return self.confidence < self.threshold

    @property
    def percent(self) -> int:
        return max(0, min(100, round(self.confidence)))


# The decision file cites claims by id for programs; the report turns them into source
# numbers, and a summary card has room for neither.
_CLAIM_LIST = re.compile(r"\s*[(（](?:claims?|论断|主张)\s[^)）]*[)）]")


def _readable(reason: str) -> str:
    return _CLAIM_LIST.sub("", reason)


def verdict_for(run: Run) -> Verdict | None:
    """The decision of a done run, or None when there is none to show (yet)."""
    if run.status != Run.Status.DONE:
        return None
    try:
        data = store_for(run.run_id).read_json(DECISION)
        return Verdict(
            option=data["recommendation"]["option"],
            confidence=float(data["assessment"]["confidence"]),
            threshold=int(data["threshold"]),
            reasons=[_readable(r) for r in data["recommendation"].get("reasons") or []],
            single_site=data["recommendation"].get("single_site"),
        )
    except (OSError, StoreError, ValueError, KeyError, TypeError, json.JSONDecodeError):
        return None  # a run re-running its decide stage, or a damaged file: show no verdict
