"""Which earlier candidates a candidate could be a near-copy of, without comparing it with
every one (the filter's near-copy rule, research.stages.filter).

Two texts are alike when difflib's ratio 2M/T is at least t, M being the characters in
matching blocks and T both lengths together. Those blocks are common substrings, so two
texts alike share at least M >= tT/2 characters (counting each repeat of a character
separately: the third "e" is a character of its own), and T is at least 2L / (2 - t) for a
text of L characters, since the other cannot be much shorter. The classic prefix filter
follows: put every character in one order, rarest first; if two texts must share at least
k, the first n - k + 1 of each (of its n) share one. So each text is indexed by those first
characters only, a pair that shares none of them cannot be alike, and neither can a pair
whose lengths are too far apart or that shares fewer than tT/2 characters. Same addresses
are found by their canonical form.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from research.artifacts import Candidate
from research.providers.urls import canonical_url

# The least ratio the rule calls alike, by field, and the shortest text it compares; a hair
# lower than the rule's own, so that no rounding can make the index miss a pair.
TITLE = (0.9 - 1e-9, 12)
SNIPPET = (0.9 - 1e-9, 60)

Token = tuple[str, int]  # a character and which repeat of it in the text


def grams(text: str) -> list[Token]:
    seen: Counter[str] = Counter()
    tokens = []
    for char in text:
        seen[char] += 1
        tokens.append((char, seen[char]))
    return tokens


def least_shared(total: int | float, ratio: float) -> int:
    """The fewest characters two texts alike at `ratio`, `total` characters between them,
    share."""
    return max(0, math.floor(ratio * total / 2))


def shared_at_least(length: int, ratio: float) -> int:
    """The fewest characters a text of `length` characters shares with any text it is
    alike with at `ratio`: the other is at least ratio / (2 - ratio) as long."""
    return least_shared(2 * length / (2 - ratio), ratio)


class _Field:
    """The prefix index over one field (titles or snippets)."""

    def __init__(self, texts: Iterable[str], ratio: float, shortest: int) -> None:
        self.ratio, self.shortest = ratio, shortest
        self.df: Counter[Token] = Counter(t for text in texts for t in set(grams(text)))
        self.postings: dict[Token, list[int]] = {}
        self.added: dict[int, tuple[int, frozenset[Token]]] = {}  # length, characters

    def prefix(self, text: str) -> list[Token]:
        if len(text) < self.shortest:
            return []  # the rule does not compare texts this short
        tokens = sorted(grams(text), key=lambda t: (self.df.get(t, 0), t))
        keep = len(tokens) - shared_at_least(len(text), self.ratio) + 1
        return tokens[: max(0, keep)] if keep <= len(tokens) else tokens

    def add(self, n: int, text: str) -> None:
        for token in self.prefix(text):
            self.postings.setdefault(token, []).append(n)
        self.added[n] = (len(text), frozenset(grams(text)))

    def matches(self, text: str) -> set[int]:
        """Those added that share a first character with `text`, are about as long and
        share as many characters as texts alike must."""
        found: set[int] = set()
        for token in self.prefix(text):
            found.update(self.postings.get(token, ()))
        length, tokens = len(text), frozenset(grams(text))
        return {
            n
            for n in found
            if 2 * min(length, self.added[n][0]) >= self.ratio * (length + self.added[n][0])
            and len(tokens & self.added[n][1])
            >= least_shared(length + self.added[n][0], self.ratio)
        }


class NearCopyIndex:
    """The candidates added so far, by canonical address and by the first characters of
    their title and snippet (lower-cased and stripped, as the rule compares them)."""

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
