"""Comparison tables that lost their grid on the way to text.

Extracting a web page often turns an HTML table into plain lines: one cell a line
("Feature / React / Vue / Svelte / Learning Curve / Medium / Easy / Easy"), or one row a
line with the cells run together ("Feature Django FastAPI Flask" then "Performance
Moderate High Moderate"). Either is read back into rows when a header names the options
in order; a row is read only when its cells can be told apart without guessing (one line
each, or one word each), so a row like "Extensive, mature ecosystem Growing ecosystem"
is left alone.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from research.reading.claims.mentions import mentions_of

MAX_CELL = 60  # characters of a cell on a line of its own


@dataclass(frozen=True)
class FlatRow:
    header: str  # the row's label: what it measures
    cells: tuple[tuple[str, str], ...]  # (option, cell) in column order
    start: int  # of the row's first line in the text
    end: int  # of its last


def flat_rows(lines: Sequence[tuple[int, str]], options: Sequence[str]) -> list[FlatRow]:
    """Rows of every flattened table in the text's lines ((start, stripped text) each)."""
    rows: list[FlatRow] = []
    i = 0
    while i < len(lines):
        columns = _cell_header(lines, i, options)
        if columns:
            found, i = _cell_rows(lines, i + 1 + len(columns), columns)
            rows += found
            continue
        columns = _line_header(lines[i][1], options)
        if columns:
            found, i = _line_rows(lines, i + 1, columns)
            rows += found
            continue
        i += 1
    return rows


def _only(text: str, options: Sequence[str]) -> str | None:
    """The option a line consists of, and nothing else."""
    found = mentions_of(text, options)
    if len(found) == 1 and found[0][0] == 0 and found[0][1] == len(text):
        return found[0][2]
    return None


def _cell_header(lines: Sequence[tuple[int, str]], i: int, options: Sequence[str]) -> list[str]:
    """A label line ("Feature") followed by one option a line, two or more."""
    if not _short_label(lines[i][1]) or _only(lines[i][1], options):
        return []
    columns: list[str] = []
    for _, text in lines[i + 1 :]:
        option = _only(text, options)
        if option is None or option in columns:
            break
        columns.append(option)
    return columns if len(columns) >= 2 else []


def _cell_rows(
    lines: Sequence[tuple[int, str]], i: int, columns: list[str]
) -> tuple[list[FlatRow], int]:
    rows = []
    width = 1 + len(columns)
    while i + width <= len(lines):
        block = lines[i : i + width]
        if not all(_cell(text) for _, text in block) or not _short_label(block[0][1]):
            break
        cells = tuple(zip(columns, (text for _, text in block[1:]), strict=True))
        rows.append(FlatRow(block[0][1], cells, block[0][0], block[-1][0] + len(block[-1][1])))
        i += width
    return rows, max(i, 1)


def _line_header(text: str, options: Sequence[str]) -> list[str]:
    """ "Feature Django FastAPI Flask": a label (or none), then the options and nothing
    else."""
    found = mentions_of(text, options)
    if len(found) < 2:
        return []
    label, rest = text[: found[0][0]], text[found[0][0] :]
    if label.strip() and not _short_label(label.strip()):
        return []  # the corner cell ("Feature") may be left empty, never a sentence
    gaps = [text[a[1] : b[0]] for a, b in itertools.pairwise(found)]
    if any(g.strip() for g in gaps) or found[-1][1] != len(text):
        return []
    columns = [o for _, _, o in found]
    return columns if len(set(columns)) == len(columns) and rest else []


def _line_rows(
    lines: Sequence[tuple[int, str]], i: int, columns: list[str]
) -> tuple[list[FlatRow], int]:
    rows = []
    while i < len(lines):
        start, text = lines[i]
        words = _words(text)
        if not text or len(text) > 160 or re.search(r"[.!?。！？]$", text):
            break  # the table has ended
        label, cells = words[: -len(columns)], words[-len(columns) :]
        fits = len(columns) + 1 <= len(words) <= len(columns) + 3
        if not fits or any(re.search(r"[,;:()]", w) for w in [*label, *cells]):
            i += 1
            continue  # cells that may hold several words: not told apart safely
        rows.append(
            FlatRow(
                " ".join(label), tuple(zip(columns, cells, strict=True)), start, start + len(text)
            )
        )
        i += 1
    return rows, i


_FOOTNOTE = re.compile(r"^(?:\[(?:\d{1,2}|[#*a-z])\]_?|\(\d{1,2}\)|[*†‡]+)$")


def _words(text: str) -> list[str]:
    """The row's words, a footnote mark kept with the word it marks: "No [1]" is one
    cell."""
    words: list[str] = []
    for word in text.split():
        if words and _FOOTNOTE.match(word):
            words[-1] += " " + word
        else:
            words.append(word)
    return words


def _short_label(text: str) -> bool:
    return 0 < len(text) <= 40 and not re.search(r"[.!?。！？]$", text)


def _cell(text: str) -> bool:
    return 0 < len(text) <= MAX_CELL and not re.search(r"[.!?。！？]$", text)
