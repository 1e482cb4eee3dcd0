"""What the model is sent: which key points and pairs (at most MAX_POINTS and MAX_PAIRS,
whatever the limits), in how many calls, each key point cut around its option."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from research.artifacts import Claim, KeyPoint, SourceNotes
from research.llm.budget import estimate_tokens
from research.providers.urls import registrable_domain
from research.reading import first_mention, has_cjk

TEXT_TOKENS = 34  # a key point's text, cut around its option: ~135 Latin characters


POINTS_PER_PAGE = 3.5  # key points sent for each page read: 28 for 8 pages


MAX_POINTS = 28  # ... and at most, whatever the limits: one call


MAX_PAIRS = 8  # pairs judged in the whole stage


CONFIRM = 3  # of them, contradictions the reader found, for the model to confirm


EXTRA_PAIRS = 4  # contradictions a call may find between key points beyond the pairs sent


POINTS_PER_CALL = MAX_POINTS  # a call's share; the system prompt is paid once per call


POINT_CHARS = 60  # a contradiction's point, as the model names it


NOTE_CHARS = 200  # the model's note on a contradiction


@dataclass(frozen=True, eq=False)
class Point:
    """A key point as the model sees it (one object per key point: compared by identity)."""

    source: SourceNotes
    kp: KeyPoint

    @property
    def key(self) -> tuple[str, int]:
        return self.source.source_id, self.kp.offset


@dataclass(frozen=True, eq=False)
class Pair:
    a: Point
    b: Point
    option: str
    listed: bool  # the reader's finder already calls it a contradiction


@dataclass
class Batch:
    points: list[Point]
    pairs: list[Pair] = field(default_factory=list)


def chosen_points(
    claims: list[Claim], points: list[Point], pairs: list[Pair], limit: int
) -> list[Point]:
    """The pairs' key points, then the others, one option and dimension at a time (those
    with fewest claims first, so the model can fill a gap), taking from each one page at a
    time, so that what two pages say of one thing can be compared: key points of pages the
    model labelled in deep-read first, then those with the most substance."""
    chosen: list[Point] = []
    for pair in pairs:
        for p in (pair.a, pair.b):
            if p not in chosen and len(chosen) < limit:
                chosen.append(p)
    drawn = Counter((c.source_id, c.offset) for c in claims)
    labelled = {p.source.source_id for p in points if p.kp.origin == "model"}
    claimed = Counter((c.option, c.dimension or "") for c in claims if c.flag is None)
    queues: dict[tuple[str, str], list[Point]] = {}
    for p in points:
        if p not in chosen:
            queues.setdefault(cell_of(p), []).append(p)
    for cell, queue in queues.items():
        turn: Counter[str] = Counter()
        ranked = []
        for n, p in enumerate(queue):
            turn[p.source.source_id] += 1
            by_reader = p.source.source_id not in labelled
            ranked.append((turn[p.source.source_id], by_reader, -_substance(p, drawn), n))
        queues[cell] = [queue[r[-1]] for r in sorted(ranked)]
    order = sorted(queues, key=lambda cell: (claimed[cell], cell))
    while len(chosen) < limit and any(queues.values()):
        for cell in order:
            if queues[cell] and len(chosen) < limit:
                chosen.append(queues[cell].pop(0))
    return chosen


_SUBSTANCE = re.compile(r"\d|\b(?:not|no|never|without|only)\b|不|没有|无", re.I)


def _substance(point: Point, drawn: Counter[tuple[str, int]]) -> int:
    """How much a key point asserts: the reader's claims on it, and any figure, date or
    negation in it."""
    return drawn[point.key] + bool(_SUBSTANCE.search(point.kp.quote))


def batches_of(points: list[Point], pairs: list[Pair]) -> list[Batch]:
    """Key points POINTS_PER_CALL at a time, grouped by option and dimension so that those
    that may disagree stand together; a pair goes with the batch that holds both its points
    (the pairs' points come first, so they share one)."""
    batches = [
        Batch(sorted(points[i : i + POINTS_PER_CALL], key=cell_of))
        for i in range(0, len(points), POINTS_PER_CALL)
    ]
    for pair in pairs:
        for batch in batches:
            if pair.a in batch.points and pair.b in batch.points:
                batch.pairs.append(pair)
                break
    return batches


def site_of(point: Point) -> str:
    return registrable_domain(point.source.url)


def cell_of(point: Point) -> tuple[str, str]:
    return point.kp.option or "", point.kp.dimension or ""


def answer_tokens(batch: Batch) -> int:
    return 100 + 22 * len(batch.points) + 32 * (len(batch.pairs) + EXTRA_PAIRS)


def message(batch: Batch) -> str:
    """The key points, numbered, then the pairs by those numbers."""
    lines = ["Key points (n | option | dimension | page date | text):"]
    for n, p in enumerate(batch.points, 1):
        date = (p.source.published or "-")[:7]
        option = p.kp.option or "-"
        text = _excerpt(p.kp.quote, option)
        lines.append(f"{n} | {option} | {p.kp.dimension or '-'} | {date} | {text}")
    if batch.pairs:
        lines.append("Pairs (n ~ n):")
        number = {p: n for n, p in enumerate(batch.points, 1)}
        for pair in batch.pairs:
            listed = " listed" if pair.listed else ""
            lines.append(f"{number[pair.a]} ~ {number[pair.b]} ({pair.option}){listed}")
    return "\n".join(lines)


def _excerpt(quote: str, option: str) -> str:
    """The quote on one line, cut to about TEXT_TOKENS around the option's first mention: a
    Chinese character costs about what four Latin ones do, and says about as much."""
    text = " ".join(quote.split())
    if estimate_tokens(text) <= TEXT_TOKENS:
        return text
    start = end = max(0, first_mention(text, option))
    spent = 0.0
    while start > 0 and spent + _cost(text[start - 1]) <= TEXT_TOKENS / 4:
        start -= 1
        spent += _cost(text[start])
    while end < len(text) and spent + _cost(text[end]) <= TEXT_TOKENS:
        spent += _cost(text[end])
        end += 1
    while start > 0 and spent + _cost(text[start - 1]) <= TEXT_TOKENS:
        start -= 1
        spent += _cost(text[start])
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def _cost(char: str) -> float:
    return 1.0 if has_cjk(char) else 0.25


def cut(text: str, limit: int) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text if len(text) <= limit else text[: limit - 1] + "…"
