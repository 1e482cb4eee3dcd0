"""Typed facts that cannot both hold: two licences, two maintenance statuses, two latest
versions, release dates that cannot be the same day, figures of one measure more than 25%
apart. The strongest pair stands for each disagreement; other pages join a side. Each says
whether the sources differ in time (and which side describes today), in scope, or in truth.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from itertools import combinations

from research.artifacts import (
    Claim,
    Contradiction,
    ContradictionSide,
    SourceNotes,
)
from research.providers.urls import registrable_domain
from research.reading.claims import LICENCE_PATTERNS, parse_number
from research.reading.claims.versions import PARTS_OF_YEAR, readable_date, same_release
from research.reading.sourcekind import classify
from research.reading.text import contains_term

COMPARABLE_STRENGTH = 30  # stances only contradict when their sources weigh about the same
QUANTITY_TOLERANCE = 0.25  # "about 40" and "42" agree; 40 and 60 do not
SUPERSEDED_DAYS = 90  # a "latest version" older than this by the other is history, not conflict


@dataclass(frozen=True)
class SourceFacts:
    site: str
    kind: str
    strength: float
    published: date | None
    own: bool = False  # the option's own site or repository
    record: bool = False  # a registry's or database's record: current on the day retrieved


def source_facts(src: SourceNotes, options: list[str]) -> SourceFacts:
    if src.kind is not None:
        return SourceFacts(
            registrable_domain(src.url), src.kind, RECORD_STRENGTH, _date(src.latest), record=True
        )
    kind = classify(src.url, src.title, options)
    return SourceFacts(
        registrable_domain(src.url),
        kind.kind,
        kind.strength,
        _date(src.latest),
        own=kind.owner is not None,
    )


RECORD_STRENGTH = 100.0  # a registry or database states its own data


def _date(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


def topic_of(claim: Claim) -> tuple[str, str, str | None]:
    # Stances are compared within a dimension; typed facts across the whole option. A
    # price by the year is compared with one by the month.
    attribute = _same_release(claim.attribute)
    attribute = _PER_MONTH.get(attribute, (attribute, 1.0))[0]
    return claim.option, attribute, claim.dimension if claim.kind == "stance" else None


def conflict(a: Claim, b: Claim, fa: SourceFacts, fb: SourceFacts) -> str | None:
    """Why two claims on the same topic cannot both be true, or None if they can."""
    if topic_of(a) != topic_of(b) or a.source_id == b.source_id or a.value == b.value:
        return None
    if a.kind == "stance":
        if abs(stance_weight(fa) - stance_weight(fb)) > COMPARABLE_STRENGTH:
            return None
        return "opposite judgements from sources of comparable strength"
    if a.attribute == "licence":
        if set(a.value.split(" OR ")) & set(b.value.split(" OR ")):
            return None
        if _different_scopes(_VERSIONS, _without_licences(a.quote), _without_licences(b.quote)):
            return None  # "1.5 and earlier are MIT" and "BSL from 1.6" can both be true
        return _change_hint("licence", fa, fb)
    if a.attribute == "maintenance":
        if _different_scopes(_YEARS, a.quote, b.quote):
            return None  # active in 2022 and archived in 2025 is a history, not a conflict
        return _change_hint("maintenance status", fa, fb)
    if a.attribute.startswith("release_date"):
        if dates_agree(a.value, b.value):
            return None
        return "the two sources date the same release differently"
    if a.attribute == "latest_version":
        if fa.record != fb.record:
            return "the registry's latest release is not the one the page names"
        if (
            fa.published
            and fb.published
            and abs((fa.published - fb.published).days) > SUPERSEDED_DAYS
        ):
            return None  # the older page simply predates the newer release
        return "the two sources name different latest versions"
    return _quantity_conflict(a, b)


_VERSIONS = re.compile(r"(?<![\w.-])\d+\.(?:\d+|x)(?:\.\d+)?\b")
_YEARS = re.compile(r"\b20\d\d\b|(?<!\d)20\d\d(?=\s*年)")


def dates_agree(a: str, b: str) -> bool:
    """Whether two dates, each as precise as its source ("2024", "2024-10", "2024-E" for
    early 2024, "2024-10-03"), can name the same day."""
    if a[:4] != b[:4]:
        return False
    months_a, months_b = (
        _months(a[5:7] if len(a) > 5 else ""),
        _months(b[5:7] if len(b) > 5 else ""),
    )
    if not months_a & months_b:
        return False
    both_days = len(a) >= 10 and len(b) >= 10
    return not both_days or a[:10] == b[:10]


def _months(part: str) -> set[int]:
    if not part:
        return set(range(1, 13))
    if part[0] in PARTS_OF_YEAR:
        low, high = PARTS_OF_YEAR[part[0]]
        return set(range(low, high + 1))
    return {int(part)}


# Claims are compared in pairs: each quote's words are read once.
_same_release = lru_cache(maxsize=8192)(same_release)
_number = lru_cache(maxsize=8192)(parse_number)


@lru_cache(maxsize=8192)
@lru_cache(maxsize=8192)  # asked of each claim once per other claim on its topic
def _periods(quote: str) -> frozenset[str]:
    return frozenset(re.sub(r"\s+", " ", m.lower()) for m in _PERIOD.findall(quote))


@lru_cache(maxsize=8192)
def _without_licences(quote: str) -> str:
    """Licence names carry numbers (Apache-2.0) that are not release versions."""
    for _, pattern in LICENCE_PATTERNS:
        quote = pattern.sub(" ", quote)
    return quote


def _different_scopes(pattern: re.Pattern[str], a: str, b: str) -> bool:
    """Both statements name a scope (versions, years) and the scopes do not overlap."""
    scope_a, scope_b = _scopes(pattern, a), _scopes(pattern, b)
    return bool(scope_a and scope_b and not scope_a & scope_b)


@lru_cache(maxsize=8192)
def _scopes(pattern: re.Pattern[str], text: str) -> frozenset[str]:
    return frozenset(pattern.findall(text))


def stance_weight(facts: SourceFacts) -> float:
    # A project's own pages are primary for facts, but no better than a review when it
    # comes to judging itself.
    return min(facts.strength, 60.0) if facts.own else facts.strength


_PERIOD = re.compile(
    r"this (?:release|version|year|month)|(?:past|last|previous)\s+(?:\w+\s+)?"
    r"(?:years?|months?|weeks?|quarters?|releases?)|since\s+\S+|in\s+20\d\d|"
    r"本次|这个版本|过去一年|去年|今年|\d{4}\s*年",
    re.I,
)


# Prices by the year, and what they come to by the month.
_PER_MONTH = {
    "price per seat per year": ("price per seat per month", 1 / 12),
    "yearly price": ("price per month", 1 / 12),
    "price per seat per year (EUR)": ("price per seat per month (EUR)", 1 / 12),
    "yearly price (EUR)": ("price per month (EUR)", 1 / 12),
}
PRICE_TOLERANCE = 0.02  # a list price is set, not measured: $935.77 and $968.52 differ


def _quantity_conflict(a: Claim, b: Claim) -> str | None:
    if _periods(a.quote) != _periods(b.quote):
        return None  # 27 contributors to one release and 40 over a year can both be true
    x, y = _monthly(a), _monthly(b)
    if x is None or y is None:
        return "the two sources give different values" if a.value != b.value else None
    price = topic_of(a)[1].startswith(("price", "yearly price"))
    tolerance = PRICE_TOLERANCE if price else QUANTITY_TOLERANCE
    apart = abs(x - y) / max(abs(x), abs(y))
    if apart <= tolerance:
        return None
    if apart <= QUANTITY_TOLERANCE and (_rounds_to(x, y) or _rounds_to(y, x)):
        return None  # "about $1,000" and "$968.52"
    if price:
        return "the two sources give different prices"
    return "the two sources give figures that differ by more than 25%"


def _monthly(claim: Claim) -> float | None:
    number = _number(claim.value)
    if number is None:
        return None
    return number * _PER_MONTH.get(claim.attribute, (claim.attribute, 1.0))[1]


def _rounds_to(exact: float, rounded: float) -> bool:
    """Whether `rounded` is `exact` said roughly: "30k" for 30,412, "$1,000" for $968.
    A round figure stands for anything within half its last significant digit."""
    if rounded == 0 or rounded != round(rounded) or exact == rounded:
        return exact == rounded
    digits = len(str(int(abs(rounded)))) - len(str(int(abs(rounded))).rstrip("0"))
    if digits == 0:
        return False
    return abs(exact - rounded) <= 10**digits / 2


def _change_hint(what: str, fa: SourceFacts, fb: SourceFacts) -> str:
    if fa.published and fb.published and fa.published != fb.published:
        newer = fa if fa.published > fb.published else fb
        return (
            f"the sources disagree on the {what}; the newer one ({newer.site}, "
            f"{newer.published.isoformat()}) may report a change, so check the project's "
            "own current statement"
        )
    return f"the sources disagree on the {what} and neither is clearly newer"


def find_contradictions(claims: list[Claim], facts: dict[str, SourceFacts]) -> list[Contradiction]:
    """Typed facts that cannot both hold. Opposite stances are left to the sentence-level
    finder (statement_contradictions): one page praising an option's speed and another
    calling its setup painful share a dimension but not a point."""
    pairs: list[tuple[float, Claim, Claim, str]] = []
    for a, b in same_topic_pairs(claims):
        if a.kind != "fact":
            continue
        note = conflict(a, b, facts[a.source_id], facts[b.source_id])
        if note is None:
            continue
        # The strongest pair stands for the conflict; between equals, quotes that name the
        # option read best on their own.
        named = sum(contains_term(c.quote, c.option) for c in (a, b))
        pairs.append(
            (min(facts[a.source_id].strength, facts[b.source_id].strength) + named, a, b, note)
        )
    return _one_per_attribute(pairs, facts)


def same_topic_pairs(claims: list[Claim]) -> Iterator[tuple[Claim, Claim]]:
    """The pairs of claims on one topic, each in the order the claims come: the only pairs
    `conflict` can find to disagree, so the claims are compared within their topic rather
    than each with every other."""
    groups: dict[tuple, list[Claim]] = {}
    for claim in claims:
        groups.setdefault(topic_of(claim), []).append(claim)
    for members in groups.values():
        yield from combinations(members, 2)


def _one_per_attribute(
    pairs: list[tuple[float, Claim, Claim, str]], facts: dict[str, SourceFacts]
) -> list[Contradiction]:
    """Six pages giving four sizes are one disagreement about the size: the strongest pair
    stands for it, a page giving a's value joins a's side and any other value b's side."""
    found: dict[tuple, tuple[Contradiction, Claim, list[Claim]]] = {}
    # A page already on either side is not added again, nor is a claim already there.
    joined: dict[tuple, set[str]] = {}
    joined_sources: dict[tuple, set[str]] = {}
    for _, a, b, note in sorted(pairs, key=lambda p: (-p[0], p[1].id, p[2].id)):
        key = topic_of(a)
        if key not in found:
            found[key] = (_contradiction(len(found) + 1, a, b, note, facts), a, [a, b])
            joined[key], joined_sources[key] = {a.id, b.id}, {a.source_id, b.source_id}
            continue
        record, first, members = found[key]
        for claim in (a, b):
            if claim.id not in joined[key] and claim.source_id not in joined_sources[key]:
                members.append(claim)
                joined[key].add(claim.id)
                joined_sources[key].add(claim.source_id)
                side = ContradictionSide(
                    claim_id=claim.id, source_id=claim.source_id, quote=claim.quote
                )
                (record.a_also if claim.value == first.value else record.b_also).append(side)
    return [_with_values(record, members) for record, _, members in found.values()]


def _with_values(record: Contradiction, members: list[Claim]) -> Contradiction:
    values = list(dict.fromkeys(m.value for m in members))
    if len(values) > 2:
        record.note += f" Values reported: {', '.join(values)}."
    return record


def _contradiction(
    n: int, a: Claim, b: Claim, note: str, facts: dict[str, SourceFacts]
) -> Contradiction:
    fa, fb = facts[a.source_id], facts[b.source_id]
    said_a, said_b = readable_date(a.value), readable_date(b.value)
    text = f"{fa.site} ({fa.kind}) says {said_a}; {fb.site} ({fb.kind}) says {said_b}: {note}."
    if fa.published and fb.published and fa.published != fb.published and "newer" not in note:
        newer = fa if fa.published > fb.published else fb
        text += f" The newer page is {newer.site}'s ({newer.published.isoformat()})."
    cause, current = _cause(a, b, fa, fb)
    return Contradiction(
        id=f"x{n:02d}",
        option=a.option,
        attribute=a.attribute,
        dimension=a.dimension,
        a=ContradictionSide(claim_id=a.id, source_id=a.source_id, quote=a.quote),
        b=ContradictionSide(claim_id=b.id, source_id=b.source_id, quote=b.quote),
        note=text,
        cause=cause,
        current=current,
    )


CHANGE = re.compile(
    r"\b(?:switched|switching|switches|changed|changing|moved|moving|relicen[cs](?:ed|ing)|"
    r"migrated|migrating|no longer|now|since|as of|archived|deprecated|discontinued|"
    r"(?:will|is going to|plans to) (?:switch|move|change|relicen[cs]e))\b|"
    r"改为|改成|变更|转为|已经|不再|自.{1,8}起|将(?:改为|转为|切换)",
    re.I,
)


def _cause(a: Claim, b: Claim, fa: SourceFacts, fb: SourceFacts) -> tuple[str, str | None]:
    """Whether two sources differ in time (and which describes today), scope, or truth."""
    if fa.record != fb.record and a.kind == "fact":
        # A registry states the project as it is today: the page that differs is older.
        return "time", (a.id if fa.record else b.id)
    changed = [c for c in (a, b) if CHANGE.search(c.quote)]
    if len(changed) == 1:
        return "time", changed[0].id  # "switched to BSL in 2024" reports the change itself
    if a.kind == "fact" and fa.published and fb.published and fa.published != fb.published:
        return "time", (a.id if fa.published > fb.published else b.id)
    if _different_scopes(_VERSIONS, _without_licences(a.quote), _without_licences(b.quote)):
        return "scope", None
    return "error", None
