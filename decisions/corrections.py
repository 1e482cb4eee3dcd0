"""The owner's corrections of the reader, applied to what the decision counts.

A claim marked misread with what it should have been (the right option, dimension or
polarity) counts as that; marked misread without it, or as not a claim, it counts in no
score, and neither do the contradictions and agreement that rest on it. A contradiction
marked not real is no longer one. Undone corrections count for nothing. The stored pages
and the cross-check on disk stay as they were.
"""

from __future__ import annotations

from decisions.decide import restricted
from research.artifacts import Claim, Correction, Corrections, Crosscheck

FIELDS = {"wrong_option": "option", "wrong_dimension": "dimension", "wrong_polarity": "polarity"}


def corrected(crosscheck: Crosscheck, corrections: Corrections) -> Crosscheck:
    active = corrections.active()
    if not active:
        return crosscheck
    by_claim = {c.target_id: c for c in active if c.target == "claim"}
    not_real = {c.target_id for c in active if c.target == "contradiction"}
    kept = [
        fixed
        for claim in crosscheck.claims
        if (fixed := _fixed(claim, by_claim.get(claim.id))) is not None
    ]
    check = crosscheck.model_copy(
        update={"contradictions": [x for x in crosscheck.contradictions if x.id not in not_real]}
    )
    return restricted(check, kept)


def _fixed(claim: Claim, correction: Correction | None) -> Claim | None:
    if correction is None:
        return claim
    field = FIELDS.get(correction.kind)
    if field is None or correction.value is None:
        return None  # not a claim, or misread with nothing said about what it should be
    if field == "polarity":
        return claim.model_copy(update={"polarity": int(correction.value)})
    return claim.model_copy(update={field: correction.value or None})
