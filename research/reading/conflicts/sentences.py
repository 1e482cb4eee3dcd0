"""Contradictions between sentences that speak to the same point.

Typed facts (licences, versions, statuses) are compared attribute by attribute in
crosscheck. Most disagreements on real pages are not typed, though: "NATS has no
persistence" against "JetStream adds persistence to NATS", or "2.7x the memory" against
"27 times the memory". Two sentences from different sites are on the same point when they
share distinctive words (words rare among all the run's key points, so "the" or the
option's own name do not count). They contradict when, on that point:

- one denies what the other asserts (a negation just before a shared word);
- they judge it in opposite directions (stance words);
- they give different figures in the same unit.

Each contradiction says why the sources may differ: time (dates or years apart), scope or
data set (different versions, workloads or populations), or one source being wrong.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from research.reading.claims import stance_polarity
from research.reading.claims.scope import about_a_part
from research.reading.claims.topics import cue_pattern, named_points
from research.reading.conflicts.cells import answers_differ
from research.reading.conflicts.kinds import (
    beaten,
    denied_point,
    denied_surface,
    differing_outcome,
    opposed,
    opposite_label,
    results_differ,
)
from research.reading.conflicts.pairs import candidate_pairs, near_pairs
from research.reading.conflicts.sides import ALSO, best_per_point
from research.reading.conflicts.statements import Conflict, Statement
from research.reading.conflicts.words import GENERIC, stem, topic_words
from research.reading.text import first_mention, has_cjk, terms

__all__ = [
    "ALSO",
    "beaten",
    "figures",
    "find_conflicts",
    "near_conflicts",
    "option_segments",
    "topic_words",
]

_NUMBER_UNIT = re.compile(
    r"(?<![A-Za-z0-9.])(\d+(?:[.,]\d+)?)\s*(%|x\b|×|times\b|ms\b|s\b|kb\b|mb\b|gb\b|k\b|m\b|"
    r"million\b|msg/s|req/s|rps\b|万|倍|次)?",
    re.I,
)
_CURRENCY = re.compile(r"([$€£¥])\s?(\d+(?:[.,]\d+)?)")
_UNIT_FAMILY = {"x": "x", "×": "x", "times": "x", "倍": "x", "k": "k", "m": "M", "million": "M"}
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_VERSION = re.compile(
    r"(?<![A-Za-z0-9.])(?:v\d+(?:\.\d+)*|\d+\.\d+\.\d+)\b|\bversion\s?\d+(?:\.\d+)*", re.I
)
# Pairs of words that cannot both hold of one thing. Each side is a regular expression.
MIN_SHARED = 2.2  # summed rarity of the shared words (one rare word, or two middling ones)


def find_conflicts(statements: list[Statement]) -> list[Conflict]:
    rarity = _rarity(statements)
    found: list[Conflict] = []
    seen: set[frozenset[str]] = set()
    for i, j in _can_disagree(statements, rarity):
        a, b = statements[i], statements[j]
        pair = frozenset((a.quote, b.quote))
        if a.option != b.option or a.source_id == b.source_id or pair in seen or _asks(a, b):
            continue
        conflict = _judge(a, b, a.words & b.words, rarity)
        if conflict is not None:
            seen.add(pair)
            found.append(conflict)
    return best_per_point(found)


def _can_disagree(statements: list[Statement], rarity: dict[str, float]) -> list[tuple[int, int]]:
    """The pairs that can disagree, in order; no other pair can (research.stages.conflict_pairs)."""
    return candidate_pairs(
        statements,
        rarity,
        MIN_SHARED,
        [_verdict(s) for s in statements],
        [_reading(s) for s in statements],
        [dimension_named(s.text, s.dimension) for s in statements],
    )


NEAR_PER_CELL = 2  # near misses proposed per option and dimension


def near_conflicts(statements: list[Statement], limit: int) -> list[tuple[Statement, Statement]]:
    """Pairs this finder does not call a conflict but that speak to the same point, closest
    first: the ones a reader of meaning should judge. Words are what this finder compares,
    so it misses a point said in other words ("no persistence" against "a persistence layer"
    shares one word; an option's brand name shares none), dates said loosely ("early 2024"
    against "October 2024") and a figure in other units. A pair comes close by its shared
    rare words, by its dimension, by both sentences dating or measuring something, and by
    opposite tones; at most NEAR_PER_CELL per option and dimension, so one topic cannot
    take every place."""
    rarity = _rarity(statements)
    ranked: list[tuple[float, Statement, Statement]] = []
    seen: set[frozenset[str]] = set()
    # Only pairs that can come close (research.stages.conflict_pairs).
    close = near_pairs(
        statements,
        rarity,
        MIN_SHARED / 2,
        [bool(_YEAR.search(s.text)) for s in statements],
        [frozenset(f.unit for f in figures(s.text)) for s in statements],
        [_verdict(s) for s in statements],
    )
    for i, j in close:
        a, b = statements[i], statements[j]
        pair = frozenset((a.quote, b.quote))
        if a.option != b.option or a.site == b.site or pair in seen or _asks(a, b):
            continue
        closeness = _closeness(a, b, rarity)
        if closeness > 0:
            seen.add(pair)
            ranked.append((closeness, a, b))
    chosen: list[tuple[Statement, Statement]] = []
    cells: Counter[tuple[str, str | None]] = Counter()
    for _, a, b in sorted(ranked, key=lambda r: (-r[0], r[1].key, r[2].key)):
        cell = (a.option, a.dimension or b.dimension)
        if cells[cell] >= NEAR_PER_CELL or _judge(a, b, a.words & b.words, rarity) is not None:
            continue
        chosen.append((a, b))
        cells[cell] += 1
        if len(chosen) >= limit:
            break
    return chosen


def _closeness(a: Statement, b: Statement, rarity: dict[str, float]) -> float:
    """How likely two sentences speak to one point, 0 when nothing suggests it."""
    shared = sum(rarity.get(w, 0.0) for w in a.words & b.words)
    same_dimension = a.dimension is not None and a.dimension == b.dimension
    dated = bool(_YEAR.search(a.text) and _YEAR.search(b.text))
    measured = bool({f.unit for f in figures(a.text)} & {f.unit for f in figures(b.text)})
    tones = _verdict(a) * _verdict(b)
    hints = dated + measured + (tones < 0)
    if shared < MIN_SHARED / 2 and not (same_dimension and hints):
        return 0.0
    return shared + 1.5 * same_dimension + hints


def _asks(*statements: Statement) -> bool:
    """A question asserts nothing."""
    return any(s.quote.rstrip().endswith(("?", "？")) for s in statements)


_CLAUSE = re.compile(r"[;；,，、]\s*|\s+(?:and|while|whereas|but)\s+", re.I)


def option_segments(quote: str, options: list[str]) -> dict[str, str]:
    """For a sentence whose clauses have different options as subjects ("Svelte ships
    5KB, React 40KB"), the clauses about each option. A clause belongs to the option it
    opens with, or else to the one before: in "Kafka uses 54x the memory of NATS", NATS
    is the yardstick, not the subject."""
    parts: dict[str, list[str]] = {}
    subject = None
    for clause in _CLAUSE.split(quote):
        opening = [o for o in options if 0 <= first_mention(clause.strip(), o) <= 4]
        if len(opening) == 1:
            subject = opening[0]
        if subject is not None:
            parts.setdefault(subject, []).append(clause)
    return {o: " ".join(c) for o, c in parts.items()} if len(parts) >= 2 else {}


def _rarity(statements: list[Statement]) -> dict[str, float]:
    """Inverse document frequency of each word over the run's key points."""
    df = Counter(w for s in statements for w in s.words)
    n = max(1, len(statements))
    return {w: math.log(n / c) for w, c in df.items() if c <= max(4, n // 6)}


def _judge(
    a: Statement, b: Statement, shared: frozenset[str], rarity: dict[str, float]
) -> Conflict | None:
    shared_weight = sum(rarity.get(w, 0.0) for w in shared)
    why = _why(a, b, shared, shared_weight, rarity)
    if why is None:
        return None
    point = _named(why, a, b, shared, rarity)
    kind, note = _explain(a, b, why, point)
    # Rank by how much of both sentences the shared point is (cosine of their rare words),
    # so two long sentences that share boilerplate do not outrank a pointed disagreement.
    # A sentence's overall tone may not be about the shared point, so opposite stances
    # weigh less than a denial or a different figure.
    cosine = shared_weight / math.sqrt(_mass(a, rarity) * _mass(b, rarity) or 1.0)
    if why == "table":
        base = 2 * MIN_SHARED + 5  # the same row of two tables: the point is surely the same
    elif why == "verdict":
        base = MIN_SHARED
    else:
        base = min(shared_weight, 2 * MIN_SHARED) + 5 * cosine
    # A sentence that names the option itself is surer to be about it than one that
    # borrows it from a heading or the page.
    named = sum(first_mention(s.text, s.option) >= 0 for s in (a, b))
    weight = (
        base * (0.6 if why in ("stance", "verdict") else 1.0)
        + min(a.strength, b.strength) / 50
        + named
    )
    return Conflict(a, b, point, why, kind, note, weight)


def _named(
    why: str, a: Statement, b: Statement, shared: frozenset[str], rarity: dict[str, float]
) -> str:
    """What the two disagree about, in a short phrase from their own words: the point one
    denies, the outcome, the measure two ranks are on, the dimension judged; never a run
    of cut words."""
    if why == "table":
        return a.row
    if why == "negation":
        return denied_surface(a, b, rarity) or denied_surface(b, a, rarity) or ""
    if why == "opposites":
        outcome = differing_outcome(a.text, b.text)
        return outcome or opposite_label(a.text, b.text) or ""
    if why == "comparison":
        points = sorted(named_points(a.text) & named_points(b.text), key=len, reverse=True)
        return points[0] if points else (a.dimension or "")
    return a.dimension or ""


def _mass(statement: Statement, rarity: dict[str, float]) -> float:
    return sum(rarity.get(w, 0.0) for w in statement.words)


def _why(
    a: Statement, b: Statement, shared: frozenset[str], weight: float, rarity: dict[str, float]
) -> str | None:
    """Which way two statements on one option disagree about one point, named in both, or
    None. Sharing rare words is never enough: one must deny what the other states, or call
    it the opposite, or rank the option the other way on it, or judge the dimension itself
    the other way. Figures are compared as typed facts (research.reading.claims)."""
    if not (a.stated and b.stated) or a.site == b.site:
        return None
    if _about_a_part(a.text) != _about_a_part(b.text):
        return None  # "the 1.x branch is deprecated" does not deny "actively maintained"
    if a.row and a.row == b.row and answers_differ(a.says, b.says):
        return "table"  # "Result storage | No" against "Result storage | Yes"
    if denied_point(a, b, rarity) or denied_point(b, a, rarity):
        return "negation"
    if weight >= MIN_SHARED and opposed(a.text, b.text, shared, rarity):
        return "opposites"
    if results_differ(a.text, b.text):
        return "opposites"  # "a significant reduction in MI" against "a nonsignificant trend"
    if weight >= MIN_SHARED and (a.polarity is not None or b.polarity is not None):
        pa, pb = _verdict(a), _verdict(b)
        if pa and pb and pa != pb and _same_point(a, b):
            return "comparison"  # "lowest p99 latency" against "beating it at p99"
        return None
    same_dimension = a.dimension is not None and a.dimension == b.dimension
    if same_dimension and a.on_dimension and b.on_dimension:
        pa, pb = _reading(a), _reading(b)
        if pa and pb and pa != pb:
            return "verdict"  # "easy to learn" against "学习曲线陡峭", in any two languages
    return None


def _same_point(a: Statement, b: Statement) -> bool:
    """Both rank the option on one named point: the same words of a topic ("p99"), or
    words of the one dimension both are read on ("for beginners", "new to web
    development")."""
    if named_points(a.text) & named_points(b.text):
        return True
    same = a.dimension is not None and a.dimension == b.dimension
    return same and dimension_named(a.text, a.dimension) and dimension_named(b.text, b.dimension)


def _reading(statement: Statement) -> int:
    """The careful reader's stance on the statement's dimension, where it was read."""
    return statement.stance if statement.stance is not None else _verdict(statement)


_about_a_part = lru_cache(maxsize=8192)(about_a_part)


@lru_cache(maxsize=8192)
def _stance(text: str) -> int:
    # Every sentence meets every other: read each one's tone once.
    return stance_polarity(text)


def _verdict(statement: Statement) -> int:
    if statement.polarity is not None:
        return statement.polarity
    return _stance(statement.text)


@dataclass(frozen=True)
class Figure:
    unit: str
    value: float
    context: frozenset[str]  # the words just around the number: what it measures


@lru_cache(maxsize=8192)
def figures(quote: str) -> tuple[Figure, ...]:
    """Numbers with units ("38%", "2.7x", "$935.77", "500万") and the words around each.
    Years, versions and statistics' own furniture ("95% CI") are not figures."""
    text = _STATS.sub(" ", _YEAR.sub(" ", _VERSION.sub(" ", quote)))
    found = []
    for match in _CURRENCY.finditer(text):
        found.append(Figure(match.group(1), _float(match.group(2)), _around(text, match)))
    text = _CURRENCY.sub(lambda m: " " * len(m.group(0)), text)
    for match in _NUMBER_UNIT.finditer(text):
        if match.group(2):
            unit = _UNIT_FAMILY.get(match.group(2).lower(), match.group(2).lower())
            found.append(Figure(unit, _float(match.group(1)), _around(text, match)))
    return tuple(found)


_STATS = re.compile(r"\b9[059]\s?%\s?(?:CI|confidence)\b[^;)]*|\bp\s?[<=>]\s?0?\.\d+", re.I)
CONTEXT_CHARS = 40


def _around(text: str, match: re.Match[str]) -> frozenset[str]:
    window = text[max(0, match.start() - CONTEXT_CHARS) : match.end() + CONTEXT_CHARS // 2]
    return frozenset(stem(t) for t in terms(window) if t not in GENERIC and not t[0].isdigit())


def _float(text: str) -> float:
    return float(text.replace(",", ""))


def _explain(a: Statement, b: Statement, why: str, point: str) -> tuple[str, str]:
    what = {
        "figures": "they give different figures",
        "negation": "one states it, the other denies it",
        "table": f"{a.site}'s table answers “{_answer(a)}”, {b.site}'s “{_answer(b)}”",
        "opposites": "they describe it in opposite terms",
        "comparison": "one puts it ahead, the other behind",
        "verdict": "they judge this dimension in opposite directions",
        "stance": "they judge it in opposite directions",
    }[why]
    lead = (
        f"On “{point}”, {a.site} and {b.site} disagree: {what}. "
        f"{a.site}: “{gist(a.text)}”; {b.site}: “{gist(b.text)}”"
    )
    years = _YEAR.findall(a.quote), _YEAR.findall(b.quote)
    dates = a.published, b.published
    if dates[0] and dates[1] and abs((dates[0] - dates[1]).days) > 365:
        newer = a if dates[0] > dates[1] else b
        return "time", (
            f"{lead}. They were published {abs(dates[0].year - dates[1].year)} or more years "
            f"apart: likely a change over time; the newer one ({newer.site}, "
            f"{newer.published}) describes the current state."
        )
    if years[0] and years[1] and set(years[0]).isdisjoint(years[1]):
        later = a if max(years[0]) > max(years[1]) else b
        return "time", (
            f"{lead}. They speak of different years: likely a change over time; the one "
            f"speaking of {max(years[0] + years[1])} ({later.site}) is the newer."
        )
    if _scopes_differ(a.quote, b.quote):
        return "scope", (
            f"{lead}. They name different versions, setups or data sets: the difference may "
            "be one of scope, not an error."
        )
    stronger = a if a.strength >= b.strength else b
    return "error", (
        f"{lead}. Neither dates or scopes its statement, so the difference is unexplained: "
        f"one may be wrong or out of date. The stronger source is {stronger.site}."
    )


GIST_CHARS = 120


def gist(text: str) -> str:
    """What a side says, short enough for a note: cut at a word, never mid-word."""
    text = " ".join(text.split()).strip(" |")
    if len(text) <= GIST_CHARS:
        return text
    cut = text[:GIST_CHARS].rsplit(" ", 1)[0] if not has_cjk(text[:GIST_CHARS]) else text[:60]
    return cut.rstrip(",;:，；：") + "…"


def _answer(statement: Statement) -> str:
    return {"yes": "yes", "no": "no", "optional": "optional"}.get(statement.says or "", "")


def _scopes_differ(a: str, b: str) -> bool:
    va, vb = set(_VERSION.findall(a)), set(_VERSION.findall(b))
    return bool(va and vb and va.isdisjoint(vb))


def dimension_named(text: str, dimension: str | None) -> bool:
    pattern = cue_pattern(dimension) if dimension else None
    return bool(pattern and pattern.search(text))
