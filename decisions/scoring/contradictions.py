"""What contradictions do to a cell: consistency loses points for each, by what explains it,
and a change over time whose current side is known supersedes the earlier claims."""

from __future__ import annotations

from decisions.scoring.sources import SourceInfo, clamp, source_standings
from research.artifacts import Claim, Contradiction

CORROBORATED = 100.0


SINGLE_SITE = 70.0


CONTRADICTION_PENALTY = 35.0


# How much a contradiction weighs on consistency, by what explains it; a change over time
# whose current side is known weighs nothing (see settled()).
CAUSE_WEIGHT = {"error": 1.0, "scope": 0.5, "time": 0.5}


def consistency(
    claims: list[Claim],
    backing: list[str],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
) -> float:
    penalty = sum(CONTRADICTION_PENALTY * weight(x) for x in touching(claims, contradictions))
    return clamp(_agreed(backing, sources) - penalty)


def _agreed(backing: list[str], sources: dict[str, SourceInfo]) -> float:
    sites = {sources[s].site for s in backing}
    return CORROBORATED if len(sites) >= 2 else SINGLE_SITE


def touching(claims: list[Claim], contradictions: list[Contradiction]) -> list[Contradiction]:
    """The contradictions that involve one of these claims, on either side."""
    ids = {c.id for c in claims}
    return [x for x in contradictions if ids & (side_claims(x, "a") | side_claims(x, "b"))]


def side_claims(x: Contradiction, side: str) -> set[str]:
    """The claim ids on one side: its main claim and the other pages siding with it."""
    main, also = (x.a, x.a_also) if side == "a" else (x.b, x.b_also)
    return {main.claim_id, *(s.claim_id for s in also)}


def current_side(x: Contradiction) -> str | None:
    """ "a" or "b" when the difference is a change over time and the side holding the claim
    that describes today is known."""
    if x.cause != "time" or x.current is None:
        return None
    return next((side for side in ("a", "b") if x.current in side_claims(x, side)), None)


def settled(x: Contradiction) -> bool:
    return current_side(x) is not None


def weight(x: Contradiction) -> float:
    """How much a contradiction counts against consistency: nothing once a later source
    settles it, half when time or scope may explain it, in full otherwise."""
    if settled(x):
        return 0.0
    return CAUSE_WEIGHT.get(x.cause or "error", 1.0)


def superseded(contradictions: list[Contradiction]) -> dict[str, Contradiction]:
    """Claim id -> the contradiction whose later source supersedes it."""
    old: dict[str, Contradiction] = {}
    for x in contradictions:
        side = current_side(x)
        if side is not None:
            for claim_id in side_claims(x, "b" if side == "a" else "a"):
                old.setdefault(claim_id, x)
    return old


def superseded_notes(
    claims: list[Claim],
    old: dict[str, Contradiction],
    sources: dict[str, SourceInfo],
    text: dict[str, str],
) -> list[str]:
    by_contradiction: dict[str, list[Claim]] = {}
    for claim in claims:
        if claim.id in old:
            by_contradiction.setdefault(old[claim.id].id, []).append(claim)
    notes = []
    for x_id, gone in by_contradiction.items():
        x = old[gone[0].id]
        current = x.a if current_side(x) == "a" else x.b
        if x.current not in (x.a.claim_id, x.b.claim_id):
            current = next(s for s in (*x.a_also, *x.b_also) if s.claim_id == x.current)
        key = "superseded_one" if len(gone) == 1 else "superseded"
        notes.append(
            text[key].format(
                claims=", ".join(c.id for c in gone),
                sites=", ".join(dict.fromkeys(_site(c.source_id, sources) for c in gone)),
                contradiction=x_id,
                current=current.claim_id,
                current_site=_site(current.source_id, sources),
            )
        )
    return notes


def _site(source_id: str, sources: dict[str, SourceInfo]) -> str:
    info = sources.get(source_id)
    return info.site if info else source_id


def consistency_notes(
    claims: list[Claim],
    sources: dict[str, SourceInfo],
    contradictions: list[Contradiction],
    value: float,
    text: dict[str, str],
) -> list[str]:
    """Only when a contradiction touches the cell: what each one took off, and why."""
    found = touching(claims, contradictions)
    if not found:
        return []
    backing = list(source_standings(claims, sources))
    agreed = _agreed(backing, sources)
    terms = " ".join(
        text["penalty"].format(
            points=round(CONTRADICTION_PENALTY * weight(x), 1), id=x.id, why=_why(x, text)
        )
        for x in found
    )
    label = text["corroborated" if agreed == CORROBORATED else "single"]
    return [text["consistency"].format(agreed=agreed, backing=label, terms=terms, value=value)]


def _why(x: Contradiction, text: dict[str, str]) -> str:
    if settled(x):
        return text["why_settled"]
    return text.get(f"why_{x.cause}", text["why_error"])
