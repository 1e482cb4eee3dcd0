"""Facts from tables and pros/cons lists: the cells of a comparison table and the items
under "Cons" or "优点", each tied to the option it is about.

Every fact carries the span of the line it came from, so text[start:end] is a verbatim
quote: the whole row for a table, the item text (without its bullet) for a list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from research.reading.claims.flat_tables import flat_rows
from research.reading.claims.mentions import mentions_of
from research.reading.claims.rows import rank_row
from research.reading.claims.stances import stance_hits
from research.reading.text import has_cjk


@dataclass(frozen=True)
class TableFact:
    option: str
    header: str  # the row's feature in a table with a column per option, else the column
    # header ("Cons", "License") or the list's lead-in ("Drawbacks", "缺点")
    cell: str
    polarity: int
    start: int
    end: int


def table_rows(text: str, options: Sequence[str]) -> list[TableFact]:
    """Facts from every Markdown table, pros/cons list and table flattened into lines."""
    lines = list(_lines(text))
    return _grid_and_list_facts(lines, options) + _flat_facts(lines, options)


def _flat_facts(lines: list[_Line], options: Sequence[str]) -> list[TableFact]:
    facts = []
    for row in flat_rows([(line.start, line.text) for line in lines if line.text], options):
        texts = [cell for _, cell in row.cells]
        ranks = rank_row(row.header, texts)
        for i, (option, cell) in enumerate(row.cells):
            sign = ranks[i] if ranks else _cell_sign(cell, row.header, options)
            facts.append(TableFact(option, row.header, cell, sign, row.start, row.end))
    return facts


def _grid_and_list_facts(lines: list[_Line], options: Sequence[str]) -> list[TableFact]:
    facts: list[TableFact] = []
    context = _Context()
    i = 0
    while i < len(lines):
        block = _table_block(lines, i)
        if block:
            facts += _table_facts(block, options, context.option)
            context.section = None
            i += len(block)
            continue
        facts += context.read(lines[i], options)
        i += 1
    return facts


@dataclass(frozen=True)
class _Line:
    start: int  # of the text, leading whitespace skipped
    text: str  # without leading or trailing whitespace


def _lines(text: str) -> Iterator[_Line]:
    position = 0
    for raw in text.split("\n"):
        stripped = raw.strip()
        lead = len(raw) - len(raw.lstrip())
        yield _Line(position + lead, stripped)
        position += len(raw) + 1


# --- pros and cons ------------------------------------------------------------------------

_PROS = r"pros?|advantages?|strengths?|benefits?|upsides?|优点|优势|长处|好处"
_CONS = (
    r"cons?|disadvantages?|drawbacks?|downsides?|weaknesses|limitations?|caveats?|pitfalls?|"
    r"缺点|劣势|不足之处|不足|短板|缺陷|局限性|局限|弊端"
)
_FILLER = re.compile(
    r"\b(?:of|for|the|using|use|main|key|biggest|major|some|its|with|when)\b|'s\b|"
    r"的|主要|使用|一些",
    re.I,
)
_LEAD_IN = re.compile(rf"(?:(?P<pros>{_PROS})|(?P<cons>{_CONS}))", re.I)
_INLINE = re.compile(r"^(?P<lead>[^:：]{1,40})[:：]\s*(?P<rest>\S.*)$")
_BULLET = re.compile(r"^(?:[-*+•·▪◦‣–—]|\d{1,2}[.)、]|[①-⑩])\s*(?=\S)")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.+?)\s*#*$")
_SENTENCE_END = re.compile(r"[.。!?！？,，;；]$")


def _lead_in_sign(title: str, options: Sequence[str]) -> int:
    """+1 for a "Pros" line, -1 for a "Cons" line, 0 for anything else ("Pros and cons")."""
    if not _LEAD_IN.search(title):
        return 0  # what is left once names and filler words are taken out is in the title
    cleaned = title
    for start, end, _ in reversed(mentions_of(title, options)):
        cleaned = cleaned[:start] + " " + cleaned[end:]
    cleaned = re.sub(r"[\W_]+", " ", _FILLER.sub(" ", cleaned)).strip()
    match = _LEAD_IN.fullmatch(cleaned)
    if match is None:
        return 0
    return 1 if match.group("pros") else -1


def _only_option(title: str, options: Sequence[str]) -> str | None:
    named = {option for _, _, option in mentions_of(title, options)}
    return named.pop() if len(named) == 1 else None


class _Context:
    """What the lines so far say the next list item is about: the option named by the
    nearest heading, and the pros or cons section it sits in."""

    def __init__(self) -> None:
        self.option: str | None = None
        self.level = 99  # of the heading that named the option
        self.section: tuple[str, int, str | None] | None = None  # lead-in, sign, option

    def read(self, line: _Line, options: Sequence[str]) -> list[TableFact]:
        if not line.text:
            return []  # a blank line does not end a list
        bullet = _BULLET.match(line.text)
        if bullet:
            return self._item(line, bullet.end(), options)
        heading = _HEADING.match(line.text)
        title = heading.group("title") if heading else line.text.strip("*_ ")
        level = len(heading.group("hashes")) if heading else 7
        sign = _lead_in_sign(title, options)
        if sign:
            self.section = (_label(title), sign, _only_option(title, options))
            return []
        inline = _INLINE.match(line.text)
        if inline and _lead_in_sign(inline.group("lead"), options):
            return self._inline(line, inline, options)
        self.section = None
        if heading or (len(title) <= 60 and not _SENTENCE_END.search(title)):
            self._heading(title, level, options)
        return []

    def _heading(self, title: str, level: int, options: Sequence[str]) -> None:
        named = _only_option(title, options)
        if named:
            self.option, self.level = named, level
        elif level <= self.level or mentions_of(title, options):
            self.option, self.level = None, 99

    def _item(self, line: _Line, offset: int, options: Sequence[str]) -> list[TableFact]:
        inline = _INLINE.match(line.text[offset:])
        if inline and _lead_in_sign(inline.group("lead"), options):
            return self._inline(line, inline, options, offset)
        if self.section is None:
            return []
        lead_in, sign, named = self.section
        option = named or self.option or _only_option(line.text, options)
        if option is None:
            return []
        start = line.start + offset
        return [
            TableFact(
                option, lead_in, line.text[offset:], sign, start, start + len(line.text) - offset
            )
        ]

    def _inline(
        self, line: _Line, inline: re.Match[str], options: Sequence[str], offset: int = 0
    ) -> list[TableFact]:
        """ "Cons: complex to operate" on one line."""
        lead = inline.group("lead")
        option = _only_option(lead, options) or self.option
        if option is None:
            return []
        start = line.start + offset + inline.start("rest")
        rest = inline.group("rest")
        sign = _lead_in_sign(lead, options)
        return [TableFact(option, _label(lead), rest, sign, start, start + len(rest))]


def _label(title: str) -> str:
    """A lead-in without its emoji, markup and colon: "✅ **优点**：" -> "优点"."""
    return re.sub(r"^[\W_]+|[\W_]+$", "", title)


# --- Markdown tables ----------------------------------------------------------------------

_SEPARATOR = re.compile(r"^\|?\s*:?[-—–‐─━]{2,}:?\s*(?:\|\s*:?[-—–‐─━]{2,}:?\s*)*\|?$")


def _table_block(lines: list[_Line], i: int) -> list[_Line]:
    """The header, separator and rows of a Markdown table starting at line i, or []."""
    if i + 1 >= len(lines) or "|" not in lines[i].text or not _SEPARATOR.match(lines[i + 1].text):
        return []
    end = i + 2
    while end < len(lines) and "|" in lines[end].text:
        end += 1
    return lines[i:end]


def _cells(row: str) -> list[str]:
    cells = [c.strip() for c in row.split("|")]
    if row.startswith("|"):
        cells = cells[1:]
    if row.endswith("|"):
        cells = cells[:-1]
    return cells


def _table_facts(
    block: list[_Line], options: Sequence[str], heading_option: str | None
) -> list[TableFact]:
    header = _cells(block[0].text)
    rows = [(line, _cells(line.text)) for line in block[2:] if line.text.strip("| ")]
    columns = {i: o for i, h in enumerate(header) if i and (o := _only_option(h, options))}
    if _shifted(header, rows, options):
        # "| A | B | C | |" over "| Broker | a's | b's | c's |": the label's column was
        # written last, so each option's column is one to the right of its name.
        columns = {i + 1: o for i, h in enumerate(header) if (o := _only_option(h, options))}
    if columns:
        return [fact for line, cells in rows for fact in _row_facts(line, cells, columns, options)]
    facts = []
    pros_or_cons = any(_lead_in_sign(h, options) for h in header)
    for line, cells in rows:
        option = _only_option(cells[0], options) if cells else None
        option = option or (heading_option if pros_or_cons else None)
        first = 1 if _only_option(cells[0], options) else 0
        for i in range(first, min(len(cells), len(header))):
            if option and cells[i]:
                sign = _cell_sign(cells[i], header[i], options)
                facts.append(TableFact(option, header[i], cells[i], sign, *_span(line)))
    return facts


def _shifted(
    header: list[str], rows: list[tuple[_Line, list[str]]], options: Sequence[str]
) -> bool:
    """A header that opens with an option and ends with an empty cell, over rows that open
    with a label (no option) and are as wide as the header."""
    if len(header) < 3 or header[-1] or not _only_option(header[0], options):
        return False
    return bool(rows) and all(
        len(cells) == len(header) and not _only_option(cells[0], options) for _, cells in rows
    )


def _row_facts(
    line: _Line, cells: list[str], columns: dict[int, str], options: Sequence[str]
) -> list[TableFact]:
    """A row of a table with a column per option: each cell judged against the row where
    it can be (rows.rank_row), else by its own words."""
    present = [(i, o) for i, o in columns.items() if i < len(cells) and cells[i] and cells[0]]
    ranks = rank_row(cells[0], [cells[i] for i, _ in present])
    return [
        TableFact(
            option,
            cells[0],
            cells[i],
            ranks[n] if ranks else _cell_sign(cells[i], cells[0], options),
            *_span(line),
        )
        for n, (i, option) in enumerate(present)
    ]


def _span(line: _Line) -> tuple[int, int]:
    return line.start, line.start + len(line.text)


_YES = re.compile(
    r"^(?:yes|y|true|supported|available|built-in|included|支持|是|有|内置|✓|✔|✅|☑|√)\b|[✓✔✅☑]",
    re.I,
)
_NO = re.compile(
    r"^(?:no|n|false|unsupported|not supported|不支持|否|没有|✗|✘|✕|×|❌)(?:\b|$)|"
    r"[✗✘✕❌]",
    re.I,
)
_EMPTY = re.compile(r"^(?:-+|—+|–|n/?a|none|无|/)$", re.I)


def _cell_sign(cell: str, header: str, options: Sequence[str]) -> int:
    """A tick for, a cross against; otherwise the judgement the words make about the row's
    or column's measure ("Bundle size: large" is against, "性能：极高" for). A cell whose
    own words praise and fault ("很高，runtime 较大") judges nothing, and its own words
    outrank its column: "brings deployment complexity" is against even under "Pros"."""
    text = cell.strip("*_ ")
    if _EMPTY.match(text):
        return 0
    column = _lead_in_sign(header, options) if header else 0
    if _NO.search(text) and not column:
        return -1
    if _YES.search(text) and not column:
        return 1
    joiner = "" if has_cjk(header + text[:1]) else " is "
    # What the header says alone is the row's measure, not a verdict on this cell.
    said = [h.weight for h in stance_hits(header + joiner + text, options) if h.end > len(header)]
    if any(w > 0 for w in said) and any(w < 0 for w in said):
        return 0
    own = (sum(said) > 0) - (sum(said) < 0)
    return own or column
