"""How far the report can be trusted, and what would raise that (DESIGN section 2).

Each part is 0-100, rounded to one decimal:

- coverage = 80 * cells with evidence / all cells
             + 20 * options with a claim from a primary source / all options
- consistency = 100 * (1 - contradicted / max(corroborated, contradicted)), where
  corroborated counts (option, attribute, dimension) groups with claims from two or more
  sources and contradicted counts the distinct groups that have a contradiction; 60 when
  nothing is corroborated or contradicted, since agreement was never tested.
- timeliness = mean timeliness of the sources behind at least one claim.
- verifiability = 100 * claims from primary sources / all claims
                  * verified quotes / all quotes.

confidence = 0.35 * coverage + 0.25 * consistency + 0.15 * timeliness + 0.25 * verifiability,
multiplied by 0.8 + 0.02 * gap when the top two totals are less than 10 points apart, and 0
when there are no claims at all.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

from decisions.scoring import SourceInfo, timeliness_of, years_before
from research.artifacts import (
    Assessment,
    Claim,
    Contradiction,
    Crosscheck,
    Notes,
    RankedOption,
    ScoreCell,
)
from research.outcomes import Outcome

CONFIDENCE_WEIGHTS = {
    "coverage": 0.35,
    "consistency": 0.25,
    "timeliness": 0.15,
    "verifiability": 0.25,
}
UNTESTED_CONSISTENCY = 60.0
CLOSE_RACE = 10.0
STALE_YEARS = 3


def assess(
    cells: list[ScoreCell],
    ranking: list[RankedOption],
    crosscheck: Crosscheck,
    sources: dict[str, SourceInfo],
    verified_quotes: int,
    total_quotes: int,
    options: list[str],
    today: date,
) -> Assessment:
    claims = _evidence(crosscheck.claims, sources)
    parts = {
        "coverage": _coverage(cells, claims, sources, options),
        "consistency": _consistency(claims, crosscheck.contradictions),
        "timeliness": _timeliness(claims, sources, today),
        "verifiability": _verifiability(claims, sources, verified_quotes, total_quotes),
    }
    parts = {name: round(value, 1) for name, value in parts.items()}
    raw = round(sum(CONFIDENCE_WEIGHTS[name] * value for name, value in parts.items()), 1)
    gap = _top_gap(ranking)
    factor = _margin_factor(gap)
    confidence = round(raw * factor, 1) if claims else 0.0
    method = _method(parts, raw, gap, factor, confidence, bool(claims))
    return Assessment(confidence=confidence, method=method, **parts)


def _evidence(claims: list[Claim], sources: dict[str, SourceInfo]) -> list[Claim]:
    """Only claims from sources that were read count (DESIGN section 3)."""
    return [c for c in claims if c.source_id in sources]


def _coverage(
    cells: list[ScoreCell], claims: list[Claim], sources: dict[str, SourceInfo], options: list[str]
) -> float:
    filled = sum(1 for c in cells if not c.missing) / len(cells) if cells else 0.0
    primary = _options_with_primary(claims, sources)
    backed = sum(1 for o in options if o in primary) / len(options) if options else 0.0
    return 80 * filled + 20 * backed


def _options_with_primary(claims: list[Claim], sources: dict[str, SourceInfo]) -> set[str]:
    return {c.option for c in claims if _is_primary(c, sources)}


def _is_primary(claim: Claim, sources: dict[str, SourceInfo]) -> bool:
    info = sources.get(claim.source_id)
    return info is not None and info.kind == "primary"


def _consistency(claims: list[Claim], contradictions: list[Contradiction]) -> float:
    by_group: dict[tuple[str, str, str | None], set[str]] = {}
    for claim in claims:
        key = (claim.option, claim.attribute, claim.dimension)
        by_group.setdefault(key, set()).add(claim.source_id)
    groups = sum(1 for ids in by_group.values() if len(ids) >= 2)
    contradicted = len({(x.option, x.attribute, x.dimension) for x in contradictions})
    if not groups and not contradicted:
        return UNTESTED_CONSISTENCY
    return 100 * (1 - contradicted / max(groups, contradicted))


def _timeliness(claims: list[Claim], sources: dict[str, SourceInfo], today: date) -> float:
    backing = dict.fromkeys(c.source_id for c in claims)
    values = [timeliness_of(sources[sid].published, today) for sid in backing]
    return sum(values) / len(values) if values else 0.0


def _verifiability(
    claims: list[Claim], sources: dict[str, SourceInfo], verified_quotes: int, total_quotes: int
) -> float:
    if not claims:
        return 0.0
    primary = sum(1 for c in claims if _is_primary(c, sources))
    verified = verified_quotes / total_quotes if total_quotes else 1.0
    return 100 * primary / len(claims) * verified


def _top_gap(ranking: list[RankedOption]) -> float | None:
    totals = sorted((r.total for r in ranking if r.total is not None), reverse=True)
    return round(totals[0] - totals[1], 1) if len(totals) >= 2 else None


def _margin_factor(gap: float | None) -> float:
    """A close race means a small error in the evidence could swap the winner."""
    if gap is None or gap >= CLOSE_RACE:
        return 1.0
    return round(0.8 + 0.02 * gap, 3)


def _method(
    parts: dict[str, float],
    raw: float,
    gap: float | None,
    factor: float,
    confidence: float,
    has_claims: bool,
) -> str:
    if not has_claims:
        return "No claims were found in any source that could be read, so confidence is 0."
    terms = " + ".join(f"{CONFIDENCE_WEIGHTS[n]} x {n} {v:.1f}" for n, v in parts.items())
    formula = f"confidence = {terms} = {raw:.1f}"
    if gap is None:
        return f"{formula}; fewer than two options have a total, so no margin penalty applies."
    if factor == 1.0:
        return (
            f"{formula}; the top two options are {gap:.1f} points apart, so no margin "
            "penalty applies."
        )
    return (
        f"{formula}; the top two options are only {gap:.1f} points apart, so it is "
        f"multiplied by 0.8 + 0.02 x {gap:.1f} = {factor:g}, giving {confidence:.1f}."
    )


# --- what would raise confidence ---------------------------------------------------------


def missing_information(
    cells: list[ScoreCell],
    crosscheck: Crosscheck,
    sources: dict[str, SourceInfo],
    notes: Notes,
    options: list[str],
    *,
    today: date | None = None,
) -> list[str]:
    """Sentences in a fixed order: missing cells, options without a primary source,
    contradictions, unreadable sources, then cells whose evidence is all old.

    `today` dates the staleness check; pass the run's date so a report can be reproduced.
    """
    claims = {c.id: c for c in crosscheck.claims}
    primary = _options_with_primary(_evidence(crosscheck.claims, sources), sources)
    return [
        *(f"No evidence on {c.option} x {c.dimension}" for c in cells if c.missing),
        *(
            f"No primary source (official site, repository or specification) for {o}"
            for o in options
            if o not in primary
        ),
        *(_disagreement(x, claims) for x in crosscheck.contradictions),
        *_unreadable(notes),
        *_stale(cells, claims, sources, today or date.today()),
    ]


def _disagreement(contradiction: Contradiction, claims: dict[str, Claim]) -> str:
    a, b = (claims.get(side.claim_id) for side in (contradiction.a, contradiction.b))
    if contradiction.attribute == "stance" or a is None or b is None:
        # Stances have no short value, so the sources' own words show the disagreement.
        subject = contradiction.dimension or "overall merit"
        said = f'"{_short(contradiction.a.quote)}" vs "{_short(contradiction.b.quote)}"'
    else:
        subject = contradiction.attribute.replace("_", " ")
        said = f"{a.value} vs {b.value}"
    return (
        f"Sources disagree on {contradiction.option}'s {subject}: {said}; "
        f"a primary, current statement would settle it"
    )


def _short(quote: str, limit: int = 80) -> str:
    quote = " ".join(quote.split())
    return quote if len(quote) <= limit else quote[: limit - 3].rstrip() + "..."


def _unreadable(notes: Notes) -> list[str]:
    failed = Counter(s.status for s in notes.sources if s.status is not Outcome.OK)
    if not failed:
        return []
    count = sum(failed.values())
    # Enum order, so the sentence is the same on every run.
    by_outcome = ", ".join(f"{o.value}: {failed[o]}" for o in Outcome if o in failed)
    noun = "source" if count == 1 else "sources"
    return [f"{count} {noun} could not be read ({by_outcome})"]


def _stale(
    cells: list[ScoreCell], claims: dict[str, Claim], sources: dict[str, SourceInfo], today: date
) -> list[str]:
    lines = []
    for cell in cells:
        dates = _source_dates(cell, claims, sources)
        # An undated source might be current, so only a cell with every date known and old
        # is called stale.
        if dates and all(d is not None and _older_than(d, today) for d in dates):
            newest = max(d for d in dates if d is not None)
            lines.append(
                f"Evidence on {cell.option} x {cell.dimension} is all older than "
                f"{STALE_YEARS} years (newest {newest.isoformat()}); a current "
                f"source would help"
            )
    return lines


def _source_dates(
    cell: ScoreCell, claims: dict[str, Claim], sources: dict[str, SourceInfo]
) -> list[date | None]:
    ids = dict.fromkeys(claims[i].source_id for i in cell.claim_ids if i in claims)
    return [sources[sid].published for sid in ids if sid in sources]


def _older_than(published: date, today: date) -> bool:
    return published < years_before(today, STALE_YEARS)
