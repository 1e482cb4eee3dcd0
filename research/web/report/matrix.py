"""The score matrix as a heat map whose cells open into their parts, the weighted totals
as a bar chart, and the confidence as a gauge; the charts are drawn as SVG by templates."""

from __future__ import annotations

from dataclasses import dataclass, field

from decisions.missing import Reading, unread_pages
from decisions.scoring.cell import WEIGHTS
from decisions.scoring.contradictions import superseded
from reports.lines import evidence_line
from research.artifacts import Claim, Contradiction, Decision, ScoreCell
from research.web.report.run_files import Quote, Quoter, RunFiles
from research.web.report.strings import WebStrings


@dataclass
class Evidence:
    claim_id: str
    label: str
    quote: Quote
    superseded: str = ""  # "superseded by a later source (x02)"
    by_model: bool = False  # the model read it off the page (LLM mode)
    flag: str = ""  # "flagged, left out of the scores: ...": shown, counted in no score
    corrected: str = ""  # "corrected by ada: wrong dimension (was: cost)"
    correction_id: str = ""  # the correction standing on it, to undo


@dataclass
class Corrected:
    """A claim of this cell as the reader read it, which its owner corrected away."""

    claim_id: str
    label: str
    quote: Quote
    said: str  # "corrected by ada: not a claim"
    note: str
    correction_id: str


@dataclass
class Component:
    label: str
    value: float
    weight: float

    @property
    def points(self) -> float:
        return round(self.value * self.weight, 1)


@dataclass
class Cell:
    option: str
    dimension: str
    state: str  # scored | no_evidence | not_read
    score: float | None = None
    heat: str = ""
    components: list[Component] = field(default_factory=list)
    capped_by: str | None = None
    capped_note: str = ""
    evidence: list[Evidence] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    corrected: list[Corrected] = field(default_factory=list)


@dataclass
class Row:
    option: str
    rank: int
    total: float | None
    heat: str
    recommended: bool
    cells: list[Cell]
    evidence: str = ""  # "evidence on 2 of 3 dimensions, 65% of the weight"; "" without a total


def heat(score: float | None) -> str:
    """A CSS class from a score: heat-0 (0-9) to heat-9 (90-100)."""
    return "" if score is None else f"heat-{min(9, max(0, int(score // 10)))}"


def formula(t: WebStrings) -> str:
    return " + ".join(f"{w} x {t('part_' + p)}" for p, w in WEIGHTS.items())


def rows(files: RunFiles, quote: Quoter, t: WebStrings) -> list[Row]:
    """One row per option, best first; one cell per dimension, in the plan's order."""
    d = files.decision
    cells = {(c.option, c.dimension): c for c in d.matrix}
    old = superseded(files.crosscheck.contradictions)
    reading = Reading(files.notes, files.filtered, files.plan.limits.max_pages)
    unread = {o: bool(unread_pages(o, reading, t.language)) for o in files.plan.options}
    out = []
    for r in d.ranking:
        row = [
            _cell(cells[(r.option, dim.name)], files, old, unread.get(r.option, False), quote, t)
            for dim in files.plan.dimensions
            if (r.option, dim.name) in cells
        ]
        recommended = r.option == d.recommendation.option
        evidence = "" if r.total is None else evidence_line(r, d, files.plan, t)
        out.append(Row(r.option, r.rank, r.total, heat(r.total), recommended, row, evidence))
    return out


def _cell(
    cell: ScoreCell,
    files: RunFiles,
    old: dict[str, Contradiction],
    unread: bool,
    quote: Quoter,
    t: WebStrings,
) -> Cell:
    """A missing cell is "not read" when kept pages about its option went unread (or
    could not be read), and "no evidence" when the pages read said nothing on it."""
    if cell.missing or cell.score is None:
        state = "not_read" if unread else "no_evidence"
        flagged = _flagged(cell, files, quote, t)
        gone = corrected_away(cell, files, quote, t)
        return Cell(
            cell.option, cell.dimension, state, evidence=flagged, notes=cell.notes, corrected=gone
        )
    parts = [
        Component(t(f"part_{name}"), getattr(cell, name) or 0.0, share)
        for name, share in WEIGHTS.items()
    ]
    return Cell(
        cell.option,
        cell.dimension,
        "scored",
        cell.score,
        heat(cell.score),
        parts,
        cell.capped_by,
        t("capped", claim=cell.capped_by) if cell.capped_by else "",
        _evidence(cell, files, old, quote, t) + _flagged(cell, files, quote, t),
        cell.notes,
        corrected_away(cell, files, quote, t),
    )


def _evidence(
    cell: ScoreCell, files: RunFiles, old: dict[str, Contradiction], quote: Quoter, t: WebStrings
) -> list[Evidence]:
    evidence = []
    for claim_id in cell.claim_ids:
        claim = files.claims.get(claim_id)
        shown = claim and quote(claim.source_id, claim.quote)
        if shown:
            later = t("superseded", id=old[claim_id].id) if claim_id in old else ""
            by_model = claim.origin == "model"
            fix = files.standing.get(claim_id)
            said = correction_said(fix, files, t) if fix else ""
            evidence.append(
                Evidence(
                    claim_id,
                    claim_label(claim, t),
                    shown,
                    later,
                    by_model,
                    corrected=said,
                    correction_id=fix.id if fix else "",
                )
            )
    return evidence


def corrected_away(
    cell: ScoreCell, files: RunFiles, quote: Quoter, t: WebStrings
) -> list[Corrected]:
    """The claims the reader put in this cell that a correction took out of it."""
    gone = []
    for claim in files.read_claims.values():
        fix = files.standing.get(claim.id)
        if not fix or (claim.option, claim.dimension) != (cell.option, cell.dimension):
            continue
        now = files.claims.get(claim.id)
        if now is not None and (now.option, now.dimension) == (cell.option, cell.dimension):
            continue  # still in this cell (its polarity corrected): shown with its evidence
        shown = quote(claim.source_id, claim.quote)
        if shown:
            said = correction_said(fix, files, t)
            gone.append(Corrected(claim.id, claim_label(claim, t), shown, said, fix.note, fix.id))
    return gone


def correction_said(fix, files: RunFiles, t: WebStrings) -> str:
    """ "corrected by ada: wrong dimension (should be: cost)" """
    what = t(f"kind_{fix.kind}")
    if fix.value is not None:
        value = (
            POLARITY_WORDS.get(fix.value, fix.value) if fix.kind == "wrong_polarity" else fix.value
        )
        what += " " + t(
            "should_be", value=t(value) if value in POLARITY_KEYS else (value or t("no_dimension"))
        )
    return t("corrected_by", who=fix.by, what=what)


POLARITY_WORDS = {"1": "polarity_for", "-1": "polarity_against", "0": "polarity_neutral"}
POLARITY_KEYS = set(POLARITY_WORDS.values())


def _flagged(cell: ScoreCell, files: RunFiles, quote: Quoter, t: WebStrings) -> list[Evidence]:
    """The cell's flagged claims: the scores leave them out, the page shows them."""
    flagged = []
    for claim in files.crosscheck.claims:
        mine = claim.option == cell.option and claim.dimension == cell.dimension
        shown = claim.flag and mine and quote(claim.source_id, claim.quote)
        if shown:
            label = claim_label(claim, t)
            flag = t("flagged", flag=claim.flag)
            flagged.append(Evidence(claim.id, label, shown, "", claim.origin == "model", flag))
    return flagged


def claim_label(claim: Claim, t: WebStrings) -> str:
    if claim.kind == "stance":
        return t("label_stance", value=t.value(claim.value), dimension=claim.dimension)
    if claim.kind == "statement":
        return t("label_statement", attribute=t.attribute(claim.attribute))
    return t("label_fact", attribute=t.attribute(claim.attribute), value=t.value(claim.value))


# --- the totals chart ---------------------------------------------------------------------

ROW = 38  # height of one bar's row
TOP = 8


@dataclass
class Bar:
    option: str
    label: str  # shortened to fit the chart; the full name is its title
    total: float | None
    recommended: bool
    y: float
    width: float
    left: int

    @property
    def text_y(self) -> float:
        return self.y + 15.5

    @property
    def value_x(self) -> float:
        return round(self.left + self.width + 6, 1)


@dataclass
class Chart:
    """Bars on a 0-100 axis, `span` units long, after a column of labels `left` wide."""

    bars: list[Bar] = field(default_factory=list)
    height: int = 0
    ticks: list[tuple[int, float]] = field(default_factory=list)  # (value, x)
    left: int = 124
    span: int = 340
    bar_height: int = 22
    width: int = 520

    @property
    def text_x(self) -> int:
        return self.left - 10

    @property
    def axis_y(self) -> int:
        return self.height - 22


def chart(d: Decision) -> Chart:
    shape = Chart()
    for i, r in enumerate(d.ranking):
        width = round(shape.span * (r.total or 0) / 100, 1)
        recommended = r.option == d.recommendation.option
        y = TOP + i * ROW
        shape.bars.append(Bar(r.option, clip(r.option), r.total, recommended, y, width, shape.left))
    shape.height = TOP + len(d.ranking) * ROW + 26
    shape.ticks = [(v, shape.left + shape.span * v / 100) for v in (0, 25, 50, 75, 100)]
    return shape


def clip(name: str, room: int = 15) -> str:
    """Shorten a label to about `room` Latin letters (a CJK character takes two)."""
    used = 0
    for i, ch in enumerate(name):
        used += 2 if ord(ch) > 0x2E80 else 1
        if used > room:
            return name[:i].rstrip() + "…"
    return name


@dataclass
class Gauge:
    """The confidence as a bar on a 0-100 scale drawn 300 units wide, with the threshold."""

    value: float
    threshold: int
    label: str

    @property
    def width(self) -> float:
        return round(3 * max(0.0, min(100.0, self.value)), 1)

    @property
    def threshold_x(self) -> float:
        return 3 * max(0, min(100, self.threshold))

    @property
    def label_x(self) -> float:
        # Keep the label inside the drawing near either end.
        return min(max(self.threshold_x, 45), 255)
