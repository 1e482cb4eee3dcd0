"""Stage 4: claims from the notes, then consensus, contradictions and gaps between them."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from research.artifacts import (
    Claim,
    Consensus,
    Contradiction,
    Crosscheck,
    Gap,
    KeyPoint,
    Notes,
    Plan,
    SourceNotes,
)
from research.context import StageContext
from research.reading import (
    CHANGE,
    THRESHOLD,
    Conflict,
    Fact,
    Reader,
    Reading,
    SourceFacts,
    Statement,
    conflict_statements,
    extract,
    find_conflicts,
    find_contradictions,
    option_segments,
    source_facts,
    statement_contradictions,
    topic_of,
)
from research.stages.records import record_claims


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
    # A record's facts are claims as they stand; only its other text is read for more.
    read = [(src, kp) for src, kp in points if not _record_line(src, kp)]
    claims = draw_claims(plan, read, ctx, reader)
    claims += record_facts(plan, notes, pages, len(claims) + 1, ctx)
    statements = conflict_statements(plan, notes, facts, reader)
    conflicts = find_conflicts(statements)
    if reviewer is not None:
        claims = reviewer.review_claims(claims, points, statements, conflicts)
    claims = one_reading_per_cell(claims, ctx)
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


def one_reading_per_cell(claims: list[Claim], ctx: StageContext) -> list[Claim]:
    """One sentence is scored at most once on one option and dimension. When its readings
    there agree, the first is scored and the others are kept as quotes; when they disagree
    (a typed fact and a stance, or the model and the rules), the sentence is mixed on that
    cell and none of them is scored. The log says which, and why."""
    first: dict[tuple, Claim] = {}
    for claim in claims:
        if claim.polarity and claim.dimension and claim.flag is None:
            first.setdefault(_cell_key(claim), claim)
    signs: dict[tuple, set[int]] = {}
    for claim in claims:
        if claim.polarity and claim.dimension and claim.flag is None:
            signs.setdefault(_cell_key(claim), set()).add(claim.polarity)
    kept = []
    for claim in claims:
        key = _cell_key(claim)
        if key not in first or first[key] is claim:
            kept.append(claim if len(signs.get(key, ())) < 2 else _mixed(claim, ctx))
            continue
        if claim.polarity and claim.flag is None:
            if len(signs[key]) > 1:
                claim = _mixed(claim, ctx)
            else:
                ctx.record(
                    "claim_not_scored",
                    claim_id=claim.id,
                    scored_as=first[key].id,
                    reason="the same sentence is already scored on this option and dimension",
                )
                claim = claim.model_copy(update={"polarity": 0})
        kept.append(claim)
    return kept


def _cell_key(claim: Claim) -> tuple:
    return (claim.source_id, claim.offset, claim.quote, claim.option, claim.dimension)


def _mixed(claim: Claim, ctx: StageContext) -> Claim:
    ctx.record(
        "claim_mixed",
        claim_id=claim.id,
        option=claim.option,
        dimension=claim.dimension,
        read_by=claim.read_by,
        reason="readers of this sentence disagree on this option and dimension: mixed, not scored",
    )
    update: dict = {"polarity": 0}
    if claim.kind == "stance":
        update["value"] = "mixed"
    return claim.model_copy(update=update)


def _record_line(src: SourceNotes, kp: KeyPoint) -> bool:
    return any(f.quote == kp.quote and f.offset == kp.offset for f in src.facts)


def record_facts(
    plan: Plan, notes: Notes, pages: dict[str, str], first_id: int, ctx: StageContext
) -> list[Claim]:
    """The typed facts of the primary sources' records, as claims quoting their lines."""
    claims: list[Claim] = []
    for src in notes.ok_sources():
        if not src.facts:
            continue
        stored = pages.get(src.source_id, "")
        for claim in record_claims(plan, src, first_id + len(claims)):
            if stored[claim.offset : claim.offset + len(claim.quote)] == claim.quote:
                claims.append(claim.model_copy(update={"id": f"c{first_id + len(claims):03d}"}))
    if claims:
        ctx.record(
            "record_claims",
            claims=len(claims),
            reason="a registry's or database's typed facts, each quoting its line of the record",
        )
    return claims


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
    unsure: list[str] = []
    typed: set[tuple[str, int]] = set()  # sentences whose typed facts are drawn
    for src, kp in points:
        if kp.origin == "model":
            facts = _read_by_model(src.source_id, kp, dims, plan.options, ctx, typed, unsure)
        else:
            reading = reader.stances(src.source_id, kp)
            if reading.refused and not reading.stances:
                refused[reading.refused] = refused.get(reading.refused, 0) + 1
            facts = _facts_of(kp, dims, plan.options, ctx, src.source_id, reading)
            unsure += [f"{s.option} / {s.dimension} ({s.confidence:.2f})" for s in reading.unsure]
        for fact in facts:
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
                    confidence=fact.confidence,
                    origin="model" if kp.origin == "model" and fact.kind == "stance" else "reader",
                )
            )
    ctx.record(
        "claims_drawn",
        claims=len(claims),
        not_scored=refused,
        unsure=unsure,
        reason="a key point gives a stance only from a clause that names its option, "
        "speaks to a dimension and judges it, and only when the reader is sure enough",
    )
    return claims


def _read_by_model(
    source_id: str,
    kp: KeyPoint,
    dims: list[str],
    options: list[str],
    ctx: StageContext,
    typed: set[tuple[str, int]],
    unsure: list[str],
) -> list[Fact]:
    """A sentence the model read: the rules draw its typed facts (once, however many of
    the model's readings it carries) as values to compare, never a score; the model's
    reading is its only scored claim, when the model is at least as sure as the reader
    must be (THRESHOLD)."""
    facts: list[Fact] = []
    if (source_id, kp.offset) not in typed:
        typed.add((source_id, kp.offset))
        for fact in _typed_facts(kp, dims, options):
            if not_the_projects(fact.attribute, fact.scope, kp.quote):
                continue
            facts.append(replace(fact, polarity=0))
    if kp.polarity not in (1, -1) or not kp.dimension:
        return facts
    confidence = 1.0 if kp.confidence is None else kp.confidence
    if confidence < THRESHOLD:
        unsure.append(f"{kp.option} / {kp.dimension} ({confidence:.2f}, the model)")
        return facts
    value = "positive" if kp.polarity > 0 else "negative"
    stance = Fact("stance", "stance", value, kp.polarity, kp.dimension, kp.option)
    return [*facts, replace(stance, confidence=confidence)]


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
            Fact(
                "stance",
                "stance",
                value,
                stance.polarity,
                stance.dimension,
                stance.option,
                confidence=stance.confidence,
            )
        )
    return facts


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
        groups.setdefault((*topic_of(claim), claim.value), []).append(claim)
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
