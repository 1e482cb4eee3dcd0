"""How the time to read a question grows with its length (`manage.py bench --questions`).

Every surface refuses a question over MAX_QUESTION_CHARS before reading it; this times the
reading itself (the options, then the dimensions, as research.questions does) past that
bound, on text shaped to make a pattern read on from every character: one letter repeated,
random words from the cues' own vocabulary, a Chinese list of hundreds of dimensions, an
order of importance hundreds of names long, and so on. Reading should grow linearly: 16x
the text in about 16x the time (the tests allow 40x), never 256x.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from research.stages.plan import MAX_QUESTION_CHARS, extract_options, read_dimensions

MULTIPLES = (1, 4, 16)

_VOCABULARY = (
    "speed cost licence risk maintenance activity and or the of with weighing between vs "
    "matters most then 40% 占 考虑 、 ， 和"
).split()


def _words(chars: int) -> str:
    pick = random.Random(chars).choice
    words: list[str] = []
    length = 0
    while length < chars:
        words.append(pick(_VOCABULARY))
        length += len(words[-1]) + 1
    return " ".join(words)


# Each takes a length and gives hostile text at least that long (cut to it by `shaped`).
SHAPES: dict[str, Callable[[int], str]] = {
    "one letter": lambda n: "a" * n,
    "cue words": _words,
    "Chinese list": lambda n: (
        "在甲、乙、丙中三选一，考虑" + "、".join(f"维度{i}" for i in range(n // 3))
    ),
    "ranking": lambda n: "A vs B, " + " matters most, then ".join(f"d{i}" for i in range(n // 8)),
    "one clause": lambda n: "A vs B " + "x " * (n // 2 + 1),
    "firsts": lambda n: "A vs B, " + "first " * (n // 6 + 1) + "?",
    "比 without 重要": lambda n: "甲还是乙？重要" + "比甲" * (n // 2 + 1),
    "digits": lambda n: "A vs B, cost " + "7" * n + " percent",
}


def shaped(shape: str, chars: int) -> str:
    return SHAPES[shape](chars)[:chars]


def read(text: str) -> None:
    """What checking a question reads: its options, then its dimensions given them."""
    read_dimensions(text, extract_options(text))


def reading_time(text: str, repeats: int = 3) -> float:
    """The fastest of `repeats` readings, in seconds: the machine may be busy, and the
    fastest is the one least slowed by it."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        read(text)
        best = min(best, time.perf_counter() - start)
    return best


def reading_times(
    shape: str, multiples: Sequence[int] = MULTIPLES, repeats: int = 3
) -> dict[int, float]:
    """Seconds to read `shape` at each multiple of MAX_QUESTION_CHARS."""
    return {m: reading_time(shaped(shape, m * MAX_QUESTION_CHARS), repeats) for m in multiples}


class QuestionReadingBench:
    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write

    def run(self, multiples: Sequence[int] = MULTIPLES, repeats: int = 3) -> None:
        heads = " | ".join(f"{m}x ({m * MAX_QUESTION_CHARS:,} chars)" for m in multiples)
        self.write(f"question reading, fastest of {repeats}: {heads}")
        first = multiples[0]
        for shape in SHAPES:
            times = reading_times(shape, multiples, repeats)
            cells = " | ".join(
                f"{times[m] * 1000:8.1f} ms ({times[m] / max(times[first], 1e-6):5.1f}x)"
                for m in multiples
            )
            self.write(f"  {shape:<16} {cells}")
