"""The careful reader: the stances one sentence takes, each on one option and dimension.

A stance is read only from a clause that
- is about its option: names it as more than a yardstick or an example, opens with a
  pronoun after a sentence about it, or sits in its table column or pros/cons list;
- speaks to the dimension: one of the dimension's cues (topics.py) in the same clause;
- judges it: an evaluative word, a comparison, a result against a reference, or a
  verdict the dimension's own words make ("open source" on a licence).
Anything less is a statement: quotable, never scored. A judging word counts for the
dimension whose cue stands next to it, so "fast, with a steep learning curve" is good on
speed and bad on learning; a sentence that praises and faults one dimension ("fast, but
complex queries are slow") takes no stance on it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from research.reading.claims.clauses import (
    HEADING,
    NAMED,
    PAGE,
    PARAGRAPH,
    PRONOUN,
    TABLE,
    Clause,
    Point,
    clauses_of,
    masked,
    mentions,
)
from research.reading.claims.comparisons import compare
from research.reading.claims.gate import foreign, not_a_statement
from research.reading.claims.hedges import no_judgement
from research.reading.claims.scope import scope_of
from research.reading.claims.sureness import THRESHOLD, sureness
from research.reading.claims.topics import cue_pattern
from research.reading.claims.verdicts import cue_hits, dims_of, signs, turned, verdict_hits

__all__ = [
    "HEADING",
    "NAMED",
    "NO_JUDGEMENT",
    "PAGE",
    "PARAGRAPH",
    "PRONOUN",
    "TABLE",
    "Point",
    "Reading",
    "Stance",
    "options_spoken_of",
    "read_stances",
]

_OUT_OF_SCOPE = ("component", "old version", "past")
NO_JUDGEMENT = "no judgement on a dimension"


@dataclass(frozen=True)
class Stance:
    option: str
    dimension: str
    polarity: int
    confidence: float = 1.0  # how sure the reader is (sureness.py)


@dataclass(frozen=True)
class Reading:
    stances: tuple[Stance, ...] = ()
    refused: str | None = None  # why the sentence takes no stance, when it takes none
    unsure: tuple[Stance, ...] = ()  # read, but below the threshold: quoted, never scored


def read_stances(
    point: Point,
    options: Sequence[str],
    dimensions: Sequence[str],
    aliases: dict[str, tuple[str, ...]] | None = None,
    threshold: float = THRESHOLD,
) -> Reading:
    """The stances the point takes at or above the threshold of sureness, or why it
    takes none."""
    aliases = aliases or {}
    reading = _read(point, options, dimensions, aliases)
    if not reading.stances:
        return reading
    ranked = bool(compare(point.quote, list(options)))
    cells = len(reading.stances)
    weighed = [
        replace(s, confidence=sureness(point, s.option, cells, options, aliases, ranked))
        for s in reading.stances
    ]
    sure = tuple(s for s in weighed if s.confidence >= threshold)
    unsure = tuple(s for s in weighed if s.confidence < threshold)
    refused = None if sure else f"not sure enough (below {threshold:.2f})"
    return Reading(stances=sure, refused=refused, unsure=unsure)


def _read(
    point: Point, options: Sequence[str], dimensions: Sequence[str], aliases: dict
) -> Reading:
    quote = point.quote
    if point.about != TABLE:
        reason = not_a_statement(quote, point.before, point.after) or no_judgement(quote)
        if reason:
            return Reading(refused=reason)
    if foreign(quote):
        return Reading(refused="not in a language the reader reads")
    scope = _out_of_scope(quote, options, aliases)
    if scope and not _clauses_in_scope(point, options, aliases):
        return Reading(refused=f"about {scope}")
    if point.about == TABLE and point.cell is not None:
        return _table_reading(point, dimensions)
    ranked = _ranked(quote, options, dimensions, aliases)
    if ranked:
        return Reading(stances=ranked)
    found: dict[tuple[str, str], list[int]] = {}
    for verdicts in _verdicts_by_clause(
        clauses_of(point, options, aliases), options, dimensions, aliases
    ):
        for (option, dim), sign in verdicts.items():
            found.setdefault((option, dim), []).append(sign)
    if not found and point.about == TABLE and point.option and point.polarity:
        found = {(point.option, d): [point.polarity] for d in _dims_named(quote, dimensions)}
    stances = tuple(
        Stance(option, dimension, signs[0])
        for (option, dimension), signs in found.items()
        if len(set(signs)) == 1  # praised and faulted in one sentence: mixed, no stance
    )
    return Reading(stances=stances, refused=None if stances else NO_JUDGEMENT)


def _verdicts_by_clause(
    clauses: list[Clause], options: Sequence[str], dimensions: Sequence[str], aliases: dict
) -> list[dict[tuple[str, str], int]]:
    """Each clause's verdicts. Judging words that stand by no cue take the one dimension
    of the clause a "but" sets them against: "easy at first, but a burden later" and
    "updates efficiently, but re-renders cost performance" are mixed."""
    read = [_clause_verdicts(c, options, dimensions, aliases) for c in clauses]
    verdicts = [v for v, _ in read]
    for i, clause in enumerate(clauses):
        loose = read[i][1]
        if verdicts[i] or not loose:
            continue
        for j in (i - 1, i + 1):
            if not 0 <= j < len(clauses):
                continue
            dims = {d for _, d in verdicts[j]}
            same_subject = clauses[j].subjects == clause.subjects
            if clauses[max(i, j)].contrast and same_subject and len(dims) == 1:
                sign = 1 if loose > 0 else -1
                verdicts[i] = {(o, next(iter(dims))): sign for o in clause.subjects}
                break
    return verdicts


def _ranked(
    quote: str, options: Sequence[str], dimensions: Sequence[str], aliases: dict
) -> tuple[Stance, ...]:
    """A sentence that ranks options against each other on one dimension ("X, not Y, is
    the better choice for beginners", "X is faster than Y")."""
    ranked = compare(quote, list(options))
    if not ranked:
        return ()
    dims = dims_of(cue_hits(masked(quote, options, aliases), dimensions))
    if len(dims) != 1:
        return ()
    return tuple(Stance(o, dims[0], p) for o, p in ranked.items())


def options_spoken_of(
    point: Point, options: Sequence[str], aliases: dict[str, tuple[str, ...]] | None = None
) -> set[str]:
    """The options the point speaks about as the reader attributes clauses: named as more
    than a yardstick, pointed back to, or in a table column or list of it."""
    aliases = aliases or {}
    if point.about == TABLE and point.option:
        return {point.option}
    found = set(compare(point.quote, list(options)))
    for clause in clauses_of(point, options, aliases):
        found.update(clause.subjects)
        found.update(clause.rivals)
    return found


def _out_of_scope(text: str, options: Sequence[str], aliases: dict) -> str | None:
    """What makes a text about something other than the option today: one of its parts,
    an old version, the past, or another product it runs with ("clusters with ZooKeeper")."""
    scope = scope_of(text)
    if scope and scope.split(":")[0] in _OUT_OF_SCOPE:
        return scope
    for match in _WITH_PRODUCT.finditer(text):
        if not mentions(match.group(1), options, aliases):
            return f"another product: {match.group(1)}"
    return None


def _clauses_in_scope(point: Point, options: Sequence[str], aliases: dict) -> bool:
    """Whether some clause of the point is about the option today ("was once slow, but it
    is now the fastest": the second clause is)."""
    clauses = clauses_of(point, options, aliases)
    return len(clauses) > 1 and any(not _out_of_scope(c.text, options, aliases) for c in clauses)


# "with ZooKeeper", "on top of PostgreSQL": a product named in CamelCase beside the option.
_WITH_PRODUCT = re.compile(
    r"\b(?:clusters?|setups?|deployments?|installations?|mode|versions?|configurations?|"
    r"running|backed|built|bottlenecks?|limitations?|problems?|issues?|trouble)\s+"
    r"(?:with|on top of|alongside|on|by|in)\s+([A-Z][a-z]+(?:[A-Z][A-Za-z]*)?)\b"
)


def _table_reading(point: Point, dimensions: Sequence[str]) -> Reading:
    """A table cell: its column's option, the dimension its row names, its verdict. A cell
    whose own words praise and fault ("very fast, large runtime") gives none."""
    cell = point.cell or ""
    dims = _dims_named(point.header or "", dimensions) or _dims_named(cell, dimensions)
    if len(dims) != 1 or not point.option:
        return Reading(refused=NO_JUDGEMENT)
    polarity = point.polarity or _cell_verdict(cell, dims[0], dimensions)
    if not polarity:
        return Reading(refused=NO_JUDGEMENT)
    return Reading(stances=(Stance(point.option, dims[0], polarity),))


def _cell_verdict(cell: str, dimension: str, dimensions: Sequence[str]) -> int:
    """What a cell's own words judge on its row's dimension ("Always persistent")."""
    total = sum(
        w * turned(cell, s, e) for s, e, w, d in verdict_hits(cell, dimensions) if d == dimension
    )
    return (total > 0) - (total < 0)


def _dims_named(text: str, dimensions: Sequence[str]) -> list[str]:
    return [d for d in dimensions if (p := cue_pattern(d)) is not None and p.search(text)]


def _clause_verdicts(
    clause: Clause, options: Sequence[str], dimensions: Sequence[str], aliases: dict
) -> tuple[dict[tuple[str, str], int], float]:
    """({(option, dimension): sign} for what the clause judges, the verdict of its judging
    words that stand by no cue)."""
    if (not clause.subjects and not clause.rivals) or clause.aside:
        return {}, 0.0
    if _out_of_scope(clause.text, options, aliases):
        return {}, 0.0
    text = masked(clause.text, options, aliases)
    cues = cue_hits(text, dimensions)
    ranked = compare(clause.text, list(options))
    if ranked:
        dims = dims_of(cues)
        return ({(o, dims[0]): p for o, p in ranked.items()} if len(dims) == 1 else {}), 0.0
    totals, loose = signs(text, cues, dimensions)
    sign_of = {d: (1 if t > 0 else -1) for d, t in totals.items() if abs(t) >= 0.5}
    verdicts = {(o, d): s for d, s in sign_of.items() for o in clause.subjects}
    # "A lighter alternative to X": what the alternative is praised for, X lacks.
    for rival in clause.rivals:
        for d, s in sign_of.items():
            verdicts.setdefault((rival, d), -s)
    return verdicts, loose
