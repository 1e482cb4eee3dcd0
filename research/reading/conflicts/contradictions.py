"""Contradictions between whole sentences (research.reading.conflicts.sentences) as round 4 records:
the statements each key point makes about each option it speaks of, and for each
disagreement found, a claim on either side."""

from __future__ import annotations

import re
from dataclasses import dataclass

from research.artifacts import (
    Claim,
    Contradiction,
    ContradictionSide,
    KeyPoint,
    Notes,
    Plan,
)
from research.reading.claims.reading import (
    NO_JUDGEMENT,
    Reading,
)
from research.reading.claims.stances import stance_hits
from research.reading.conflicts.cells import cell_says, cell_statement, row_key, table_cell
from research.reading.conflicts.facts import CHANGE, SourceFacts, stance_weight
from research.reading.conflicts.kinds import findings
from research.reading.conflicts.sentences import beaten, option_segments, topic_words
from research.reading.conflicts.statements import Conflict, Statement
from research.reading.keypoints import clean
from research.reading.lexicon import core_keywords
from research.reading.reader import Reader
from research.reading.text import has_cjk, term_pattern


def statement_contradictions(
    claims: list[Claim], typed_found: list[Contradiction], conflicts: list[Conflict]
) -> list[Contradiction]:
    """Disagreements no typed fact captures, found between whole sentences (`conflicts`,
    see research.reading.conflicts.sentences). Each side becomes a claim unless one is
    already there."""
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
            cell = table_cell(kp.header, kp.text, kp.quote)
            if cell is not None:
                # A row is read for its option's cell only, as the statement it makes.
                segments = {kp.option: cell_statement(kp.option, kp.header or "", cell)}
            else:
                segments = option_segments(kp.quote, plan.options) or {kp.option: ""}
            for option in plan.options:
                others = cell is None and option not in segments and option != kp.option
                if others and beaten(kp.quote, option):
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
                        stated=cell is not None
                        or not _states_nothing(reading)
                        or bool(findings(focus or kp.quote)),
                        named=option in about,
                        stance=stance,
                        row=row_key(kp.header or "") if cell is not None else "",
                        says=cell_says(cell) if cell is not None else None,
                    )
                )
    return statements


def _states_nothing(reading: Reading) -> bool:
    """Refused for what the sentence is (a heading, a question, another language, a part
    of the option), not merely for judging no dimension. A finding stated in a fragment
    ("• Reduced risk of non-fatal stroke" under "Key findings") is still stated: the
    caller keeps those."""
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
        row: str = "",
        says: str | None = None,
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
            strength=stance_weight(self.facts),
            words=topic_words(text, self.options),
            focus=focus,
            polarity=polarity,
            on_dimension=polarity is None and judges_dimension(text, kp.dimension),
            stated=stated,
            named=named,
            stance=stance,
            row=row,
            says=says,
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
