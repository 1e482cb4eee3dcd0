"""Stage 4: claims from the notes, then consensus, contradictions and gaps between them."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from itertools import combinations
from typing import Protocol

from research.artifacts import (
    Claim,
    Consensus,
    Contradiction,
    ContradictionSide,
    Crosscheck,
    Gap,
    KeyPoint,
    Notes,
    Plan,
    SourceNotes,
)
from research.stages.claims import LICENCE_PATTERNS, Fact, extract, parse_number
from research.stages.claims.reading import (
    NO_JUDGEMENT,
    Point,
    Reading,
    options_spoken_of,
    read_stances,
)
from research.stages.claims.stances import stance_hits
from research.stages.claims.versions import PARTS_OF_YEAR, readable_date, same_release
from research.stages.conflicts import (
    Conflict,
    Statement,
    beaten,
    find_conflicts,
    option_segments,
    topic_words,
)
from research.stages.context import StageContext
from research.stages.keypoints import clean
from research.stages.lexicon import core_keywords
from research.stages.sourcekind import classify
from research.stages.text import contains_term, has_cjk, term_pattern
from research.stages.urls import registrable_domain

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


def source_facts(src: SourceNotes, options: list[str]) -> SourceFacts:
    kind = classify(src.url, src.title, options)
    return SourceFacts(
        registrable_domain(src.url),
        kind.kind,
        kind.strength,
        _date(src.published),
        own=kind.owner is not None,
    )


def _date(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


class Reviewer(Protocol):
    """A second reader of the same notes (the model, research.stages.llm_crosscheck): it
    sees the reader's claims and contradictions and returns them revised."""

    def review_claims(
        self,
        claims: list[Claim],
        points: list[tuple[SourceNotes, KeyPoint]],
        statements: list[Statement],
        conflicts: list[Conflict],
    ) -> list[Claim]: ...

    def review_contradictions(
        self, contradictions: list[Contradiction], claims: list[Claim]
    ) -> list[Contradiction]: ...


def cross_validate(
    plan: Plan,
    notes: Notes,
    pages: dict[str, str],
    ctx: StageContext,
    reviewer: Reviewer | None = None,
) -> Crosscheck:
    facts = {s.source_id: source_facts(s, plan.options) for s in notes.ok_sources()}
    points = readable_points(notes, pages, ctx)
    reader = Reader(plan, pages, {o: tuple(a) for o, a in notes.aliases.items()})
    claims = draw_claims(plan, points, ctx, reader)
    statements = conflict_statements(plan, notes, facts, reader)
    conflicts = find_conflicts(statements)
    if reviewer is not None:
        claims = reviewer.review_claims(claims, points, statements, conflicts)
    # A claim the stored text contradicts (flagged) is shown, never weighed.
    counted = [c for c in claims if c.flag is None]
    contradictions = find_contradictions(counted, facts)
    contradictions += statement_contradictions(claims, contradictions, conflicts)
    if reviewer is not None:
        contradictions = reviewer.review_contradictions(contradictions, claims)
    for c in contradictions:
        ctx.record(
            "contradiction",
            id=c.id,
            option=c.option,
            attribute=c.attribute,
            cause=c.cause,
            sides=[c.a.claim_id, c.b.claim_id],
            note=c.note,
        )
    counted = [c for c in claims if c.flag is None]
    consensus = without_contradicted(find_consensus(counted, facts), contradictions, claims)
    return Crosscheck(
        claims=claims,
        consensus=consensus,
        contradictions=contradictions,
        gaps=find_gaps(plan, counted),
    )


def readable_points(
    notes: Notes, pages: dict[str, str], ctx: StageContext
) -> list[tuple[SourceNotes, KeyPoint]]:
    """The key points about an option whose quote stands at its offset in the stored text:
    only those can be cited."""
    points = []
    for src in notes.ok_sources():
        stored = pages.get(src.source_id, "")
        for kp in src.key_points:
            if kp.option is None:
                continue
            if stored[kp.offset : kp.offset + len(kp.quote)] != kp.quote:
                ctx.record(
                    "quote_dropped",
                    source_id=src.source_id,
                    quote=kp.quote,
                    reason="not found at its offset in the stored text",
                )
                continue
            points.append((src, kp))
    return points


@dataclass(frozen=True)
class Reader:
    """The careful reader (research.stages.claims.reading) with what it needs to know of
    the run: the options and dimensions, the stored pages (what stands around a quote)
    and the other names the pages give the options."""

    plan: Plan
    pages: dict[str, str]
    aliases: dict[str, tuple[str, ...]]

    def stances(self, source_id: str, kp: KeyPoint) -> Reading:
        point = self._point(source_id, kp)
        dims = [d.name for d in self.plan.dimensions]
        return read_stances(point, self.plan.options, dims, self.aliases)

    def _point(self, source_id: str, kp: KeyPoint) -> Point:
        stored = self.pages.get(source_id, "")
        return Point(
            quote=kp.quote,
            option=kp.option,
            about="table" if kp.header and kp.polarity else (kp.about or "named"),
            polarity=kp.polarity,
            header=kp.header,
            before=stored[max(0, kp.offset - 80) : kp.offset],
            after=stored[kp.offset + len(kp.quote) : kp.offset + len(kp.quote) + 80],
            cell=_cell_of(kp),
        )

    def about(self, source_id: str, kp: KeyPoint) -> set[str]:
        """The options the key point speaks about, as the reader attributes it."""
        return options_spoken_of(self._point(source_id, kp), self.plan.options, self.aliases)


def _cell_of(kp: KeyPoint) -> str | None:
    """A table cell's text when the key point quotes its whole row ("header: cell" is its
    text); a pros/cons item quotes itself, and is read as a sentence."""
    if not kp.header or not kp.text.startswith(f"{clean(kp.header)}: "):
        return None
    cell = kp.text[len(clean(kp.header)) + 2 :]
    return None if cell == clean(kp.quote) else cell


def draw_claims(
    plan: Plan,
    points: list[tuple[SourceNotes, KeyPoint]],
    ctx: StageContext,
    reader: Reader | None = None,
) -> list[Claim]:
    dims = [d.name for d in plan.dimensions]
    reader = reader or Reader(plan, {}, {})
    claims: list[Claim] = []
    refused: dict[str, int] = {}
    for src, kp in points:
        reading = reader.stances(src.source_id, kp)
        if reading.refused and not reading.stances:
            refused[reading.refused] = refused.get(reading.refused, 0) + 1
        for fact in _facts_of(kp, dims, plan.options, ctx, src.source_id, reading):
            claims.append(
                Claim(
                    id=f"c{len(claims) + 1:03d}",
                    option=fact.option or kp.option or "",
                    dimension=fact.dimension,
                    attribute=fact.attribute,
                    kind=fact.kind,
                    value=fact.value,  # type: ignore[arg-type]
                    polarity=fact.polarity,
                    source_id=src.source_id,
                    quote=kp.quote,
                    offset=kp.offset,
                )
            )
    ctx.record(
        "claims_drawn",
        claims=len(claims),
        not_scored=refused,
        reason="a key point gives a stance only from a clause that names its option, "
        "speaks to a dimension and judges it",
    )
    return claims


# A status or licence said of one component or an old version is not the project's own.
_PROJECT_WIDE = ("maintenance", "licence", "latest_version")


def not_the_projects(attribute: str, scope: str | None, quote: str) -> bool:
    """A status, licence or latest version said of a component, an old version or the past
    (`scope`) is not the project's today, unless the sentence dates a change whose result
    holds today ("switched to BSL in 2024")."""
    return bool(scope) and attribute in _PROJECT_WIDE and not CHANGE.search(quote)


def _typed_facts(kp: KeyPoint, dims: list[str], options: list[str]) -> list[Fact]:
    """The key point's typed facts. A sentence about several options ("Svelte ships 5KB;
    React 40KB") gives each option the facts of its own clauses."""
    segments = option_segments(kp.quote, options)
    if not segments:
        return extract(kp.quote, dims, kp.dimension, options=options, stances=False)
    return [
        replace(fact, option=option)
        for option, focus in segments.items()
        for fact in extract(focus, dims, kp.dimension, options=options, stances=False)
    ]


def _facts_of(
    kp: KeyPoint,
    dims: list[str],
    options: list[str],
    ctx: StageContext,
    source_id: str,
    reading: Reading,
) -> list[Fact]:
    """The key point's typed facts (licences, versions, statuses, figures), then the
    stances the careful reader takes from it. A typed fact from a sentence that states
    nothing (a heading, a question) is kept, but judges nothing."""
    facts = []
    for fact in _typed_facts(kp, dims, options):
        if not_the_projects(fact.attribute, fact.scope, kp.quote):
            ctx.record(
                "claim_scoped_out",
                source_id=source_id,
                quote=kp.quote,
                attribute=fact.attribute,
                scope=fact.scope,
                reason="said of a component, an old version or the past, not the project today",
            )
            continue
        if reading.refused and fact.polarity and not reading.stances:
            fact = replace(fact, polarity=0)
        facts.append(fact)
    for stance in reading.stances:
        value = "positive" if stance.polarity > 0 else "negative"
        facts.append(
            Fact("stance", "stance", value, stance.polarity, stance.dimension, stance.option)
        )
    return facts


def _topic(claim: Claim) -> tuple[str, str, str | None]:
    # Stances are compared within a dimension; typed facts across the whole option.
    attribute = same_release(claim.attribute)
    return claim.option, attribute, claim.dimension if claim.kind == "stance" else None


def conflict(a: Claim, b: Claim, fa: SourceFacts, fb: SourceFacts) -> str | None:
    """Why two claims on the same topic cannot both be true, or None if they can."""
    if _topic(a) != _topic(b) or a.source_id == b.source_id or a.value == b.value:
        return None
    if a.kind == "stance":
        if abs(_stance_weight(fa) - _stance_weight(fb)) > COMPARABLE_STRENGTH:
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


def _periods(quote: str) -> set[str]:
    return {re.sub(r"\s+", " ", m.lower()) for m in _PERIOD.findall(quote)}


def _without_licences(quote: str) -> str:
    """Licence names carry numbers (Apache-2.0) that are not release versions."""
    for _, pattern in LICENCE_PATTERNS:
        quote = pattern.sub(" ", quote)
    return quote


def _different_scopes(pattern: re.Pattern[str], a: str, b: str) -> bool:
    """Both statements name a scope (versions, years) and the scopes do not overlap."""
    scope_a, scope_b = set(pattern.findall(a)), set(pattern.findall(b))
    return bool(scope_a and scope_b and not scope_a & scope_b)


def _stance_weight(facts: SourceFacts) -> float:
    # A project's own pages are primary for facts, but no better than a review when it
    # comes to judging itself.
    return min(facts.strength, 60.0) if facts.own else facts.strength


_PERIOD = re.compile(
    r"this (?:release|version|year|month)|(?:past|last|previous)\s+(?:\w+\s+)?"
    r"(?:years?|months?|weeks?|quarters?|releases?)|since\s+\S+|in\s+20\d\d|"
    r"本次|这个版本|过去一年|去年|今年|\d{4}\s*年",
    re.I,
)


def _quantity_conflict(a: Claim, b: Claim) -> str | None:
    if _periods(a.quote) != _periods(b.quote):
        return None  # 27 contributors to one release and 40 over a year can both be true
    x, y = parse_number(a.value), parse_number(b.value)
    if x is None or y is None:
        return "the two sources give different values" if a.value != b.value else None
    if abs(x - y) <= QUANTITY_TOLERANCE * max(abs(x), abs(y)):
        return None
    return "the two sources give figures that differ by more than 25%"


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
    for a, b in combinations(claims, 2):
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


def _one_per_attribute(
    pairs: list[tuple[float, Claim, Claim, str]], facts: dict[str, SourceFacts]
) -> list[Contradiction]:
    """Six pages giving four sizes are one disagreement about the size: the strongest pair
    stands for it, a page giving a's value joins a's side and any other value b's side."""
    found: dict[tuple, tuple[Contradiction, Claim, list[Claim]]] = {}
    for _, a, b, note in sorted(pairs, key=lambda p: (-p[0], p[1].id, p[2].id)):
        key = _topic(a)
        if key not in found:
            found[key] = (_contradiction(len(found) + 1, a, b, note, facts), a, [a, b])
            continue
        record, first, members = found[key]
        for claim in (a, b):
            if all(m.id != claim.id and m.source_id != claim.source_id for m in members):
                members.append(claim)
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
    changed = [c for c in (a, b) if CHANGE.search(c.quote)]
    if len(changed) == 1:
        return "time", changed[0].id  # "switched to BSL in 2024" reports the change itself
    if a.kind == "fact" and fa.published and fb.published and fa.published != fb.published:
        return "time", (a.id if fa.published > fb.published else b.id)
    if _different_scopes(_VERSIONS, _without_licences(a.quote), _without_licences(b.quote)):
        return "scope", None
    return "error", None


def statement_contradictions(
    claims: list[Claim], typed_found: list[Contradiction], conflicts: list[Conflict]
) -> list[Contradiction]:
    """Disagreements no typed fact captures, found between whole sentences (`conflicts`,
    see research.stages.conflicts). Each side becomes a claim unless one is already there."""
    numbered = len(typed_found)
    typed = {frozenset((c.a.quote, c.b.quote)) for c in typed_found}
    found = []
    for conflict in conflicts:
        if frozenset((conflict.a.quote, conflict.b.quote)) in typed:
            continue  # already a contradiction between typed facts of the same sentences
        a = _side_claim(conflict.a, conflict, claims)
        b = _side_claim(conflict.b, conflict, claims)
        current = _reported_change(conflict, a, b)
        found.append(
            Contradiction(
                id=f"x{numbered + len(found) + 1:02d}",
                option=conflict.a.option,
                attribute=conflict.attribute,
                dimension=conflict.a.dimension or conflict.b.dimension,
                a=ContradictionSide(claim_id=a.id, source_id=a.source_id, quote=a.quote),
                b=ContradictionSide(claim_id=b.id, source_id=b.source_id, quote=b.quote),
                a_also=[_side(s, conflict, claims) for s in conflict.a_also],
                b_also=[_side(s, conflict, claims) for s in conflict.b_also],
                note=_with_sides(conflict),
                cause=conflict.kind,  # type: ignore[arg-type]
                current=current,
            )
        )
    return found


def conflict_statements(
    plan: Plan, notes: Notes, facts: dict[str, SourceFacts], reader: Reader | None = None
) -> list[Statement]:
    reader = reader or Reader(plan, {}, {})
    statements = []
    for src in notes.ok_sources():
        at = _Origin(src.source_id, facts[src.source_id], plan.options)
        for i, kp in enumerate(src.key_points):
            if kp.option is None:
                continue
            reading = reader.stances(src.source_id, kp)
            about = reader.about(src.source_id, kp)
            segments = option_segments(kp.quote, plan.options) or {kp.option: ""}
            for option in plan.options:
                if option not in segments and option != kp.option and beaten(kp.quote, option):
                    statements.append(at.statement(kp, i, option, polarity=-1))
            for option, focus in segments.items():
                stance = next(
                    (
                        s.polarity
                        for s in reading.stances
                        if (s.option, s.dimension) == (option, kp.dimension)
                    ),
                    0,
                )
                statements.append(
                    at.statement(
                        kp,
                        i,
                        option,
                        focus=focus,
                        stated=not _states_nothing(reading),
                        named=option in about,
                        stance=stance,
                    )
                )
    return statements


def _states_nothing(reading: Reading) -> bool:
    """Refused for what the sentence is (a heading, a question, another language, a part
    of the option), not merely for judging no dimension."""
    return bool(reading.refused) and not reading.stances and reading.refused != NO_JUDGEMENT


@dataclass(frozen=True)
class _Origin:
    """Where a key point comes from, for the statements made of it."""

    source_id: str
    facts: SourceFacts
    options: list[str]

    def statement(
        self,
        kp: KeyPoint,
        i: int,
        option: str,
        focus: str = "",
        polarity: int | None = None,
        stated: bool = True,
        named: bool = True,
        stance: int | None = None,
    ) -> Statement:
        text = focus or kp.quote
        return Statement(
            key=f"{self.source_id}:{i}:{option}",
            option=option,
            dimension=kp.dimension,
            source_id=self.source_id,
            site=self.facts.site,
            published=self.facts.published,
            quote=kp.quote,
            offset=kp.offset,
            strength=_stance_weight(self.facts),
            words=topic_words(text, self.options),
            focus=focus,
            polarity=polarity,
            on_dimension=polarity is None and judges_dimension(text, kp.dimension),
            stated=stated,
            named=named,
            stance=stance,
        )


def judges_dimension(text: str, dimension: str | None) -> bool:
    """Whether the sentence judges the dimension by its own name: a judging word right
    by one of the dimension's own words ("easy to learn", "学习曲线相对陡峭")."""
    if dimension is None:
        return False
    names = [
        m.span()
        for w in core_keywords(dimension)
        for m in (re.finditer(re.escape(w), text) if has_cjk(w) else term_pattern(w).finditer(text))
    ]
    if not names:
        return False
    for hit in stance_hits(text):
        reach = 4 if has_cjk(text[hit.start : hit.end]) else 12
        if any(hit.start - reach <= end and start <= hit.end + reach for start, end in names):
            return True
    return False


def _reported_change(conflict: Conflict, a: Claim, b: Claim) -> str | None:
    """The side describing today, only when one sentence itself reports the change
    ("switched to", "no longer", "since 2.0"). A newer page that merely disagrees has not
    made an older critique obsolete, so a later date alone settles nothing."""
    if conflict.kind != "time":
        return None
    changed = [c for c in (a, b) if CHANGE.search(c.quote)]
    return changed[0].id if len(changed) == 1 else None


def _side(statement: Statement, conflict: Conflict, claims: list[Claim]) -> ContradictionSide:
    claim = _side_claim(statement, conflict, claims)
    return ContradictionSide(claim_id=claim.id, source_id=claim.source_id, quote=claim.quote)


def _with_sides(conflict: Conflict) -> str:
    a, b = 1 + len(conflict.a_also), 1 + len(conflict.b_also)
    if a == b == 1:
        return conflict.note
    return f"{conflict.note} Pages on each side: {a} and {b}."


def _side_claim(side: Statement, conflict: Conflict, claims: list[Claim]) -> Claim:
    return side_claim(
        side.source_id,
        side.offset,
        side.option,
        side.dimension,
        side.quote,
        conflict.attribute,
        claims,
    )


def side_claim(
    source_id: str,
    offset: int,
    option: str,
    dimension: str | None,
    quote: str,
    point: str,
    claims: list[Claim],
) -> Claim:
    """The claim a key point makes about `option`, to stand on one side of a contradiction
    about `point`: the one already drawn (never a flagged one, which is not weighed), or a
    new statement claim, appended to `claims`."""
    for claim in claims:
        if claim.flag is None and (claim.source_id, claim.offset, claim.option) == (
            source_id,
            offset,
            option,
        ):
            return claim
    claim = Claim(
        id=f"c{len(claims) + 1:03d}",
        option=option,
        dimension=dimension,
        attribute=point,
        kind="statement",
        value=clean(quote)[:160],
        polarity=0,
        source_id=source_id,
        quote=quote,
        offset=offset,
    )
    claims.append(claim)
    return claim


def without_contradicted(
    consensus: list[Consensus], contradictions: list[Contradiction], claims: list[Claim]
) -> list[Consensus]:
    """One fact is never both agreed and disputed: a consensus loses its place when one of
    its claims, or its typed attribute for that option, is part of a contradiction."""
    disputed_claims = {c.a.claim_id for c in contradictions} | {
        c.b.claim_id for c in contradictions
    }
    by_id = {c.id: c for c in claims}
    disputed_topics = {
        (c.option, c.attribute)
        for c in contradictions
        if by_id.get(c.a.claim_id) is not None and by_id[c.a.claim_id].kind == "fact"
    }
    return [
        k
        for k in consensus
        if not (set(k.claim_ids) & disputed_claims)
        and (k.option, k.attribute) not in disputed_topics
    ]


def find_consensus(claims: list[Claim], facts: dict[str, SourceFacts]) -> list[Consensus]:
    groups: dict[tuple, list[Claim]] = {}
    for claim in claims:
        groups.setdefault((*_topic(claim), claim.value), []).append(claim)
    found = []
    for (option, attribute, dimension, value), members in groups.items():
        sites = sorted({facts[c.source_id].site for c in members})
        if len(sites) >= 2:
            found.append(
                Consensus(
                    id=f"k{len(found) + 1:02d}",
                    option=option,
                    attribute=attribute,
                    dimension=dimension or members[0].dimension,
                    value=value,
                    claim_ids=[c.id for c in members],
                    source_ids=sorted({c.source_id for c in members}),
                    sites=sites,
                )
            )
    return found


def find_gaps(plan: Plan, claims: list[Claim]) -> list[Gap]:
    covered = {(c.option, c.dimension) for c in claims}
    return [
        Gap(option=o, dimension=d.name, note=f"no claim about {o} on {d.name}")
        for o in plan.options
        for d in plan.dimensions
        if (o, d.name) not in covered
    ]
