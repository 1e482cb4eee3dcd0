"""Who each source is and how much it counts: its standing toward an option, the sites
behind a set of claims, and how recent it is."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from research.artifacts import Claim, Notes, SourceNotes
from research.providers.urls import registrable_domain
from research.reading import SourceKind, Standing, classify

# (maximum age in years, timeliness), checked in order.
AGE_STEPS: tuple[tuple[int, float], ...] = ((1, 100.0), (2, 80.0), (3, 60.0), (5, 40.0))


OLDEST = 20.0


UNDATED = 50.0


@dataclass(frozen=True)
class SourceInfo:
    source_id: str
    strength: float  # 0-100, the page as a whole
    published: date | None
    kind: str  # primary | comparison | community
    site: str  # registrable domain: two pages of one owner are one site
    graded: SourceKind | None = None  # who wrote it, which decides its standing per option


def source_infos(notes: Notes, options: list[str], language: str = "en") -> dict[str, SourceInfo]:
    """Only sources that were read (OK) can back a score."""
    return {src.source_id: _source_info(src, options, language) for src in notes.ok_sources()}


# A registry's or database's record states its own data: the strongest source there is,
# and its typed facts count as much as RECORD_VOTES independent sites in a cell's base.
RECORD_STRENGTH = 100.0
RECORD_VOTES = 3.0
RECORD_KINDS = ("registry", "primary")


def _source_info(src: SourceNotes, options: list[str], language: str) -> SourceInfo:
    url = src.final_url or src.url  # a redirect decides whose site the page is on
    if src.kind is not None:
        return SourceInfo(
            source_id=src.source_id,
            strength=RECORD_STRENGTH,
            published=parse_published(src.latest),
            kind=src.kind,
            site=registrable_domain(url),
        )
    kind = classify(url, src.title, options, language)
    # SourceNotes.site may be a display name ("GitHub"), so independence uses the domain.
    return SourceInfo(
        source_id=src.source_id,
        strength=kind.strength,
        published=parse_published(src.latest),
        kind=kind.kind,
        site=registrable_domain(url),
        graded=kind,
    )


def standing(claim: Claim, info: SourceInfo) -> Standing:
    """How much `info` counts for this claim: a vendor is weak on its rivals; a registry's
    or database's record is primary evidence for the option it is the record of (its
    facts are all about that option)."""
    if info.graded is None:
        kind = "primary" if info.kind in RECORD_KINDS else info.kind
        return Standing(kind, info.strength, "")
    return info.graded.toward(claim.option, judgement=claim.kind == "stance")


def vote_weight(claim: Claim, info: SourceInfo) -> float:
    """How much a site's vote on a cell weighs: its standing, and a record's typed facts
    several times over."""
    weight = standing(claim, info).strength / 100
    if info.kind in RECORD_KINDS and claim.kind == "fact":
        weight *= RECORD_VOTES
    return weight


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


def source_standings(claims: list[Claim], sources: dict[str, SourceInfo]) -> dict[str, float]:
    """Each distinct source behind the claims, with its best standing among them."""
    best: dict[str, float] = {}
    for claim in claims:
        value = standing(claim, sources[claim.source_id]).strength
        best[claim.source_id] = max(value, best.get(claim.source_id, 0.0))
    return best


def site_weights(claims: list[Claim], sources: dict[str, SourceInfo]) -> dict[str, float]:
    """Each independent site behind the claims, with its best standing as a 0-1 weight."""
    weights: dict[str, float] = {}
    for source_id, strength in source_standings(claims, sources).items():
        site = sources[source_id].site
        weights[site] = max(strength / 100, weights.get(site, 0.0))
    return weights


def mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def clamp(value: float) -> float:
    return max(0.0, min(100.0, value))
