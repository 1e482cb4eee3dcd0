"""A run's corrections of the reader as labelled sentences in the development corpus's
stances.jsonl format (`python manage.py quality --corrections RUN_ID`), so that what people
correct becomes test data.

Each standing correction of a claim gives one line: the sentence (the claim's quote) and
where it is, what the run read (run_option, run_dimension, run_polarity), and the label the
correction gives: the value the person named, or, where they named none, what the format
says of a sentence that is not that: no option, no dimension, polarity 0.
"""

from __future__ import annotations

from typing import Any

from research.artifacts import Claim, Correction
from research.store import RunStore, readers


def stance_lines(store: RunStore) -> list[dict[str, Any]]:
    claims = {c.id: c for c in readers.crosscheck(store).claims}
    urls = {s.source_id: s.url for s in readers.notes(store).sources}
    lines = []
    for fix in readers.corrections(store).active():
        claim = claims.get(fix.target_id)
        if fix.target == "claim" and claim is not None:
            lines.append(_line(claim, fix, urls.get(claim.source_id, "")))
    return lines


def _line(claim: Claim, fix: Correction, url: str) -> dict[str, Any]:
    option, dimension, polarity = claim.option, claim.dimension, claim.polarity
    if fix.kind == "not_a_claim":
        dimension, polarity = None, 0
    elif fix.kind == "wrong_option":
        option = fix.value or None
        if option is None:
            dimension, polarity = None, 0
    elif fix.kind == "wrong_dimension":
        dimension = fix.value or None
        if dimension is None:
            polarity = 0  # about none of the dimensions: no judgement on one
    elif fix.kind == "wrong_polarity":
        polarity = int(fix.value) if fix.value else 0
    why = f"corrected by {fix.by} on {fix.at[:10]}: {fix.kind.replace('_', ' ')}"
    return {
        "url": url,
        "quote": claim.quote,
        "option": option,
        "dimension": dimension,
        "polarity": polarity,
        "why": why + (f"; {fix.note}" if fix.note else ""),
        "run_option": claim.option,
        "run_dimension": claim.dimension,
        "run_polarity": claim.polarity,
    }
