"""What every claim extractor returns, and the clause splitting they share."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Fact:
    attribute: str
    kind: str  # fact | stance
    value: str
    polarity: int
    dimension: str | None = None
    option: str | None = None  # set when the sentence itself says which option (comparisons)
    scope: str | None = None  # set when it speaks of a component, old version or the past
    confidence: float | None = None  # a stance's: how sure its reader is


SERIES = re.compile(r"\b\d+\.x\b|\b(?:line|series|branch)\b|系列|分支", re.I)
CLAUSE_BREAK = re.compile(r"[;；，,。]|\bbut\b|\bwhile\b|\bwhereas\b", re.I)


def clauses(sentence: str) -> list[str]:
    """Clauses that do not speak of a release series: "the 2.x line only gets fixes" says
    nothing about the project as a whole."""
    return [c for c in CLAUSE_BREAK.split(sentence) if c.strip() and not SERIES.search(c)]
