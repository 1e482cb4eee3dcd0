"""Where a text names an option: the full name, or the distinctive last word of a longer
name ("Kafka" for "Apache Kafka")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from research.stages.text import contains_term, has_cjk, term_pattern

# Last words too generic to stand for the option on their own.
_GENERIC = frozenset(
    """framework frameworks library server client database engine platform project system
    service cloud studio suite toolkit manager editor broker queue api sdk core team edition
    community enterprise plus pro lite app apps code web""".split()
)


def option_mentions(text: str, option: str) -> list[tuple[int, int]]:
    """(start, end) of every mention of the option in the text, in order, not overlapping."""
    spans = _spans(text, option)
    short = _short_name(option)
    if short:
        spans += [s for s in _spans(text, short) if not any(_overlaps(s, t) for t in spans)]
    return sorted(spans)


def mentions_of(text: str, options: Sequence[str]) -> list[tuple[int, int, str]]:
    """Every option mention, longest names first where two overlap, in text order."""
    found: list[tuple[int, int, str]] = []
    for option in sorted(options, key=len, reverse=True):
        for start, end in option_mentions(text, option):
            if not any(_overlaps((start, end), (s, e)) for s, e, _ in found):
                found.append((start, end, option))
    return sorted(found)


def _short_name(option: str) -> str | None:
    words = option.split()
    if len(words) < 2 or has_cjk(option):
        return None
    last = words[-1]
    return last if len(last) >= 4 and last.lower() not in _GENERIC else None


def _spans(text: str, term: str) -> list[tuple[int, int]]:
    if not term.strip() or not contains_term(text, term):
        return []
    if has_cjk(term):
        return [(m.start(), m.end()) for m in re.finditer(re.escape(term), text)]
    return [(m.start(), m.end()) for m in term_pattern(term).finditer(text)]


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]
