"""Stage 5's decision: the score matrix, totals, ranking, recommendation and assessment.

Only claims whose quote is found, verbatim, in the stored text of their source take part.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from decisions.assessment import assess, missing_information
from decisions.scoring import SourceInfo, rank, score_cell, source_infos, total
from research.artifacts import (
    Candidates,
    Claim,
    Crosscheck,
    Decision,
    Notes,
    Plan,
    RankedOption,
    Recommendation,
    ScoreCell,
)
from research.stages.context import StageContext


@dataclass
class Verified:
    crosscheck: Crosscheck  # only claims whose quotes were found in their stored source
    checked: int
    dropped: int


def verify_quotes(crosscheck: Crosscheck, pages: dict[str, str], ctx: StageContext) -> Verified:
    kept: list[Claim] = []
    for claim in crosscheck.claims:
        if claim.quote and claim.quote in pages.get(claim.source_id, ""):
            kept.append(claim)
        else:
            ctx.record(
                "quote_dropped",
                claim_id=claim.id,
                source_id=claim.source_id,
                quote=claim.quote,
                reason="not found in the stored source text",
            )
    ids = {c.id for c in kept}
    contradictions = [
        x for x in crosscheck.contradictions if x.a.claim_id in ids and x.b.claim_id in ids
    ]
    consensus = [
        k.model_copy(update={"claim_ids": [i for i in k.claim_ids if i in ids]})
        for k in crosscheck.consensus
    ]
    result = crosscheck.model_copy(
        update={
            "claims": kept,
            "contradictions": contradictions,
            "consensus": [k for k in consensus if len(k.claim_ids) >= 2],
        }
    )
    return Verified(result, len(crosscheck.claims), len(crosscheck.claims) - len(kept))


def decide(
    plan: Plan,
    notes: Notes,
    candidates: Candidates,
    verified: Verified,
    threshold: int,
    ctx: StageContext,
    today: date | None = None,
) -> Decision:
    today = today or date.today()
    check = verified.crosscheck
    sources = source_infos(notes, plan.options)
    cells = _matrix(plan, check, sources, today)
    weights = {d.name: d.weight for d in plan.dimensions}
    totals = {
        o: _rounded(total([c for c in cells if c.option == o], weights)) for o in plan.options
    }
    ranking = rank(totals, cells)
    assessment = assess(
        cells,
        ranking,
        check,
        sources,
        verified.checked - verified.dropped,
        verified.checked,
        plan.options,
        today,
    )
    for cell in cells:
        ctx.record("cell_scored", **cell.model_dump())
    unreachable = unreachable_sources(notes, candidates)
    recommendation = _recommend(ranking, cells, assessment.confidence, threshold, unreachable)
    ctx.record(
        "recommendation",
        option=recommendation.option,
        reasons=recommendation.reasons,
        confidence=assessment.confidence,
    )
    return Decision(
        matrix=cells,
        totals=totals,
        ranking=ranking,
        recommendation=recommendation,
        assessment=assessment,
        threshold=threshold,
        missing_information=missing_information(
            cells, check, sources, notes, plan.options, today=today
        ),
        unreachable=unreachable,
    )


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _matrix(
    plan: Plan, check: Crosscheck, sources: dict[str, SourceInfo], today: date
) -> list[ScoreCell]:
    cells = []
    for option in plan.options:
        for dim in plan.dimensions:
            claims = [
                c
                for c in check.claims
                if c.option == option and c.dimension == dim.name and c.source_id in sources
            ]
            cells.append(score_cell(option, dim.name, claims, sources, check.contradictions, today))
    return cells


def _recommend(
    ranking: list[RankedOption],
    cells: list[ScoreCell],
    confidence: float,
    threshold: int,
    unreachable: list[str],
) -> Recommendation:
    scored = [r for r in ranking if r.total is not None]
    if not scored:
        reasons = ["No evidence about any option could be verified, so nothing is recommended."]
        if unreachable:
            reasons.append(f"{len(unreachable)} searches or pages could not be reached.")
        return Recommendation(option=None, reasons=reasons, low_confidence=True)
    top = scored[0]
    reasons = [
        f"{top.option} has the highest weighted total, {top.total:.1f}/100, with "
        f"evidence on {top.cells_with_evidence} of "
        f"{sum(1 for c in cells if c.option == top.option)} dimensions."
    ]
    if len(scored) > 1:
        gap = top.total - scored[1].total  # type: ignore[operator]
        reasons.append(f"It leads {scored[1].option} ({scored[1].total:.1f}) by {gap:.1f} points.")
    best = sorted(
        (c for c in cells if c.option == top.option and not c.missing),
        key=lambda c: -(c.score or 0),
    )[:2]
    reasons += [
        f"On {c.dimension} it scores {c.score:.1f} (claims {', '.join(c.claim_ids)})." for c in best
    ]
    return Recommendation(option=top.option, reasons=reasons, low_confidence=confidence < threshold)


def unreachable_sources(notes: Notes, candidates: Candidates) -> list[str]:
    """What could not be looked at, kept apart from what was looked at and found empty."""
    lines = [
        f"{s.url}: {s.status.value}" + (f" ({s.detail})" if s.detail else "")
        for s in notes.sources
        if not s.status.looked
    ]
    failed = Counter(
        (c.provider, c.outcome.value) for c in candidates.provider_calls if not c.outcome.looked
    )
    lines += [
        f"search provider {provider}: {outcome} for {n} {'query' if n == 1 else 'queries'}"
        for (provider, outcome), n in sorted(failed.items())
    ]
    return lines
