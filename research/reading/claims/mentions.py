"""Where a text names an option, in any of the forms research.reading.text.option_names
knows ("Kafka" for "Apache Kafka", "DRF" for "Django REST framework")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from research.reading.text import has_cjk, is_initials, option_names, term_pattern


def option_mentions(text: str, option: str) -> list[tuple[int, int]]:
    """(start, end) of every mention of the option in the text, in order, not overlapping."""
    spans: list[tuple[int, int]] = []
    for name in option_names(option):
        spans += [s for s in _spans(text, name, option) if not any(_overlaps(s, t) for t in spans)]
    return sorted(spans)


def mentions_of(text: str, options: Sequence[str]) -> list[tuple[int, int, str]]:
    """Every option mention, longest names first where two overlap, in text order."""
    found: list[tuple[int, int, str]] = []
    for option in sorted(options, key=len, reverse=True):
        for start, end in option_mentions(text, option):
            if not any(_overlaps((start, end), (s, e)) for s, e, _ in found):
                found.append((start, end, option))
    return sorted(found)


def _spans(text: str, name: str, option: str) -> list[tuple[int, int]]:
    if not name.strip():
        return []
    if has_cjk(name):
        pattern = re.compile(re.escape(name))
    elif is_initials(name, option):
        pattern = re.compile(r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])")
    else:
        pattern = term_pattern(name)
    return [(m.start(), m.end()) for m in pattern.finditer(text)]


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]
