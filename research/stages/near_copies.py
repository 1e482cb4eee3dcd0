"""Which earlier candidates a candidate could be a near-copy of, without comparing it with
every one (the filter's near-copy rule, research.stages.filter).

Two texts are alike when difflib's ratio 2M/T is at least t (M characters in matching
blocks, T both lengths together). Those blocks are common substrings, in order, and
between two blocks at least one character of one text is unmatched, so there are at most
T - 2M + 1 of them; a block of s characters holds s - q + 1 shared q-grams. Two texts
alike at t = 0.9 therefore share at least 5M - 2T - 2 >= 0.25T - 2 trigrams (counting
each repeat of a trigram separately), and T is at least L / 0.55 for a text of L
characters, since the other cannot be much shorter. The classic prefix filter follows: put
every trigram in one order, rarest first; if two texts must share at least k, the first
n - k + 1 of each (of its n) share one. So each text is indexed by those first trigrams
only, and a pair that shares none of them cannot be alike. Same addresses are found by
their canonical form.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from research.artifacts import Candidate
from research.providers.urls import canonical_url

Q = 3
# The least ratio the rule calls alike, by field, and the shortest text it compares; a hair
# lower than the rule's own, so that no rounding can make the index miss a pair.
TITLE = (0.9 - 1e-9, 12)
SNIPPET = (0.9 - 1e-9, 60)

Token = tuple[str, int]  # a trigram and which repeat of it in the text


def grams(text: str) -> list[Token]:
    seen: Counter[str] = Counter()
    tokens = []
    for i in range(len(text) - Q + 1):
        gram = text[i : i + Q]
        seen[gram] += 1
        tokens.append((gram, seen[gram]))
    return tokens


def shared_at_least(length: int, ratio: float) -> int:
    """The fewest trigrams a text of `length` characters shares with any text it is alike
    with at `ratio` (0 when the bound says nothing)."""
    least_total = 2 * length / (2 - ratio)
    per_total = ratio * (2 * Q - 1) / 2 - (Q - 1)
    if per_total <= 0:
        return 0
    return max(0, math.floor(per_total * least_total - (Q - 1)))


class _Field:
    """The prefix index over one field (titles or snippets)."""

    def __init__(self, texts: Iterable[str], ratio: float, shortest: int) -> None:
        self.ratio, self.shortest = ratio, shortest
        self.df: Counter[Token] = Counter(t for text in texts for t in set(grams(text)))
        self.postings: dict[Token, list[int]] = {}

    def prefix(self, text: str) -> list[Token]:
        if len(text) < self.shortest:
            return []  # the rule does not compare texts this short
        tokens = sorted(grams(text), key=lambda t: (self.df.get(t, 0), t))
        keep = len(tokens) - shared_at_least(len(text), self.ratio) + 1
        return tokens[: max(0, keep)] if keep <= len(tokens) else tokens

    def add(self, n: int, text: str) -> None:
        for token in self.prefix(text):
            self.postings.setdefault(token, []).append(n)

    def matches(self, text: str) -> set[int]:
        found: set[int] = set()
        for token in self.prefix(text):
            found.update(self.postings.get(token, ()))
        return found


class NearCopyIndex:
    """The candidates added so far, by canonical address and by the first trigrams of their
    title and snippet (lower-cased and stripped, as the rule compares them)."""

    def __init__(self, every: list[Candidate]) -> None:
        self.urls: dict[str, list[int]] = {}
        self.titles = _Field((_plain(c.title) for c in every), *TITLE)
        self.snippets = _Field((_plain(c.snippet) for c in every), *SNIPPET)
        self.count = 0

    def add(self, candidate: Candidate) -> None:
        n, self.count = self.count, self.count + 1
        self.urls.setdefault(canonical_url(candidate.url), []).append(n)
        self.titles.add(n, _plain(candidate.title))
        self.snippets.add(n, _plain(candidate.snippet))

    def could_copy(self, candidate: Candidate) -> list[int]:
        """The positions, in the order they were added, of the candidates `candidate`
        could be a near-copy of: all others cannot be."""
        found = set(self.urls.get(canonical_url(candidate.url), ()))
        found |= self.titles.matches(_plain(candidate.title))
        found |= self.snippets.matches(_plain(candidate.snippet))
        return sorted(found)


def _plain(text: str) -> str:
    return text.strip().lower()
