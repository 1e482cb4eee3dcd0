"""The deterministic score matrix (DESIGN section 2).

Every part is on a 0-100 scale and rounded to one decimal:

    score(o, d) = 0.4 * base + 0.3 * strength + 0.2 * consistency + 0.1 * timeliness

- base = 50 + 50 * sum(polarity_i * strength_i) / sum(strength_i) over the cell's claims
  with a stance (polarity +1 or -1), where strength_i is the strength of claim i's source;
  50 when no claim takes a stance.
- strength = mean strength of the distinct sources behind the cell's claims
  (primary 90, comparison 60, community 30; see research.stages.sourcekind).
- consistency = 100 when two or more independent sites back the cell, 70 when only one
  does, minus 35 for each contradiction that involves one of the cell's claims; 0-100.
- timeliness = mean over the distinct sources of: published within 1 year 100, 2 years 80,
  3 years 60, 5 years 40, older 20, date unknown 50.

A cell with no claims is marked missing and gets no numbers at all.

total(o) = sum(w_d * score(o, d)) / sum(w_d) over the dimensions d where o has evidence,
using the user's weights w_d, so a missing cell neither helps nor hurts an option; it is
None when o has no evidence at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from research.artifacts import (
    Claim,
    Contradiction,
    Notes,
    RankedOption,
    ScoreCell,
    SourceNotes,
)
from research.stages.sourcekind import classify
from research.stages.urls import registrable_domain

WEIGHTS = {"base": 0.4, "strength": 0.3, "consistency": 0.2, "timeliness": 0.1}
# (maximum age in years, timeliness), checked in order.
AGE_STEPS: tuple[tuple[int, float], ...] = ((1, 100.0), (2, 80.0), (3, 60.0), (5, 40.0))
OLDEST = 20.0
UNDATED = 50.0
CORROBORATED = 100.0
SINGLE_SITE = 70.0
CONTRADICTION_PENALTY = 35.0


@dataclass(frozen=True)
class SourceInfo:
    source_id: str
    strength: float  # 0-100
    published: date | None
    kind: str  # primary | comparison | community
    site: str  # registrable domain: two pages of one owner are one site


def source_infos(notes: Notes, options: list[str]) -> dict[str, SourceInfo]:
    """Only sources that were read (OK) can back a score."""
    return {src.source_id: _source_info(src, options) for src in notes.ok_sources()}


def _source_info(src: SourceNotes, options: list[str]) -> SourceInfo:
    url = src.final_url or src.url  # a redirect decides whose site the page is on
    kind = classify(url, src.title, options)
    # SourceNotes.site may be a display name ("GitHub"), so independence uses the domain.
    return SourceInfo(
        source_id=src.source_id,
        strength=kind.strength,
        published=parse_published(src.published),
        kind=kind.kind,
        site=registrable_domain(url),
    )


def parse_published(value: str | None) -> date | None:
    """Read YYYY-MM-DD, YYYY-MM or YYYY; anything else counts as unknown, not as old."""
    text = (value or "").strip()[:10]
    for pad in ("", "-01", "-01-01"):
        try:
            return date.fromisoformat(text + pad)
        except ValueError:
            continue
    return None


def timeliness_of(published: date | None, today: date) -> float:
    if published is None:
        return UNDATED
    for years, points in AGE_STEPS:
        if published >= years_before(today, years):
            return points
    return OLDEST


def years_before(today: date, years: int) -> date:
    try:
        return today.replace(year=today.year - years)
    except ValueError:  # 29 February in a year without one
        return today.replace(year=today.year - years, day=28)


def score_cell(
    option: str,
    dimension: str,
    claims: list[Claim],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
    today: date,
) -> ScoreCell:
    # A claim from a source that was not read is not evidence (DESIGN section 3).
    claims = [c for c in claims if c.source_id in sources]
    if not claims:
        return ScoreCell(option=option, dimension=dimension, missing=True)
    backing = _distinct_sources(claims, sources)
    parts = {
        "base": _base(claims, sources),
        "strength": _mean(s.strength for s in backing),
        "consistency": _consistency(claims, backing, contradictions),
        "timeliness": _mean(timeliness_of(s.published, today) for s in backing),
    }
    parts = {name: round(value, 1) for name, value in parts.items()}
    score = round(sum(WEIGHTS[name] * value for name, value in parts.items()), 1)
    return ScoreCell(
        option=option, dimension=dimension, score=score, claim_ids=[c.id for c in claims], **parts
    )


def _distinct_sources(claims: list[Claim], sources: dict[str, SourceInfo]) -> list[SourceInfo]:
    return [sources[sid] for sid in dict.fromkeys(c.source_id for c in claims)]


def _base(claims: list[Claim], sources: dict[str, SourceInfo]) -> float:
    polar = [(_sign(c.polarity), sources[c.source_id].strength) for c in claims if c.polarity]
    weight = sum(strength for _, strength in polar)
    if not weight:  # no stance taken, or only zero-strength sources took one
        return 50.0
    return _clamp(50 + 50 * sum(sign * strength for sign, strength in polar) / weight)


def _consistency(
    claims: list[Claim], backing: list[SourceInfo], contradictions: list[Contradiction]
) -> float:
    ids = {c.id for c in claims}
    disputed = sum(1 for x in contradictions if x.a.claim_id in ids or x.b.claim_id in ids)
    agreed = CORROBORATED if len({s.site for s in backing}) >= 2 else SINGLE_SITE
    return _clamp(agreed - CONTRADICTION_PENALTY * disputed)


def total(cells_for_option: list[ScoreCell], weights: dict[str, float]) -> float | None:
    """Unrounded, so scaling every weight leaves it unchanged; rank() rounds for display."""
    scored = [c for c in cells_for_option if not c.missing and c.score is not None]
    weight = sum(_weight(weights, c.dimension) for c in scored)
    if not scored or not weight:
        return None
    return sum(_weight(weights, c.dimension) * c.score for c in scored) / weight


def _weight(weights: dict[str, float], dimension: str) -> float:
    if dimension not in weights:
        raise ValueError(f"no weight for dimension {dimension!r}")
    return weights[dimension]


def rank(totals: dict[str, float | None], cells: list[ScoreCell]) -> list[RankedOption]:
    """Highest total first, options without a total last; ties go to more evidence, then name."""
    evidence = {o: sum(1 for c in cells if c.option == o and not c.missing) for o in totals}
    shown = {o: None if t is None else round(t, 1) for o, t in totals.items()}

    def key(option: str) -> tuple[bool, float, int, str]:
        value = shown[option]
        return (value is None, -(value or 0.0), -evidence[option], option)

    ordered = sorted(totals, key=key)
    return [
        RankedOption(option=o, total=shown[o], rank=i, cells_with_evidence=evidence[o])
        for i, o in enumerate(ordered, start=1)
    ]


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def _sign(polarity: int) -> int:
    return (polarity > 0) - (polarity < 0)


def _clamp(value: float) -> float:
    return max(0.0, min(100.0, value))
