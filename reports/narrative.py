"""What the report says in sentences, chosen from the decision's structured facts.

Each sentence is a `Say`: a key into reports.strings and the facts it needs, so the same
choice reads the same in every language. Nothing here quotes a source: quotes are printed
only verbatim, next to their citation, by the template.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from decisions.assessment import CLOSE_RACE
from decisions.scoring.contradictions import current_side
from decisions.scoring.totals import evidence_share, percent
from decisions.withhold import GAPS
from research.artifacts import (
    Claim,
    Contradiction,
    Decision,
    Plan,
    RankedOption,
    ScoreCell,
)

Cite = Callable[[list[str]], str]  # source ids -> "[1], [3]"
MAX_REASONS = 3


@dataclass(frozen=True)
class Say:
    key: str
    params: dict[str, Any] = field(default_factory=dict)


# --- the reasons that decided it --------------------------------------------------------


def reasons(
    decision: Decision, plan: Plan, claims: dict[str, Claim], cite: Cite, read: list[str]
) -> list[Say]:
    """At most three: the winner's total, its margin, and the dimension that decided it,
    named only when two or more independent sites back the winner's cell there."""
    option = decision.recommendation.option
    scored = {r.option: r for r in decision.ranking if r.total is not None}
    if option is None or option not in scored:
        return _no_recommendation(decision, plan, claims, cite, read)
    top = scored[option]
    runner = next((r for r in decision.ranking if r.total is not None and r.option != option), None)
    mine = _cells(decision.matrix, option)
    said = [Say("reason_total", _standing(top, decision, plan, claims, cite)), _margin(top, runner)]
    decisive = _decisive(mine, runner, decision.matrix, plan, claims, cite)
    return ([*said, decisive] if decisive else said)[:MAX_REASONS]


def _standing(
    top: RankedOption, decision: Decision, plan: Plan, claims: dict[str, Claim], cite: Cite
) -> dict[str, Any]:
    """An option's total, how much of the weight rests on evidence, and its sources."""
    return {
        "option": top.option,
        "total": f"{top.total:.1f}",
        "covered": top.cells_with_evidence,
        "dimensions": len(plan.dimensions),
        "share": percent(share_of(top, decision, plan)),
        "cites": cite(_sources(_cells(decision.matrix, top.option).values(), claims)),
    }


def share_of(ranked: RankedOption, decision: Decision, plan: Plan) -> float:
    """How much of the user's weight rests on evidence for an option, 0-100; worked out from
    the matrix for a decision written before the ranking kept it."""
    if ranked.evidence_share is not None:
        return ranked.evidence_share
    weights = {d.name: d.weight for d in plan.dimensions}
    cells = [c for c in decision.matrix if c.option == ranked.option and c.dimension in weights]
    return evidence_share(cells, weights)


def _no_recommendation(
    decision: Decision, plan: Plan, claims: dict[str, Claim], cite: Cite, read: list[str]
) -> list[Say]:
    best = next((r for r in decision.ranking if r.total is not None), None)
    site = decision.recommendation.single_site
    if decision.offline:
        return [Say("sentence", {"sentence": decision.offline})]
    if site and best is not None:
        facts = _standing(best, decision, plan, claims, cite)
        said = [Say("reason_single_site", facts | {"site": site})]
    elif decision.recommendation.withheld in GAPS and best is not None:
        said = _withheld(decision, best, claims, cite)
    elif read:
        said = [Say("reason_nothing_verified", {"cites": cite(read)})]
    else:
        said = [Say("reason_nothing_read")]
    if decision.unreachable:
        said.append(Say("reason_unreachable", {"section": "background"}))
    return said


def _withheld(
    decision: Decision, best: RankedOption, claims: dict[str, Claim], cite: Cite
) -> list[Say]:
    """The decision's own sentences, as every surface gives them: why the best-scoring
    option is not recommended, and what would settle it; then the evidence on the two."""
    rec = decision.recommendation
    runner = next((r.option for r in decision.ranking if r.option != best.option), None)
    cells = [c for o in (best.option, runner) if o for c in _cells(decision.matrix, o).values()]
    said = [Say("sentence", {"sentence": rec.no_recommendation_reason})]
    if rec.would_settle:
        said.append(Say("sentence", {"sentence": rec.would_settle}))
    if cites := cite(_sources(cells, claims)):
        said.append(Say("evidence", {"cites": cites}))
    return said


def _margin(top: RankedOption, runner: RankedOption | None) -> Say:
    if runner is None or runner.total is None or top.total is None:
        return Say("reason_alone")
    gap = top.total - runner.total
    return Say(
        "reason_close" if gap < CLOSE_RACE else "reason_margin",
        {"runner": runner.option, "runner_total": f"{runner.total:.1f}", "gap": f"{gap:.1f}"},
    )


def _decisive(
    mine: dict[str, ScoreCell],
    runner: RankedOption | None,
    matrix: list[ScoreCell],
    plan: Plan,
    claims: dict[str, Claim],
    cite: Cite,
) -> Say | None:
    """The dimension where the winner gains most on the runner-up, weighted; without a
    comparable runner-up, the dimension that adds most to the winner's own total. Only
    cells two or more independent sites back count: a reason never rests on one site, so
    none is given when no cell of the winner's is so backed."""
    backed = {d: c for d, c in mine.items() if c.sites >= 2}
    if not backed:
        return None
    weights = {d.name: d.weight for d in plan.dimensions}
    theirs = _cells(matrix, runner.option) if runner else {}
    gain = {
        d: weights.get(d, 0) * ((cell.score or 0) - (theirs[d].score or 0))
        for d, cell in backed.items()
        if d in theirs and theirs[d].sites >= 2
    }
    dim = max(gain, key=gain.__getitem__, default=None)
    if runner is not None and dim is not None and gain[dim] > 0:
        versus = {"runner": runner.option, "runner_score": f"{theirs[dim].score:.1f}"}
        return Say("reason_versus", _on(dim, mine[dim], weights, claims, cite) | versus)

    def contribution(d: str) -> float:
        return weights.get(d, 0) * (mine[d].score or 0)

    dim = max(backed, key=contribution)
    if contribution(dim) >= max(map(contribution, mine)):
        return Say("reason_strongest", _on(dim, mine[dim], weights, claims, cite))
    return Say(
        "reason_backed", _on(dim, mine[dim], weights, claims, cite) | {"sites": mine[dim].sites}
    )


def _on(
    dim: str, cell: ScoreCell, weights: dict[str, float], claims: dict[str, Claim], cite: Cite
) -> dict[str, Any]:
    return {
        "dimension": dim,
        "weight": f"{100 * weights.get(dim, 0):.0f}",
        "score": f"{cell.score:.1f}",
        "cites": cite(_sources([cell], claims)),
    }


def _cells(matrix: list[ScoreCell], option: str) -> dict[str, ScoreCell]:
    return {c.dimension: c for c in matrix if c.option == option and not c.missing}


def _sources(cells, claims: dict[str, Claim]) -> list[str]:
    return [claims[i].source_id for c in cells for i in c.claim_ids if i in claims]


# --- the contradiction that matters most -----------------------------------------------


def top_contradiction(
    contradictions: list[Contradiction],
    decision: Decision,
    plan: Plan,
    claims: dict[str, Claim],
) -> Contradiction | None:
    """The one a reader most needs: on the recommended option (then the runner-up, and so
    on), between typed facts or judgements rather than whole sentences, unexplained rather
    than put down to time or scope, on the most heavily weighted dimension; the engine's own
    order breaks ties."""
    if not contradictions:
        return None
    weights = {d.name: d.weight for d in plan.dimensions}
    order = [r.option for r in decision.ranking if r.total is not None]
    rank = {o: i for i, o in enumerate(order)}

    def importance(item: tuple[int, Contradiction]) -> tuple[int, bool, int, float, int]:
        n, x = item
        sides = [claims.get(x.a.claim_id), claims.get(x.b.claim_id)]
        loose = any(c is None or c.kind == "statement" for c in sides)
        dimension = x.dimension or next((c.dimension for c in sides if c), None)
        return (
            rank.get(x.option, len(order)),
            loose,
            _EXPLAINED.get(x.cause or "error", 0),
            -weights.get(dimension or "", 0),
            n,
        )

    return min(enumerate(contradictions), key=importance)[1]


# A difference of time or scope may be no conflict at all; one nothing explains is.
_EXPLAINED = {"error": 0, "scope": 1, "time": 2}


def describe(x: Contradiction, claims: dict[str, Claim], numbers: dict[str, int]) -> Say:
    """Both sides in words, by citation number: the quotes themselves follow in full under
    Contradictions and consensus. A whole-sentence claim has no short value, and a cut
    sentence would misquote it, so then only the citation numbers are given."""
    a, b = claims.get(x.a.claim_id), claims.get(x.b.claim_id)
    params: dict[str, Any] = {
        "a": f"[{numbers[x.a.source_id]}]",
        "b": f"[{numbers[x.b.source_id]}]",
    }
    if a is None or b is None or "statement" in (a.kind, b.kind):
        return Say("contradiction_plain", params)
    key = "contradiction_stance" if x.attribute == "stance" else "contradiction_fact"
    return Say(key, params | {"a_value": a.value, "b_value": b.value})


def side_sources(x: Contradiction, side: str) -> list[str]:
    """The pages on one side of a contradiction: its own, then those siding with it."""
    main, also = (x.a, x.a_also) if side == "a" else (x.b, x.b_also)
    return list(dict.fromkeys(s.source_id for s in (main, *also)))


def _cites(source_ids: list[str], numbers: dict[str, int]) -> str:
    return ", ".join(f"[{n}]" for n in sorted({numbers[s] for s in source_ids if s in numbers}))


def cause(
    x: Contradiction,
    claims: dict[str, Claim],
    numbers: dict[str, int],
    strength: Mapping[str, float] | None = None,
) -> Say | None:
    """Why the sources may differ, as cross-validation judged it, in the reader's terms:
    which pages describe the earlier and which the current state; that they measure
    different things; or that one is likely wrong, and which source counts for more.
    `strength` gives each claim's standing (decisions.scoring.sources.standing), by claim id."""
    if x.cause == "time":
        return _changed(x, claims, numbers)
    if x.cause == "scope":
        a, b = (_cites(side_sources(x, side), numbers) for side in ("a", "b"))
        return Say("cause_scope", {"a": a, "b": b})
    if x.cause == "error":
        return _stronger(x, strength or {}, numbers)
    return None


def _changed(x: Contradiction, claims: dict[str, Claim], numbers: dict[str, int]) -> Say:
    side = current_side(x)
    if side is not None:
        earlier = [s for s in side_sources(x, "b" if side == "a" else "a") if s in numbers]
        params = {"earlier": _cites(earlier, numbers), "count": len(earlier)}
        return Say("cause_time", params | {"current": _cites(side_sources(x, side), numbers)})
    current = claims.get(x.current or "")
    if current is not None and current.source_id in numbers:
        return Say("cause_time_current", {"current": f"[{numbers[current.source_id]}]"})
    return Say("cause_time_unknown")


def _stronger(x: Contradiction, strength: Mapping[str, float], numbers: dict[str, int]) -> Say:
    a, b = (_best(x, side, strength, numbers) for side in ("a", "b"))
    if a is None or b is None:
        return Say("cause_error")
    if a[0] == b[0]:
        return Say("cause_error_even", {"strength": f"{a[0]:g}"})
    (strong, stronger), (weak, weaker) = (a, b) if a[0] > b[0] else (b, a)
    return Say(
        "cause_error_stronger",
        {"stronger": stronger, "strong": f"{strong:g}", "weaker": weaker, "weak": f"{weak:g}"},
    )


def _best(
    x: Contradiction, side: str, strength: Mapping[str, float], numbers: dict[str, int]
) -> tuple[float, str] | None:
    """The strongest page on one side, as (its standing, its citation)."""
    main, also = (x.a, x.a_also) if side == "a" else (x.b, x.b_also)
    ranked = [
        (strength[s.claim_id], -numbers[s.source_id])
        for s in (main, *also)
        if s.claim_id in strength and s.source_id in numbers
    ]
    if not ranked:
        return None
    value, page = max(ranked)
    return value, f"[{-page}]"
