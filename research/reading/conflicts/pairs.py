"""Which pairs of statements the sentence finder (research.reading.conflicts.sentences)
compares: only those that can disagree, found through an index instead of every pair.

Two statements disagree only about one option, when both state something, and in one of
five ways, each of which needs something both sentences hold:

- a denial: the first word of a point one denies is a word (or, in Chinese, a run of
  characters) of the other;
- opposite terms: both use a pair of opposite terms, and they share rare words weighing
  at least MIN_SHARED;
- a finding on one outcome: both name that outcome;
- two tables' answers on one row: both are cells of rows with the same label;
- a ranking: different verdicts on a named point (or on their dimension, named in both),
  and rare words weighing at least MIN_SHARED in common;
- a verdict on the dimension: both read on it, with different stances.

Rare words weighing at least MIN_SHARED are found with a prefix filter: put every word in
one order, rarest first, and drop from each statement the longest tail of its words that
weighs less than MIN_SHARED. Two statements sharing that weight share a word before both
tails (the first shared word in that order), so each is indexed by the words before its
tail only.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from itertools import combinations, product

from research.reading.claims.topics import named_points
from research.reading.conflicts.kinds import denied_phrases_of, findings, opposite_terms
from research.reading.conflicts.statements import Statement
from research.reading.conflicts.words import stem
from research.reading.text import has_cjk

SLACK = 1e-9  # the weights are sums of floats: a tail is dropped only when surely light


def candidate_pairs(
    statements: Sequence[Statement],
    rarity: dict[str, float],
    least_shared: float,
    verdicts: Sequence[int],
    readings: Sequence[int],
    dimension_named: Sequence[bool],
) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, in order, of `statements` that can disagree. `verdicts`,
    `readings` and `dimension_named` are each statement's, as the finder reads them."""
    buckets: dict[Hashable, list[int]] = {}
    opposite: dict[Hashable, dict[int, list[int]]] = {}
    deniers: list[tuple[int, str]] = []
    for n, s in enumerate(statements):
        if not s.stated:
            continue  # only statements disagree
        text = s.text
        rare = prefix(s.words, rarity, least_shared)
        for word in _stated_words(text):
            buckets.setdefault((s.option, "word", word), []).append(n)
        deniers.extend((n, phrase[0]) for phrase in denied_phrases_of(s))
        for p in opposite_terms(text):
            for word in rare:
                buckets.setdefault((s.option, "terms", p, word), []).append(n)
        for outcome in findings(text):
            buckets.setdefault((s.option, "outcome", outcome), []).append(n)
        if s.says is not None:
            buckets.setdefault((s.option, "row", s.row), []).append(n)
        if verdicts[n]:
            points = [("point", p) for p in named_points(text)]
            if s.dimension is not None and dimension_named[n]:
                points.append(("dimension", s.dimension))
            for point, word in product(points, rare):
                opposite.setdefault((s.option, "rank", point, word), {}).setdefault(
                    verdicts[n], []
                ).append(n)
        if s.on_dimension and s.dimension is not None and readings[n]:
            opposite.setdefault((s.option, "verdict", s.dimension), {}).setdefault(
                readings[n], []
            ).append(n)
    pairs: set[tuple[int, int]] = set()
    for key, members in buckets.items():
        if key[1] != "word":
            pairs.update(combinations(members, 2))
    for sides in opposite.values():
        for ups, downs in combinations(sides.values(), 2):
            pairs.update((min(a, b), max(a, b)) for a in ups for b in downs)
    pairs.update(_denial_pairs(statements, deniers, buckets))
    return sorted(pairs)


def near_pairs(
    statements: Sequence[Statement],
    rarity: dict[str, float],
    least_shared: float,
    dated: Sequence[bool],
    units: Sequence[frozenset[str]],
    tones: Sequence[int],
) -> list[tuple[int, int]]:
    """The pairs (i, j), i < j, in order, that may speak to one point (the near misses of
    research.reading.conflicts.sentences): rare words weighing `least_shared` in common, or one
    dimension and a hint (both dated, a unit in common, opposite tones)."""
    buckets: dict[Hashable, list[int]] = {}
    tone: dict[Hashable, tuple[list[int], list[int]]] = {}
    for n, s in enumerate(statements):
        for word in prefix(s.words, rarity, least_shared):
            buckets.setdefault((s.option, "word", word), []).append(n)
        if s.dimension is None:
            continue
        cell = (s.option, s.dimension)
        if dated[n]:
            buckets.setdefault((*cell, "dated"), []).append(n)
        for unit in units[n]:
            buckets.setdefault((*cell, "unit", unit), []).append(n)
        if tones[n]:
            ups, downs = tone.setdefault(cell, ([], []))
            (ups if tones[n] > 0 else downs).append(n)
    pairs = {pair for members in buckets.values() for pair in combinations(members, 2)}
    for ups, downs in tone.values():
        pairs.update((min(a, b), max(a, b)) for a in ups for b in downs)
    return sorted(pairs)


def prefix(words: frozenset[str], rarity: dict[str, float], least: float) -> list[str]:
    """The statement's rare words, rarest first, less the longest tail lighter than
    `least`: any set of words weighing `least` includes one of these."""
    rare = sorted((w for w in words if rarity.get(w, 0.0) > 0), key=lambda w: (-rarity[w], w))
    tail = 0.0
    keep = len(rare)
    while keep and tail + rarity[rare[keep - 1]] < least - SLACK:
        keep -= 1
        tail += rarity[rare[keep]]
    return rare[:keep]


def _stated_words(text: str) -> set[str]:
    """The words a denial of the same point would have to find in this text."""
    return {stem(w) for w in re.findall(r"[a-z0-9][\w'-]*", text.lower())}


def _denial_pairs(
    statements: Sequence[Statement],
    deniers: list[tuple[int, str]],
    buckets: dict[Hashable, list[int]],
) -> set[tuple[int, int]]:
    """Each statement denying a point, with those of its option that say the point's first
    word (or, for a Chinese point, hold its characters)."""
    pairs = set()
    for n, first in deniers:
        option = statements[n].option
        if has_cjk(first):
            stating = [
                m
                for m, s in enumerate(statements)
                if s.option == option and s.stated and first in s.text
            ]
        else:
            stating = buckets.get((option, "word", first), [])
        pairs.update((min(n, m), max(n, m)) for m in stating if m != n)
    return pairs
