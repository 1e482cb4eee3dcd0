"""A quote from the model counts only if it is in the stored text (DESIGN section 2).

Models join lines and squeeze spaces when they quote, so a quote may differ from the text
in whitespace alone; it is then found with whitespace runs treated as one space, and the
match handed back is the stored text's own substring with its offset. Nothing else is
forgiven: a changed word, quote mark or letter case means the quote is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from research.context import StageContext

T = TypeVar("T")


@dataclass(frozen=True)
class QuoteMatch:
    quote: str  # exactly text[offset : offset + len(quote)]
    offset: int


def verify_quote(quote: str, text: str) -> QuoteMatch | None:
    """Where `quote` is in `text`, as the text's own substring; None when it is not there."""
    if not quote or not quote.strip():
        return None
    at = text.find(quote)
    if at >= 0:
        return QuoteMatch(quote, at)
    wanted = " ".join(quote.split())
    squeezed, origin = _squeeze(text)
    at = squeezed.find(wanted)
    if at < 0:
        return None
    start = origin[at]
    end = origin[at + len(wanted) - 1] + 1
    return QuoteMatch(text[start:end], start)


def _squeeze(text: str) -> tuple[str, list[int]]:
    """`text` with every whitespace run as one space, and for each of its characters the
    index in `text` it came from."""
    chars: list[str] = []
    origin: list[int] = []
    in_space = False
    for index, char in enumerate(text):
        if char.isspace():
            if not in_space:
                chars.append(" ")
                origin.append(index)
            in_space = True
            continue
        in_space = False
        chars.append(char)
        origin.append(index)
    return "".join(chars), origin


def keep_verified(
    items: Iterable[T],
    quote_of: Callable[[T], str],
    text: str,
    ctx: StageContext,
    *,
    source_id: str,
    task: str,
) -> list[tuple[T, QuoteMatch]]:
    """The items whose quote is in `text`, each with its match; the others are dropped and
    each drop is logged (`llm_quote_dropped`) with the quote and the source."""
    kept: list[tuple[T, QuoteMatch]] = []
    for item in items:
        quote = quote_of(item)
        match = verify_quote(quote, text)
        if match is None:
            ctx.record(
                "llm_quote_dropped",
                task=task,
                source_id=source_id,
                quote=quote,
                reason="not found in the stored text of the source",
            )
            continue
        kept.append((item, match))
    return kept
