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
_MARKUP = re.compile(r"^\s*(?:[#>*+-]+|\d+\.)\s+|[*_`]{1,3}")


def key_points(
    text: str, options: list[str], dimensions: list[str], page_option: str | None = None,
    base_offset: int = 0, limit: int = 12,
) -> list[KeyPoint]:
    """Pick up to `limit` sentences, the most informative first, returned in page order.

    `page_option` is the one option a page is about (from its title); sentences that speak
    to a dimension without naming an option are then attributed to it.
    """
    scored: list[tuple[int, int, KeyPoint]] = []
    for start, end in sentence_spans(text):
        quote = text[start:end]
        if not _usable(quote):
            continue
        point, score = _judge(quote, start + base_offset, options, dimensions, page_option)
        if point is not None:
            scored.append((score, start, point))
    best = sorted(scored, key=lambda s: (-s[0], s[1]))[:limit]
    return [point for _, _, point in sorted(best, key=lambda s: s[1])]


def _usable(quote: str) -> bool:
    minimum = 8 if has_cjk(quote) else 25
    return minimum <= len(quote) <= MAX_QUOTE and not quote.lstrip().startswith("|")


def _judge(
    quote: str, offset: int, options: list[str], dimensions: list[str], page_option: str | None
) -> tuple[KeyPoint | None, int]:
    named = [o for o in options if contains_term(quote, o)]
    dimension = best_dimension(quote, dimensions)
    fact = bool(_FACT_SIGNAL.search(quote))
    option = named[0] if len(named) == 1 else None
    if not named and page_option and (dimension or fact):
        option = page_option
    score = 2 * bool(named) + 2 * bool(dimension) + int(fact) + int(option == page_option)
    if not (named or option) or score < 3:
        return None, 0
    point = KeyPoint(text=clean(quote), quote=quote, offset=offset, option=option,
                     dimension=dimension)
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
