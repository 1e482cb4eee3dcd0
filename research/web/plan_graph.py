"""The run as a graph: for each option × dimension of the plan, the trail its evidence took,
read from the run's artifacts (plan, candidates, filtered, notes, crosscheck).

A cell's trail is its sub-queries and the hits each brought, the pages those queries found
(its candidates), which of them the filter kept, which were read and how, and the claims
the crosscheck drew for the cell from any page. A cell without claims says where its trail
ended: no query hit, its hits all pages other cells had found first (or past the candidate
budget), every page dropped by the filter, the kept pages unreadable, kept
pages never opened (the reading budget ran out), or read but nothing found.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from research.outcomes import Outcome
from research.store import RunStore, StoreError, readers

EVIDENCE = "evidence"
NO_HIT = "no_hit"
NO_NEW_PAGE = "no_new_page"
ALL_DROPPED = "all_dropped"
UNREADABLE = "unreadable"
NOT_READ = "not_read"
NOTHING_FOUND = "nothing_found"
DEAD_ENDS = (NO_HIT, NO_NEW_PAGE, ALL_DROPPED, UNREADABLE, NOT_READ, NOTHING_FOUND)


@dataclass(frozen=True)
class QueryStep:
    text: str
    hits: int


@dataclass(frozen=True)
class PageStep:
    source_id: str
    title: str
    url: str
    kept: bool
    read: str  # "ok", "failed", "unread" (kept, never opened) or "" (dropped)
    claims: int  # claims this page gave to the cell


@dataclass(frozen=True)
class Cell:
    option: str
    dimension: str
    queries: list[QueryStep]
    pages: list[PageStep]
    claims_by_page: dict[str, int]  # source id -> claims it gave this cell, from any page
    outcome: str

    @property
    def hits(self) -> int:
        return sum(q.hits for q in self.queries)

    @property
    def kept(self) -> int:
        return sum(1 for p in self.pages if p.kept)

    @property
    def read(self) -> int:
        return sum(1 for p in self.pages if p.read == "ok")

    @property
    def claims(self) -> int:
        return sum(self.claims_by_page.values())


@dataclass(frozen=True)
class Graph:
    options: list[str]
    dimensions: list[str]
    cells: list[Cell] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)  # source id -> page title

    def cell(self, option: str, dimension: str) -> Cell:
        return next(c for c in self.cells if c.option == option and c.dimension == dimension)


def build(store: RunStore) -> Graph | None:
    """The graph of a run whose crosscheck is written; None before that, or when an artifact
    it needs cannot be read."""
    try:
        plan = readers.plan(store)
        found = readers.candidates(store)
        filtered = readers.filtered(store)
        notes = readers.notes(store)
        checked = readers.crosscheck(store)
    except (OSError, StoreError):
        return None

    hits: Counter[str] = Counter()
    for call in found.provider_calls:
        hits[call.query] += call.hits
    kept = {k.id for k in filtered.kept}
    status = {s.source_id: s.status for s in notes.sources}
    titles = {c.id: c.title for c in found.candidates}
    titles.update({s.source_id: s.title for s in notes.sources if s.title})

    cells = []
    for option in plan.options:
        for dim in plan.dimensions:
            queries = [
                QueryStep(q.text, hits[q.text])
                for q in plan.queries
                if q.option == option and q.dimension == dim.name
            ]
            given: Counter[str] = Counter(
                c.source_id
                for c in checked.claims
                if c.option == option and c.dimension == dim.name
            )
            pages = [
                PageStep(
                    c.id,
                    c.title,
                    c.url,
                    c.id in kept,
                    _read(c.id, c.id in kept, status),
                    given.get(c.id, 0),
                )
                for c in found.candidates
                if c.option == option and c.dimension == dim.name
            ]
            outcome = _outcome(pages, given, sum(q.hits for q in queries))
            cells.append(Cell(option, dim.name, queries, pages, dict(given), outcome))
    return Graph(plan.options, [d.name for d in plan.dimensions], cells, titles)


def _read(source_id: str, kept: bool, status: dict[str, Outcome]) -> str:
    if not kept:
        return ""
    if source_id not in status:
        return "unread"
    return "ok" if status[source_id] is Outcome.OK else "failed"


def _outcome(pages: list[PageStep], given: Counter[str], hits: int) -> str:
    if sum(given.values()):
        return EVIDENCE
    if not pages:
        return NO_NEW_PAGE if hits else NO_HIT
    kept = [p for p in pages if p.kept]
    if not kept:
        return ALL_DROPPED
    if any(p.read == "ok" for p in kept):
        return NOTHING_FOUND
    if any(p.read == "failed" for p in kept):
        return UNREADABLE
    return NOT_READ


# --- drawing: one row per cell, its trail left to right --------------------------------------

STEPS = ("queries", "pages", "kept", "read", "claims")
# The step where each dead end stopped the trail.
ENDS_AT = {
    NO_HIT: "queries",
    NO_NEW_PAGE: "pages",
    ALL_DROPPED: "kept",
    UNREADABLE: "read",
    NOT_READ: "read",
    NOTHING_FOUND: "claims",
}
MIN_LABEL_WIDTH = 150
STEP_WIDTH = 84
STEP_GAP = 14
ROW_HEIGHT = 40
HEAD = 30
END_WIDTH = 190


def label_width(graph: Graph) -> int:
    """Room for the longest option or dimension name, each on its own line of the label:
    a row's label is never cut."""
    longest = max((_text_width(n) for n in [*graph.options, *graph.dimensions]), default=0)
    return max(MIN_LABEL_WIDTH, round(longest) + 16)


def width(graph: Graph) -> int:
    return label_width(graph) + len(STEPS) * (STEP_WIDTH + STEP_GAP) + END_WIDTH


def _text_width(text: str) -> float:
    """About how wide `text` is at the drawing's 13 px: a wide (CJK) character a full em."""
    return sum(13.0 if unicodedata.east_asian_width(ch) in "WF" else 7.6 for ch in text)


@dataclass(frozen=True)
class Node:
    step: str
    count: int
    state: str  # "passed", "end" (where the trail stopped) or "beyond" (never reached)
    x: int
    text_x: int


@dataclass(frozen=True)
class Row:
    cell: Cell
    y: int
    mid: int
    nodes: list[Node]
    end_x: int
    line_end: int  # where the trail's line stops: the right edge of its last reached step
    page_claims: list[tuple[str, int]]  # (page title, claims it gave the cell)

    @property
    def top_line(self) -> int:
        """The label's first line (the option); the dimension is on the second."""
        return self.mid - 7

    @property
    def bottom_line(self) -> int:
        return self.mid + 8


def rows(graph: Graph) -> list[Row]:
    """Where each cell's row and its five steps stand in the drawing."""
    drawn, left, wide = [], label_width(graph), width(graph)
    for i, cell in enumerate(graph.cells):
        y = HEAD + i * ROW_HEIGHT
        stop = STEPS.index(ENDS_AT[cell.outcome]) if cell.outcome in ENDS_AT else len(STEPS)
        counts = (cell.hits, len(cell.pages), cell.kept, cell.read, cell.claims)
        nodes = []
        for k, (step, count) in enumerate(zip(STEPS, counts, strict=True)):
            x = left + k * (STEP_WIDTH + STEP_GAP)
            state = "passed" if k < stop else ("end" if k == stop else "beyond")
            nodes.append(Node(step, count, state, x, x + STEP_WIDTH // 2))
        page_claims = [
            (graph.titles.get(source, source), n) for source, n in cell.claims_by_page.items()
        ]
        drawn.append(
            Row(
                cell,
                y,
                y + 14,
                nodes,
                wide - END_WIDTH + 6,
                nodes[min(stop, len(STEPS) - 1)].x + STEP_WIDTH,
                page_claims,
            )
        )
    return drawn


def height(graph: Graph) -> int:
    return HEAD + len(graph.cells) * ROW_HEIGHT
