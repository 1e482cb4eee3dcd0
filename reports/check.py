"""The checks a report must pass before it is written: every section DESIGN section 2 fixes,
in order, each citing its evidence, and every quote an exact substring of the stored text
of the source it cites."""

from __future__ import annotations

import re

from reports.markdown import fold_lines, unescape
from reports.strings import HEADINGS

# Section ids, in the order a report must have them; reports.strings.HEADINGS names them.
SECTIONS = (
    "summary",
    "background",
    "options",
    "dimensions",
    "matrix",
    "contradictions",
    "recommendation",
    "confidence",
)


QUOTE = re.compile(r"\[(\d+)\] “(.+)”")


class ReportIncomplete(Exception):
    """The rendered report lacks a section, or a section lacks its evidence."""


def validate(
    text: str,
    pages: dict[str, str],
    sources: dict[int, str],
    has_evidence: bool,
    language: str = "en",
) -> None:
    """Raise ReportIncomplete unless every section is there, in order, under its heading in
    the report's language, citing evidence, and every quote is an exact substring of the
    stored text of the source it cites."""
    headings = HEADINGS[language]
    bodies = _sections(text, {headings[s]: s for s in SECTIONS})
    if list(bodies) != list(SECTIONS):
        missing = [headings[s] for s in SECTIONS if s not in bodies]
        found = [headings[s] for s in bodies]
        raise ReportIncomplete(f"report sections missing or out of order: {missing or found}")
    if has_evidence:
        uncited = [headings[s] for s, body in bodies.items() if not re.search(r"\[\d+\]", body)]
        if uncited:
            raise ReportIncomplete(f"report sections cite no evidence: {uncited}")
    for match in QUOTE.finditer(text):
        source_id = sources.get(int(match.group(1)))
        if source_id is None or not quoted_in(match.group(2), pages.get(source_id, "")):
            raise ReportIncomplete(
                f"quote not found in source [{match.group(1)}]: {match.group(2)[:60]!r}"
            )


def quoted_in(printed: str, page: str) -> bool:
    """Whether a quote as the report prints it (escaped, on one line) is the stored text:
    an exact substring once unescaped, line breaks in the page read as the one space the
    report folds them into."""
    quote = unescape(printed)
    return quote in page or quote in fold_lines(page)


def _sections(text: str, ids: dict[str, str]) -> dict[str, str]:
    """Section id -> body, for the headings `ids` maps; other headings end a section."""
    bodies: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = ids.get(line[3:].strip())
            if current is not None:
                bodies[current] = ""
        elif current is not None:
            bodies[current] += line + "\n"
    return bodies
