"""How far the report can be trusted (DESIGN section 2).

Each part is 0-100, rounded to one decimal. A claim counts as primary when its source is
primary for the claim's option (a vendor's page is never a rival's primary source).

- coverage = 80 * cells with evidence / all cells
             + 20 * options with a claim from a primary source / all options
- consistency = 100 * (1 - contradicted / max(corroborated, contradicted)), where
  corroborated counts (option, attribute, dimension) groups with claims from two or more
  sources and contradicted counts the distinct groups that have a contradiction, each
  weighted by its weightiest contradiction (decisions.scoring.contradictions.weight): 1 when nothing
  explains it, 0.5 for other versions or setups or a change over time with no known
  current side, 0 once a later source settles it; 60 when nothing is corroborated or
  contradicted, since agreement was never tested.
- timeliness = mean timeliness of the sources behind at least one claim.
- verifiability = 100 * claims from primary sources / all claims
                  * verified quotes / all quotes.
- corroboration = 100 * mean support of the scored cells, where a cell's support is 0
  when it rests on one site or only on weak sources (forums, interested parties: standing
  below a review's 60), else min(1, sum of its sites' weights / 1.5): a primary source and
  a review, or three reviews, fully corroborate a cell.

confidence = 0.35 * coverage + 0.25 * consistency + 0.15 * timeliness + 0.25 * verifiability,
multiplied by 0.6 + 0.4 * corroboration / 100, so a run whose every cell rests on a single
or weak source stays at or below 60, under the default threshold of 65; then multiplied by
0.8 + 0.02 * gap when the top two totals are less than 10 points apart; 0 when there are no
claims at all.

When nothing is recommended, confidence is then held below the threshold (held_below): a
result that gives no answer is not fit for direct decision use, whatever its parts say.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from decisions.scoring.contradictions import weight
from decisions.scoring.sources import SourceInfo, site_weights, standing, timeliness_of
from research.artifacts import (
    Assessment,
    Claim,
    Contradiction,
    Crosscheck,
    RankedOption,
    ScoreCell,
)
from research.i18n import words
from research.reading import REVIEW

CONFIDENCE_WEIGHTS = {
    "coverage": 0.35,
    "consistency": 0.25,
    "timeliness": 0.15,
    "verifiability": 0.25,
}
UNTESTED_CONSISTENCY = 60.0
CLOSE_RACE = 10.0
FULL_SUPPORT = 1.5  # site weights that fully corroborate a cell: primary 0.9 + review 0.6
THIN_FLOOR = 0.6  # the factor when no cell is corroborated: 100 * 0.6 stays under 65


def assess(
    cells: list[ScoreCell],
    ranking: list[RankedOption],
    crosscheck: Crosscheck,
    sources: dict[str, SourceInfo],
    verified_quotes: int,
    total_quotes: int,
    options: list[str],
    today: date,
    language: str = "en",
) -> Assessment:
    claims = evidence(crosscheck.claims, sources)
    contradicted = contradicted_points(crosscheck.contradictions)
    parts = {
        "coverage": _coverage(cells, claims, sources, options),
        "consistency": _consistency(claims, contradicted),
        "timeliness": _timeliness(claims, sources, today),
        "verifiability": _verifiability(claims, sources, verified_quotes, total_quotes),
    }
    parts = {name: round(value, 1) for name, value in parts.items()}
    raw = round(sum(CONFIDENCE_WEIGHTS[name] * value for name, value in parts.items()), 1)
    steps = _steps(raw, corroboration(cells, claims, sources), _top_gap(ranking))
    confidence = steps.confidence if claims else 0.0
    method = (
        _method(parts, steps, contradicted, language) if claims else _text(language)["no_claims"]
    )
    return Assessment(
        confidence=confidence, method=method, corroboration=steps.corroboration, **parts
    )


def _text(language: str) -> dict:
    return words(language).ASSESSMENT


def evidence(claims: list[Claim], sources: dict[str, SourceInfo]) -> list[Claim]:
    """Only claims from sources that were read count (DESIGN section 3)."""
    return [c for c in claims if c.source_id in sources]


def _coverage(
    cells: list[ScoreCell], claims: list[Claim], sources: dict[str, SourceInfo], options: list[str]
) -> float:
    filled = sum(1 for c in cells if not c.missing) / len(cells) if cells else 0.0
    primary = options_with_primary(claims, sources)
    backed = sum(1 for o in options if o in primary) / len(options) if options else 0.0
    return 80 * filled + 20 * backed


def options_with_primary(claims: list[Claim], sources: dict[str, SourceInfo]) -> set[str]:
    return {c.option for c in claims if _is_primary(c, sources)}


def _is_primary(claim: Claim, sources: dict[str, SourceInfo]) -> bool:
    info = sources.get(claim.source_id)
    return info is not None and standing(claim, info).kind == "primary"


def contradicted_points(contradictions: list[Contradiction]) -> dict[tuple, float]:
    """(option, attribute, dimension) -> the weight of its weightiest contradiction."""
    points: dict[tuple, float] = {}
    for x in contradictions:
        key = (x.option, x.attribute, x.dimension)
        points[key] = max(weight(x), points.get(key, 0.0))
    return points


def _consistency(claims: list[Claim], contradicted: dict[tuple, float]) -> float:
    by_group: dict[tuple[str, str, str | None], set[str]] = {}
    for claim in claims:
        key = (claim.option, claim.attribute, claim.dimension)
        by_group.setdefault(key, set()).add(claim.source_id)
    groups = sum(1 for ids in by_group.values() if len(ids) >= 2)
    weighed = sum(contradicted.values())
    if not groups and not weighed:
        return UNTESTED_CONSISTENCY
    return 100 * (1 - weighed / max(groups, weighed))


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


# --- corroboration ------------------------------------------------------------------------


def cell_support(cell: ScoreCell, claims: list[Claim], sources: dict[str, SourceInfo]) -> float:
    """0 when the cell rests on one site or on weak sources only, up to 1 when fully backed."""
    ids = set(cell.claim_ids)
    weights = site_weights([c for c in claims if c.id in ids], sources)
    if len(weights) < 2 or max(weights.values()) < REVIEW / 100:
        return 0.0
    return min(1.0, sum(weights.values()) / FULL_SUPPORT)


def corroboration(
    cells: list[ScoreCell], claims: list[Claim], sources: dict[str, SourceInfo]
) -> float:
    scored = [c for c in cells if not c.missing]
    if not scored:
        return 0.0
    return round(100 * sum(cell_support(c, claims, sources) for c in scored) / len(scored), 1)


# --- putting it together ------------------------------------------------------------------


def held_below(assessment: Assessment, threshold: int, language: str = "en") -> Assessment:
    """A run that recommends nothing says so with a confidence under the threshold, so the
    low-confidence warning opens its report; the method says where the number came from."""
    ceiling = float(max(0, threshold - 1))
    if assessment.confidence <= ceiling:
        return assessment
    said = _text(language)["held"].format(threshold=threshold, value=ceiling)
    return assessment.model_copy(update={"confidence": ceiling, "method": assessment.method + said})


@dataclass(frozen=True)
class Steps:
    """The weighted sum, then the corroboration factor, then the margin factor."""

    raw: float
    corroboration: float
    support_factor: float
    supported: float
    gap: float | None
    margin_factor: float
    confidence: float


def _steps(raw: float, corroborated: float, gap: float | None) -> Steps:
    support = round(THIN_FLOOR + (1 - THIN_FLOOR) * corroborated / 100, 3)
    supported = round(raw * support, 1)
    margin = _margin_factor(gap)
    return Steps(raw, corroborated, support, supported, gap, margin, round(supported * margin, 1))


def _top_gap(ranking: list[RankedOption]) -> float | None:
    totals = sorted((r.total for r in ranking if r.total is not None), reverse=True)
    return round(totals[0] - totals[1], 1) if len(totals) >= 2 else None


def _margin_factor(gap: float | None) -> float:
    """A close race means a small error in the evidence could swap the winner."""
    if gap is None or gap >= CLOSE_RACE:
        return 1.0
    return round(0.8 + 0.02 * gap, 3)


def _method(
    parts: dict[str, float], steps: Steps, contradicted: dict[tuple, float], language: str
) -> str:
    text = _text(language)
    terms = " + ".join(
        f"{CONFIDENCE_WEIGHTS[n]} x {text['names'][n]} {v:.1f}" for n, v in parts.items()
    )
    said = text["formula"].format(terms=terms, raw=steps.raw)
    if any(w != 1.0 for w in contradicted.values()):
        said += text["contradicted"].format(
            full=sum(1 for w in contradicted.values() if w == 1.0),
            half=sum(1 for w in contradicted.values() if 0 < w < 1),
            settled=sum(1 for w in contradicted.values() if w == 0),
        )
    said += text["support"].format(
        c=steps.corroboration,
        f=steps.corroboration / 100,
        factor=steps.support_factor,
        value=steps.supported,
    )
    if steps.gap is None:
        return said + text["no_gap"]
    if steps.margin_factor == 1.0:
        return said + text["wide"].format(gap=steps.gap)
    return said + text["close"].format(
        gap=steps.gap, factor=steps.margin_factor, value=steps.confidence
    )
