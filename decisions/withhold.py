"""When the best-scoring option is still not recommended (DESIGN section 2, Reading).

A recommendation needs the leader's evidence to cover at least half of the user's weight,
and a lead that does not come only from cells where the runner-up has no evidence: on the
dimensions where both have evidence, weighted, the leader must score higher. A missing cell
counts as a neutral 50 in a total, so a leader with one strong cell and two gaps can top a
rival with solid, middling evidence everywhere; these two checks keep that from becoming a
recommendation. The ranking and the matrix stay as they are.

What would settle it: the missing cells of the leader and the runner-up that carry the most
weight (for a lead resting on gaps, the cells that would let the two be compared).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from decisions.scoring.totals import percent
from research.artifacts import RankedOption, ScoreCell
from research.i18n import words

HALF = 0.5  # of the user's weight, that the leader's evidence must cover
SETTLE_CELLS = 3  # missing cells named in "what would settle it"

THIN = "thin_evidence"
UNSHARED = "unshared_lead"
GAPS = (THIN, UNSHARED)  # Recommendation.withheld when the leader's total rests on gaps


@dataclass(frozen=True)
class Gap:
    option: str
    dimension: str
    weight: float  # normalised: the user's weights over their sum


@dataclass(frozen=True)
class Withheld:
    kind: str  # THIN or UNSHARED
    leader: RankedOption
    runner: str | None
    cover: float  # 0-1: the weight the leader's evidence covers
    shared: list[str]  # dimensions where both the leader and the runner-up have evidence
    settle: list[Gap] = field(default_factory=list)


def withheld(
    ranking: list[RankedOption], cells: list[ScoreCell], weights: dict[str, float]
) -> Withheld | None:
    """Why the best-scoring option may not be recommended, or None when it may."""
    scored = [r for r in ranking if r.total is not None]
    whole = sum(weights.values())
    if not scored or not whole:
        return None
    share = {d: w / whole for d, w in weights.items()}
    leader = scored[0]
    runner = next((r.option for r in ranking if r.option != leader.option), None)
    mine, theirs = _scores(cells, leader.option), _scores(cells, runner)
    cover = sum(share[d] for d in mine)
    shared = [d for d in weights if d in mine and d in theirs]
    if cover < HALF:
        gaps = _missing(share, leader.option, mine) + _missing(share, runner, theirs)
        return Withheld(THIN, leader, runner, cover, shared, _heaviest(gaps))
    if runner is None or sum(share[d] * (mine[d] - theirs[d]) for d in shared) > 0:
        return None
    # The cells that would let the two be compared: one side has evidence, the other not.
    gaps = [g for g in _missing(share, runner, theirs) if g.dimension in mine]
    gaps += [g for g in _missing(share, leader.option, mine) if g.dimension in theirs]
    return Withheld(UNSHARED, leader, runner, cover, shared, _heaviest(gaps))


def _scores(cells: list[ScoreCell], option: str | None) -> dict[str, float]:
    return {
        c.dimension: c.score
        for c in cells
        if c.option == option and not c.missing and c.score is not None
    }


def _missing(share: dict[str, float], option: str | None, scores: dict[str, float]) -> list[Gap]:
    if option is None:
        return []
    return [Gap(option, d, w) for d, w in share.items() if d not in scores]


def _heaviest(gaps: list[Gap]) -> list[Gap]:
    """Most weight first; on a tie, the order given (the leader's before the runner-up's)."""
    return sorted(gaps, key=lambda g: -g.weight)[:SETTLE_CELLS]


# --- in words -------------------------------------------------------------------------------


def reason(w: Withheld, dims: int, language: str = "en") -> str:
    """One sentence: why the best-scoring option is not recommended."""
    text = words(language).DECIDE
    facts = {
        "option": w.leader.option,
        "total": w.leader.total,
        "covered": w.leader.cells_with_evidence,
        "dims": dims,
        "share": percent(100 * w.cover),
        "runner": w.runner,
        "shared": _listed(w.shared, language),
    }
    if w.kind == THIN:
        return text["thin"].format(**facts)
    return text["unshared" if w.shared else "unshared_none"].format(**facts)


def would_settle(gaps: list[Gap], language: str = "en") -> str:
    """ "Evidence on licence risk and maintenance for SQLite, and on cost for Postgres would
    settle it." """
    if not gaps:
        return ""
    text = words(language).DECIDE
    by_option: dict[str, list[str]] = {}
    for gap in gaps:
        by_option.setdefault(gap.option, []).append(gap.dimension)
    groups = [
        text["settle_group"].format(dims=_listed(dims, language), option=option)
        for option, dims in by_option.items()
    ]
    return text["settle"].format(cells=text["settle_groups"].join(groups))


def _listed(names: list[str], language: str) -> str:
    """ "a", "a and b", "a, b and c" in the plan's language."""
    text = words(language).DECIDE
    if len(names) < 2:
        return "".join(names)
    return text["list_sep"].join(names[:-1]) + text["list_and"] + names[-1]
