"""Stage 5's decision: the score matrix, totals, ranking, recommendation and assessment.

Only claims whose quote is found, verbatim, in the stored text of their source take part,
and of those only the ones not flagged (a model's claim the deterministic reader reads the
other way): flagged claims are shown with their cells' evidence but count in no score, no
consistency and no assessment. In LLM mode the model gives each cell's lean
(decisions.model_leans). Every sentence it writes is in the plan's language.

A recommendation never rests on a single site: when all of the best-scoring option's scored
evidence comes from one independent site (a registrable domain), nothing is recommended and
the reason says which option and which site; the ranking and the matrix stay as they are.
Nor does it rest on gaps (decisions.withhold): the leader's evidence must cover at least half
of the weight, and its lead must not come only from cells where the runner-up has no evidence;
otherwise the reason says so and names the missing cells that would settle it. Whenever
nothing is recommended, confidence is held below the threshold (decisions.assessment).
A reason that names a cell ("On X it scores ...") is given only for a cell two or more
independent sites back.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.utils.translation import gettext, ngettext

from decisions.assessment import assess, held_below
from decisions.missing import Reading, explain_gaps, missing_information
from decisions.model_leans import Key, Leans, model_leans
from decisions.scoring.cell import score_cell
from decisions.scoring.contradictions import superseded
from decisions.scoring.judgement import counted, model_dropped_note
from decisions.scoring.sources import SourceInfo, source_infos
from decisions.scoring.totals import backing_sites, percent, rank, total
from decisions.searches import Searches, failed_sentence, offline_sentence, searches
from decisions.withhold import reason, withheld, would_settle
from research.artifacts import (
    Candidates,
    CellRef,
    Claim,
    Contradiction,
    Crosscheck,
    Decision,
    Filtered,
    Notes,
    Plan,
    RankedOption,
    Recommendation,
    ScoreCell,
)
from research.context import StageContext
from research.i18n import in_language, words
from research.llm import StageLLM
from research.sources import label_for


def _text(language: str) -> dict[str, str]:
    return words(language).DECIDE


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
    result = restricted(crosscheck, kept)
    return Verified(result, len(crosscheck.claims), len(crosscheck.claims) - len(kept))


def restricted(crosscheck: Crosscheck, kept: list[Claim]) -> Crosscheck:
    """The cross-check as if only `kept` had been found: contradictions need both main
    claims, consensus two claims still standing."""
    ids = {c.id for c in kept}
    contradictions = [
        _verified_sides(x, ids)
        for x in crosscheck.contradictions
        if x.a.claim_id in ids and x.b.claim_id in ids
    ]
    consensus = [
        k.model_copy(update={"claim_ids": [i for i in k.claim_ids if i in ids]})
        for k in crosscheck.consensus
    ]
    return crosscheck.model_copy(
        update={
            "claims": kept,
            "contradictions": contradictions,
            "consensus": [k for k in consensus if len(k.claim_ids) >= 2],
        }
    )


def unflagged(crosscheck: Crosscheck) -> Crosscheck:
    """What the scores count: the cross-check without its flagged claims, nor the
    contradictions and agreement that rest on them."""
    if not any(c.flag for c in crosscheck.claims):
        return crosscheck
    return restricted(crosscheck, [c for c in crosscheck.claims if not c.flag])


def _verified_sides(x: Contradiction, ids: set[str]) -> Contradiction:
    """Only pages whose quote was found stand on a side; a current claim that was not found
    leaves the change over time without a known current side."""
    return x.model_copy(
        update={
            "a_also": [s for s in x.a_also if s.claim_id in ids],
            "b_also": [s for s in x.b_also if s.claim_id in ids],
            "current": x.current if x.current in ids else None,
        }
    )


def decide(
    plan: Plan,
    notes: Notes,
    candidates: Candidates,
    verified: Verified,
    threshold: int,
    ctx: StageContext,
    today: date | None = None,
    filtered: Filtered | None = None,
    llm: StageLLM | None = None,
) -> Decision:
    """`filtered` lets a gap name the kept pages that were never read; `llm`, when a model
    is configured, gives each cell's lean."""
    today, language = today or date.today(), plan.language
    _log_flagged(verified.crosscheck, ctx)
    check = unflagged(verified.crosscheck)
    sources = source_infos(notes, plan.options, language)
    _log_sources(sources, ctx)
    _log_superseded(check, ctx)
    reading = Reading(notes, filtered, plan.limits.max_pages)
    by_cell = _claims_by_cell(plan, check, sources)
    leans = Leans()
    if llm is not None:
        current = {k: counted(v, sources, check.contradictions) for k, v in by_cell.items()}
        flagged = _claims_by_cell(plan, verified.crosscheck, sources, flagged=True)
        leans = model_leans(plan, current, sources, flagged, llm, ctx)
    matrix = _matrix(plan, check, by_cell, sources, today, leans)
    found = searches(candidates.provider_calls)
    offline = offline_sentence(found, language) if found.offline else ""
    cells = explain_gaps(matrix, reading, language, offline)
    weights = {d.name: d.weight for d in plan.dimensions}
    own = {o: [c for c in cells if c.option == o] for o in plan.options}
    totals = {o: _rounded(total(own[o], weights)) for o in plan.options}
    sites = {o: backing_sites(own[o], check.claims, sources) for o in plan.options}
    ranking = rank(totals, cells, weights, sites)
    quotes = (verified.checked - verified.dropped, verified.checked)
    assessment = assess(
        cells, ranking, check, sources, *quotes, plan.options, today, language=language
    )
    for cell in cells:
        ctx.record("cell_scored", **cell.model_dump())
    unreachable = unreachable_sources(notes, candidates, language)
    recommendation = _recommend(
        ranking,
        cells,
        weights,
        _unreachable_reason(found, notes, language) if unreachable else "",
        language,
        offline,
    )
    if recommendation.option is None:
        assessment = held_below(assessment, threshold, language)
    recommendation.low_confidence = assessment.confidence < threshold
    ctx.record(
        "recommendation",
        option=recommendation.option,
        single_site=recommendation.single_site,
        withheld=recommendation.withheld,
        reasons=recommendation.reasons,
        confidence=assessment.confidence,
        method=assessment.method,
    )
    missing = missing_information(
        cells,
        check,
        sources,
        reading,
        plan.options,
        today=today,
        language=language,
        offline=offline,
    )
    return Decision(
        matrix=cells,
        totals=totals,
        ranking=ranking,
        recommendation=recommendation,
        assessment=assessment,
        threshold=threshold,
        missing_information=missing,
        unreachable=unreachable,
        offline=offline,
        not_read=not_read(notes, filtered, language),
    )


def _log_sources(sources: dict[str, SourceInfo], ctx: StageContext) -> None:
    """Who wrote each source decides how much it counts, so the log says so."""
    for info in sources.values():
        graded = info.graded
        ctx.record(
            "source_graded",
            source_id=info.source_id,
            site=info.site,
            kind=info.kind,
            strength=info.strength,
            publisher=graded.publisher if graded else None,
            interested=graded.interested if graded else False,
            why=graded.why if graded else "",
        )


def _log_flagged(check: Crosscheck, ctx: StageContext) -> None:
    for claim in check.claims:
        if claim.flag:
            ctx.record(
                "claim_flagged",
                claim_id=claim.id,
                option=claim.option,
                dimension=claim.dimension,
                flag=claim.flag,
                reason="flagged: shown with its cell's evidence, left out of every score",
            )


def _log_superseded(check: Crosscheck, ctx: StageContext) -> None:
    by_contradiction: dict[str, list[str]] = {}
    for claim_id, x in superseded(check.contradictions).items():
        by_contradiction.setdefault(x.id, []).append(claim_id)
    for x in check.contradictions:
        if x.id in by_contradiction:
            ctx.record(
                "claims_superseded",
                contradiction=x.id,
                current=x.current,
                claim_ids=sorted(by_contradiction[x.id]),
                reason="superseded by a later source: left out of base and consistency",
            )


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _claims_by_cell(
    plan: Plan, check: Crosscheck, sources: dict[str, SourceInfo], flagged: bool = False
) -> dict[Key, list[Claim]]:
    """Each cell's claims from sources that were read: the unflagged ones, or (`flagged`)
    only the flagged ones."""
    return {
        (option, dim.name): [
            c
            for c in check.claims
            if c.option == option
            and c.dimension == dim.name
            and c.source_id in sources
            and bool(c.flag) == flagged
        ]
        for option in plan.options
        for dim in plan.dimensions
    }


def _matrix(
    plan: Plan,
    check: Crosscheck,
    by_cell: dict[Key, list[Claim]],
    sources: dict[str, SourceInfo],
    today: date,
    leans: Leans,
) -> list[ScoreCell]:
    cells = []
    for (option, dimension), claims in by_cell.items():
        cell = score_cell(
            option,
            dimension,
            claims,
            sources,
            check.contradictions,
            today,
            plan.language,
            lean=leans.used.get((option, dimension)),
        )
        dropped = leans.dropped.get((option, dimension))
        if dropped and not cell.missing:
            cell.notes.insert(1, model_dropped_note(dropped, plan.language))
        cells.append(cell)
    return cells


def _recommend(
    ranking: list[RankedOption],
    cells: list[ScoreCell],
    weights: dict[str, float],
    unreachable: str,
    language: str = "en",
    offline: str = "",
) -> Recommendation:
    """The best-scoring option, unless nothing was verified, all of its scored evidence
    comes from one site, its evidence covers less than half of the weight, or it leads only
    where the runner-up has no evidence (decisions.withhold); a reason naming a cell only
    for a cell two or more independent sites back. `low_confidence` is the caller's."""
    text = _text(language)
    scored = [r for r in ranking if r.total is not None]
    if not scored:
        reasons = [offline] if offline else [text["nothing"], *filter(None, [unreachable])]
        return _none("no_evidence", reasons)
    top = scored[0]
    facts = {
        "option": top.option,
        "total": top.total,
        "covered": top.cells_with_evidence,
        "dims": sum(1 for c in cells if c.option == top.option),
        "share": percent(top.evidence_share or 0.0),
    }
    if len(top.sites) < 2:
        site = top.sites[0] if top.sites else ""
        reasons = [text["single_site"].format(**facts, site=site), *filter(None, [unreachable])]
        return _none("single_site", reasons, single_site=site or None)
    held = withheld(ranking, cells, weights)
    if held is not None:
        why, settle = reason(held, facts["dims"], language), would_settle(held.settle, language)
        return _none(
            held.kind,
            [why, *filter(None, [settle, unreachable])],
            would_settle=settle,
            settling_cells=[CellRef(option=g.option, dimension=g.dimension) for g in held.settle],
        )
    reasons = [text["top"].format(**facts)]
    if len(scored) > 1:
        gap = top.total - scored[1].total  # type: ignore[operator]
        reasons.append(text["lead"].format(runner=scored[1].option, total=scored[1].total, gap=gap))
    best = sorted(
        (c for c in cells if c.option == top.option and corroborated(c)),
        key=lambda c: -(c.score or 0),
    )[:2]
    reasons += [
        text["best"].format(dim=c.dimension, score=c.score, ids=", ".join(c.claim_ids))
        for c in best
    ]
    return Recommendation(option=top.option, reasons=reasons, low_confidence=False)


def _none(withheld: str, reasons: list[str], **more: Any) -> Recommendation:
    """No recommendation: why in a code and in its first sentence, which every surface
    shows as it is."""
    return Recommendation(
        option=None,
        reasons=reasons,
        low_confidence=True,
        withheld=withheld,
        no_recommendation_reason=reasons[0],
        **more,
    )


def corroborated(cell: ScoreCell) -> bool:
    """A scored cell two or more independent sites back: the least a reason may rest on."""
    return not cell.missing and cell.score is not None and cell.sites >= 2


def unreachable_sources(notes: Notes, candidates: Candidates, language: str = "en") -> list[str]:
    """What could not be looked at, kept apart from what was looked at and found empty."""
    text = _text(language)
    lines = [
        text["page"].format(
            url=s.url, status=s.status.value + (f" ({s.detail})" if s.detail else "")
        )
        for s in notes.sources
        if not s.status.looked
    ]
    failed = [c for c in candidates.provider_calls if not c.outcome.looked]
    counted = Counter((c.provider, c.outcome.value) for c in failed)
    why = {(c.provider, c.outcome.value): c.detail for c in reversed(failed)}
    lines += [
        text["provider"].format(
            provider=label_for(provider),
            failed=failed_sentence(n, language),
            outcome=outcome + (f": {why[provider, outcome]}" if why[provider, outcome] else ""),
        )
        for (provider, outcome), n in sorted(counted.items())
    ]
    return lines


def _unreachable_reason(found: Searches, notes: Notes, language: str) -> str:
    """ "27 searches could not be made; 2 pages could not be read.": the counts every
    surface gives, searches and pages apart."""
    pages = sum(1 for s in notes.sources if not s.status.looked)
    with in_language(language):
        said = [failed_sentence(found.failed)] if found.failed else []
        if pages:
            said.append(
                ngettext("%(n)d page could not be read", "%(n)d pages could not be read", pages)
                % {"n": pages}
            )
        return gettext("; ").join(said) + gettext(".")


def not_read(notes: Notes, filtered: Filtered | None, language: str = "en") -> list[str]:
    """Kept pages the reading budget never reached: not read is not the same as empty."""
    if filtered is None:
        return []
    read = {s.source_id for s in notes.sources}
    text = _text(language)
    return [
        text["not_read"].format(title=k.title or k.url, url=k.url)
        for k in filtered.kept
        if k.id not in read
    ]
