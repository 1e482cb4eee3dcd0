"""An option's total over every dimension (a dimension without evidence counting as neutral),
how much of the weight rests on evidence, and the ranking."""

from __future__ import annotations

from decisions.scoring.sources import SourceInfo, site_weights
from research.artifacts import Claim, RankedOption, ScoreCell

NEUTRAL = 50.0  # a missing cell's place in the total: neither for nor against


def total(cells_for_option: list[ScoreCell], weights: dict[str, float]) -> float | None:
    """The weighted mean over every dimension in `weights` (the plan's), a dimension
    without evidence counting as NEUTRAL; None when the option has no evidence at all.
    Unrounded, so scaling every weight leaves it unchanged; rank() rounds for display."""
    scores = _scored(cells_for_option, weights)
    whole = sum(weights.values())
    if not scores or not whole:
        return None
    return sum(w * scores.get(d, NEUTRAL) for d, w in weights.items()) / whole


def evidence_share(cells_for_option: list[ScoreCell], weights: dict[str, float]) -> float:
    """How much of the user's weight, 0-100, lies on dimensions where the option has
    evidence; unrounded."""
    whole = sum(weights.values())
    if not whole:
        return 0.0
    return 100 * sum(weights[d] for d in _scored(cells_for_option, weights)) / whole


def percent(share: float) -> str:
    """A 0-100 share as a whole number that says 100 only when it is all of it and 0 only
    when it is none of it."""
    value = round(share)
    if share < 100 and value >= 100:
        return "99"
    if share > 0 and value <= 0:
        return "1"
    return str(value)


def _scored(cells_for_option: list[ScoreCell], weights: dict[str, float]) -> dict[str, float]:
    """Dimension -> score of the cells with evidence; a dimension without a weight is an
    error, never silently dropped."""
    scores = {}
    for cell in cells_for_option:
        _weight(weights, cell.dimension)
        if not cell.missing and cell.score is not None:
            scores[cell.dimension] = cell.score
    return scores


def backing_sites(
    cells_for_option: list[ScoreCell], claims: list[Claim], sources: dict[str, SourceInfo]
) -> list[str]:
    """The independent sites behind an option's scored cells, counted as each cell's
    `sites` counts them (every unflagged claim read, superseded ones included)."""
    ids = {i for cell in cells_for_option if not cell.missing for i in cell.claim_ids}
    backing = [c for c in claims if c.id in ids and c.source_id in sources]
    return sorted(site_weights(backing, sources))


def _weight(weights: dict[str, float], dimension: str) -> float:
    if dimension not in weights:
        raise ValueError(f"no weight for dimension {dimension!r}")
    return weights[dimension]


def rank(
    totals: dict[str, float | None],
    cells: list[ScoreCell],
    weights: dict[str, float],
    sites: dict[str, list[str]] | None = None,
) -> list[RankedOption]:
    """Highest total first, options without a total last; ties go to more evidence, then
    name. Each option carries how much of the weight rests on evidence, and (`sites`) the
    independent sites behind it."""
    own = {o: [c for c in cells if c.option == o] for o in totals}
    evidence = {o: sum(1 for c in own[o] if not c.missing) for o in totals}
    shown = {o: None if t is None else round(t, 1) for o, t in totals.items()}

    def key(option: str) -> tuple[bool, float, int, str]:
        value = shown[option]
        return (value is None, -(value or 0.0), -evidence[option], option)

    ordered = sorted(totals, key=key)
    return [
        RankedOption(
            option=o,
            total=shown[o],
            rank=i,
            cells_with_evidence=evidence[o],
            evidence_share=round(evidence_share(own[o], weights), 1),
            sites=list((sites or {}).get(o, [])),
        )
        for i, o in enumerate(ordered, start=1)
    ]
