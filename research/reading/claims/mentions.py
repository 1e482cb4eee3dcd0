"""Where a text names an option, in any of the forms research.reading.text.option_names
knows ("Kafka" for "Apache Kafka", "DRF" for "Django REST framework", "Django's ORM" for
"Django ORM"), and where it names the option a page is about by its kind ("the ORM")."""

from __future__ import annotations

from collections.abc import Sequence

from research.reading.text import definite_spans, name_spans


def option_mentions(text: str, option: str) -> list[tuple[int, int]]:
    """(start, end) of every mention of the option in the text, in order, not overlapping."""
    return name_spans(text, option)


def mentions_of(
    text: str,
    options: Sequence[str],
    aliases: dict[str, tuple[str, ...]] | None = None,
    context: str | None = None,
) -> list[tuple[int, int, str]]:
    """Every option mention, longest names first where two overlap, in text order. A name
    two options share names neither. The option the text stands under (`context`: the
    page, heading or paragraph is about it) is also named by its kind: "the ORM"."""
    aliases = aliases or {}
    found: list[tuple[int, int, str]] = []
    for option in sorted(options, key=len, reverse=True):
        for start, end in name_spans(text, option, aliases.get(option, ()), options):
            if not any(_overlaps((start, end), (s, e)) for s, e, _ in found):
                found.append((start, end, option))
    if context in options:
        for start, end in definite_spans(text, context):
            if not any(_overlaps((start, end), (s, e)) for s, e, _ in found):
                found.append((start, end, context))
    return sorted(found)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]
