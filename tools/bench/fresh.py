"""Each timed run reads its pages as a run of new pages would: the readers remember no
sentence from a run timed before it (the benches read the same or overlapping pages run
after run, which a real run never does)."""

from __future__ import annotations

from research.reading.claims.scope import scope_of
from research.reading.claims.stances import _stance_hits, neutral_masked
from research.reading.conflicts.facts import _periods


def forget_sentences() -> None:
    for cached in (_stance_hits, neutral_masked, scope_of, _periods):
        cached.cache_clear()
