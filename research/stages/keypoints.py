"""Key points: the sentences of a page that speak about an option on a dimension.

Each key point carries the exact quote and its offset in the stored text, so any reader
can check it with `stored[offset:offset + len(quote)] == quote`.
"""

from __future__ import annotations

import re

from research.artifacts import KeyPoint
from research.stages.lexicon import keywords_for
from research.stages.text import contains_term, has_cjk, sentence_spans

MAX_QUOTE = 400
_FACT_SIGNAL = re.compile(
    r"\d|licen[cs]e|archived|deprecated|unmaintained|maintained|release|版本|许可|归档|维护|发布",
    re.IGNORECASE,
)
_PRONOUN_START = re.compile(r"(?:It|Its|It's|This|They|Their)\b|(?:它|其)")
_MARKUP = re.compile(r"^\s*(?:[#>*+-]+|\d+\.)\s+|[*_`]{1,3}")


def key_points(
    text: str,
    options: list[str],
    dimensions: list[str],
    page_option: str | None = None,
    base_offset: int = 0,
    limit: int = 12,
) -> list[KeyPoint]:
    """Pick up to `limit` sentences, the most informative first, returned in page order.

    A sentence that names no option ("It is Apache-2.0") is about the option the same
    paragraph last named, or else about `page_option`, the one option the page is about.
    """
    scored: list[tuple[int, int, KeyPoint]] = []
    last_named, previous_end = None, 0
    for start, end in sentence_spans(text):
        if "\n\n" in text[previous_end:start]:
            last_named = None  # a new paragraph may change the subject
        previous_end = end
        quote = text[start:end]
        last_named_before = last_named
        named = [o for o in options if contains_term(quote, o)]
        if len(named) == 1:
            last_named = named[0]
        elif named:
            last_named = None
        if not _usable(quote):
            continue
        if _PRONOUN_START.match(quote) and last_named_before:
            # "We are evaluating Quillsync. It is Apache-2.0 ... than Loamdb": "It" is
            # the option just named, not the one the sentence mentions in passing.
            subject = last_named_before
        else:
            subject = last_named if named else (last_named or page_option)
        point, score = _judge(quote, start + base_offset, named, subject, dimensions, page_option)
        if point is not None:
            scored.append((score, start, point))
    best = sorted(scored, key=lambda s: (-s[0], s[1]))[:limit]
    return [point for _, _, point in sorted(best, key=lambda s: s[1])]


def _usable(quote: str) -> bool:
    minimum = 8 if has_cjk(quote) else 25
    stripped = quote.lstrip()
    return (
        minimum <= len(quote) <= MAX_QUOTE
        and not stripped.startswith(("|", "#"))
        and not stripped.endswith(":")
    )


def _judge(
    quote: str,
    offset: int,
    named: list[str],
    subject: str | None,
    dimensions: list[str],
    page_option: str | None,
) -> tuple[KeyPoint | None, int]:
    dimension = best_dimension(quote, dimensions)
    fact = bool(_FACT_SIGNAL.search(quote))
    if subject is None or not (named or dimension or fact):
        return None, 0
    score = 2 * bool(named) + 2 * bool(dimension) + int(fact) + int(subject == page_option)
    if score < 3:
        return None, 0
    point = KeyPoint(
        text=clean(quote), quote=quote, offset=offset, option=subject, dimension=dimension
    )
    return point, score


def best_dimension(sentence: str, dimensions: list[str]) -> str | None:
    """The dimension whose words the sentence uses most, if any."""
    best, best_hits = None, 0
    for dimension in dimensions:
        hits = sum(1 for k in keywords_for(dimension) if contains_term(sentence, k))
        if hits > best_hits:
            best, best_hits = dimension, hits
    return best


def clean(quote: str) -> str:
    return re.sub(r"\s+", " ", _MARKUP.sub("", quote)).strip()
