"""What the report pages show, shaped from a run's artifacts for the templates.

Plain functions from the pydantic artifacts to small dataclasses: no request, no
database. The numbers, claims and quotes are the ones report.md prints (the same verified
claims, the same citation numbers); only the layout differs.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from decisions import narrative
from decisions.decide import verify_quotes
from decisions.missing import Reading, unread_pages
from decisions.scoring import WEIGHTS, current_side, source_infos, standing, superseded, weight
from decisions.web_i18n import WebStrings
from research.artifacts import (
    Claim,
    Consensus,
    Contradiction,
    ContradictionSide,
    Crosscheck,
    Decision,
    Filtered,
    Notes,
    Plan,
    ScoreCell,
    SourceNotes,
)
from research.outcomes import Outcome
from research.stages.context import StageContext
from research.stages.sourcekind import classify
from research.steps import CROSSCHECK, DECISION, FILTERED, NOTES, PLAN
from research.store import RunStore

REPORT_FILES = (PLAN, FILTERED, NOTES, CROSSCHECK, DECISION)
WARNING_ITEMS = 3  # what-would-raise-it items in the opening; the rest are further down
EvidenceUrl = Callable[[str], str]  # source id -> URL of its evidence viewer


@dataclass(frozen=True)
class RunFiles:
    run_id: str
    plan: Plan
    filtered: Filtered
    notes: Notes
    crosscheck: Crosscheck  # only claims whose quotes are in their stored source
    decision: Decision
    pages: dict[str, str]

    @property
    def numbers(self) -> dict[str, int]:
        """Source id -> citation number, as report.md numbers them."""
        return {s.source_id: n for n, s in enumerate(self.notes.ok_sources(), 1)}

    @property
    def claims(self) -> dict[str, Claim]:
        return {c.id: c for c in self.crosscheck.claims}


def report_ready(store: RunStore) -> bool:
    return all(store.artifact_path(name).is_file() for name in REPORT_FILES)


def load(store: RunStore) -> RunFiles:
    notes = store.read_model(NOTES, Notes)
    pages = stored_pages(store, notes)
    check = store.read_model(CROSSCHECK, Crosscheck)
    return RunFiles(
        run_id=store.run_id,
        plan=store.read_model(PLAN, Plan),
        filtered=store.read_model(FILTERED, Filtered),
        notes=notes,
        # The same check the decide stage ran, so the page cites what the scores counted.
        crosscheck=verify_quotes(check, pages, StageContext()).crosscheck,
        decision=store.read_model(DECISION, Decision),
        pages=pages,
    )


def stored_pages(store: RunStore, notes: Notes) -> dict[str, str]:
    return {s.source_id: store.read_text(s.page) for s in notes.ok_sources() if s.page}


def quote_anchor(quote: str) -> str:
    """The id of a quote's first highlight in the evidence viewer."""
    return "q-" + hashlib.sha256(quote.encode("utf-8")).hexdigest()[:10]


_INLINE = re.compile(r"\*\*(?P<bold>.+?)\*\*|`(?P<code>[^`]+)`|\[(?P<cite>\d+)\]")


def rich(text: str) -> SafeString:
    """A sentence of decisions.i18n as HTML: its **bold** and `code`, and citations [n]
    linked to the evidence list. Everything else is escaped."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        if m.group("bold") is not None:
            out.append(format_html("<strong>{}</strong>", rich(m.group("bold"))))
        elif m.group("code") is not None:
            out.append(format_html("<code>{}</code>", m.group("code")))
        else:
            out.append(format_html('<a class="cite" href="#src-{0}">[{0}]</a>', m.group("cite")))
        pos = m.end()
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))


# --- the page ---------------------------------------------------------------------------


@dataclass
class Quote:
    n: int
    quote: str
    href: str


@dataclass
class Evidence:
    claim_id: str
    label: str
    quote: Quote
    superseded: str = ""  # "superseded by a later source (x02)"


@dataclass
class Component:
    label: str
    value: float
    weight: float

    @property
    def points(self) -> float:
        return round(self.value * self.weight, 1)

    @property
    def percent(self) -> int:
        return round(self.weight * 100)


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


@dataclass
class Row:
    option: str
    rank: int
    total: float | None
    heat: str
    recommended: bool
    cells: list[Cell]


@dataclass
class Bar:
    option: str
    label: str  # shortened to fit the chart; the full name is its title
    total: float | None
    recommended: bool
    y: float
    width: float
    left: int = 124

    @property
    def text_y(self) -> float:
        return self.y + 15.5

    @property
    def value_x(self) -> float:
        return round(self.left + self.width + 6, 1)


@dataclass
class Chart:
    bars: list[Bar]
    height: int
    ticks: list[tuple[int, float]]  # (value, x)
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


@dataclass
class Side:
    label: str
    pages: str
    state: str | None  # current | earlier | None
    quotes: list[Quote]


@dataclass
class ContradictionView:
    id: str
    option: str
    topic: str
    said: SafeString
    cause: str | None
    cause_label: str
    cause_hint: str
    cause_text: SafeString
    sides: list[Side]
    sentence: SafeString  # what they say and why they may differ, in one run of text


@dataclass
class ConsensusView:
    id: str
    option: str
    topic: str
    value: str
    agree: str
    quotes: list[Quote]


@dataclass
class SourceView:
    n: int
    source_id: str
    title: str
    url: str
    site: str
    kind_id: str  # primary | comparison | community | interested
    kind: str
    interested: str | None  # whose interest it is
    published: str | None
    published_label: str
    href: str


@dataclass
class Part:
    label: str
    value: float | None


def report_page(files: RunFiles, evidence_url: EvidenceUrl) -> dict:
    d, plan = files.decision, files.plan
    t = WebStrings(plan.language)
    quote = _quoter(files.numbers, evidence_url)
    low = d.assessment.confidence < d.threshold
    top = narrative.top_contradiction(files.crosscheck.contradictions, d, plan, files.claims)
    return {
        "t": t,
        "L": t.labels(),
        "question": plan.question,
        "mode": t("mode_deterministic" if d.mode == "deterministic" else "mode_llm"),
        "rec_label": _rec_label(d, low, t),
        "recommendation": d.recommendation.option,
        "confidence": round(d.assessment.confidence),
        "threshold": d.threshold,
        "low": low,
        "warning": rich(
            t("low_confidence", confidence=f"{d.assessment.confidence:.0f}", threshold=d.threshold)
        ),
        "would_raise": d.missing_information[:WARNING_ITEMS],
        "would_raise_default": t("would_raise_default"),
        "gauge": Gauge(d.assessment.confidence, d.threshold, t("threshold", threshold=d.threshold)),
        "more_missing": max(0, len(d.missing_information) - WARNING_ITEMS),
        "reasons": _reasons(files, t),
        "top": _contradiction(top, files, quote, t) if top else None,
        "chart": chart(d),
        "dimensions": [(dim.name, round(dim.weight * 100)) for dim in plan.dimensions],
        "rows": _rows(files, quote, t),
        "formula": rich(t("matrix_intro", formula=_formula(t))),
        "contradictions": [
            _contradiction(x, files, quote, t) for x in files.crosscheck.contradictions
        ],
        "consensus": [_consensus(k, files, quote, t) for k in files.crosscheck.consensus],
        "no_contradiction": _none_found("no_contradiction", files, t),
        "no_consensus": _none_found("no_consensus", files, t),
        "parts": _parts(d, t),
        "method": d.assessment.method,
        "missing": d.missing_information,
        "not_read": d.not_read,
        "kept_not_read_intro": t("kept_not_read_intro", budget=plan.limits.max_pages),
        "unreachable": d.unreachable,
        "sources": sources(files, evidence_url, t),
        "no_source": t("no_source"),
        "unread_sources": [s for s in files.notes.sources if s.status is not Outcome.OK],
    }


def _quoter(numbers: dict[str, int], evidence_url: EvidenceUrl) -> Callable[..., Quote | None]:
    def quote(source_id: str, text: str) -> Quote | None:
        if source_id not in numbers:
            return None
        return Quote(numbers[source_id], text, f"{evidence_url(source_id)}#{quote_anchor(text)}")

    return quote


def _rec_label(d: Decision, low: bool, t: WebStrings) -> str:
    provisional = low and d.recommendation.option is not None
    return t("rec_provisional" if provisional else "rec_label")


def _reasons(files: RunFiles, t: WebStrings) -> list[SafeString]:
    numbers = files.numbers

    def cite(source_ids: list[str]) -> str:
        return ", ".join(f"[{n}]" for n in sorted({numbers[s] for s in source_ids if s in numbers}))

    said = narrative.reasons(files.decision, files.plan, files.claims, cite, list(numbers))
    return [rich(t.say(s.key, s.params)) for s in said]


def _none_found(key: str, files: RunFiles, t: WebStrings) -> SafeString:
    """ "None found among [1], [2]", or "none found" when nothing could be read."""
    read = sorted(files.numbers.values())
    if not read:
        return rich(t(f"{key}_unread"))
    return rich(t(key, cites=", ".join(f"[{n}]" for n in read)))


def _formula(t: WebStrings) -> str:
    return " + ".join(f"{w} x {t('part_' + p)}" for p, w in WEIGHTS.items())


def heat(score: float | None) -> str:
    """A CSS class from a score: heat-0 (0-9) to heat-9 (90-100)."""
    return "" if score is None else f"heat-{min(9, max(0, int(score // 10)))}"


# --- the score matrix -------------------------------------------------------------------


def _rows(files: RunFiles, quote, t: WebStrings) -> list[Row]:
    d = files.decision
    cells = {(c.option, c.dimension): c for c in d.matrix}
    old = superseded(files.crosscheck.contradictions)
    reading = Reading(files.notes, files.filtered, files.plan.limits.max_pages)
    unread = {o: bool(unread_pages(o, reading, t.language)) for o in files.plan.options}
    rows = []
    for r in d.ranking:
        row_cells = [
            _cell(cells[(r.option, dim.name)], files, old, unread.get(r.option, False), quote, t)
            for dim in files.plan.dimensions
            if (r.option, dim.name) in cells
        ]
        recommended = r.option == d.recommendation.option
        rows.append(Row(r.option, r.rank, r.total, heat(r.total), recommended, row_cells))
    return rows


def _cell(
    cell: ScoreCell,
    files: RunFiles,
    old: dict[str, Contradiction],
    unread: bool,
    quote,
    t: WebStrings,
) -> Cell:
    if cell.missing or cell.score is None:
        state = "not_read" if unread else "no_evidence"
        return Cell(cell.option, cell.dimension, state, notes=cell.notes)
    parts = [
        Component(t(f"part_{name}"), getattr(cell, name) or 0.0, weight)
        for name, weight in WEIGHTS.items()
    ]
    claims = files.claims
    evidence = []
    for claim_id in cell.claim_ids:
        claim = claims.get(claim_id)
        shown = claim and quote(claim.source_id, claim.quote)
        if shown:
            later = t("superseded", id=old[claim_id].id) if claim_id in old else ""
            evidence.append(Evidence(claim_id, claim_label(claim, t), shown, later))
    return Cell(
        cell.option,
        cell.dimension,
        "scored",
        cell.score,
        heat(cell.score),
        parts,
        cell.capped_by,
        t("capped", claim=cell.capped_by) if cell.capped_by else "",
        evidence,
        cell.notes,
    )


def claim_label(claim: Claim, t: WebStrings) -> str:
    if claim.kind == "stance":
        return t("label_stance", value=t.value(claim.value), dimension=claim.dimension)
    if claim.kind == "statement":
        return t("label_statement", attribute=t.attribute(claim.attribute))
    return t("label_fact", attribute=t.attribute(claim.attribute), value=t.value(claim.value))


# --- the totals chart, drawn as SVG by the template ---------------------------------------

ROW = 38
TOP = 8


def chart(d: Decision) -> Chart:
    shape = Chart(bars=[], height=0, ticks=[])
    for i, r in enumerate(d.ranking):
        width = shape.span * (r.total or 0) / 100
        recommended = r.option == d.recommendation.option
        shape.bars.append(
            Bar(r.option, clip(r.option), r.total, recommended, TOP + i * ROW, round(width, 1))
        )
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


# --- contradictions and consensus ---------------------------------------------------------


def _strengths(files: RunFiles) -> dict[str, float]:
    """Claim id -> how much its page counts for it, as the scores count it."""
    infos = source_infos(files.notes, files.plan.options, files.plan.language)
    return {
        c.id: standing(c, infos[c.source_id]).strength
        for c in files.crosscheck.claims
        if c.source_id in infos
    }


def _contradiction(x: Contradiction, files: RunFiles, quote, t: WebStrings) -> ContradictionView:
    numbers, claims = files.numbers, files.claims
    said = narrative.describe(x, claims, numbers)
    why = narrative.cause(x, claims, numbers, _strengths(files))
    current = current_side(x)
    cause = x.cause or "error"
    said_text = t.say(said.key, said.params) + t("full_stop")
    why_text = t.say(why.key, why.params) if why else ""
    return ContradictionView(
        id=x.id,
        option=x.option,
        topic=topic(x.attribute, x.dimension, t),
        said=rich(said_text),
        cause=x.cause,
        cause_label=t(f"cause_label_{cause}"),
        cause_hint=_effect(weight(x), t),
        cause_text=rich(why_text),
        sides=[
            _side(x, "a", t("side_one"), current, quote, t),
            _side(x, "b", t("side_other"), current, quote, t),
        ],
        sentence=rich(said_text + (t("sentence_sep") + why_text if why_text else "")),
    )


def _effect(share: float, t: WebStrings) -> str:
    """What the contradiction does to consistency (decisions.scoring.weight)."""
    if share <= 0:
        return t("effect_settled")
    if share < 1:
        return t("effect_partial", share=round(share * 100))
    return t("effect_full")


def _side(x: Contradiction, side: str, label: str, current, quote, t: WebStrings) -> Side:
    main, also = (x.a, x.a_also) if side == "a" else (x.b, x.b_also)
    quotes = [q for q in (quote(s.source_id, s.quote) for s in _unique(main, also)) if q]
    pages = len({q.n for q in quotes})
    state = None if current is None else ("current" if current == side else "earlier")
    return Side(label, t("pages_count", count=pages), state, quotes)


def _unique(main: ContradictionSide, also: list[ContradictionSide]) -> list[ContradictionSide]:
    seen, out = set(), []
    for s in (main, *also):
        if (s.source_id, s.quote) not in seen:
            seen.add((s.source_id, s.quote))
            out.append(s)
    return out


def topic(attribute: str, dimension: str | None, t: WebStrings) -> str:
    if attribute == "stance":
        return t("topic_stance", dimension=dimension or t("overall_merit"))
    return t.attribute(attribute)


def _consensus(k: Consensus, files: RunFiles, quote, t: WebStrings) -> ConsensusView:
    claims, quotes, seen = files.claims, [], set()
    for claim_id in k.claim_ids:
        claim = claims.get(claim_id)
        shown = claim and claim.source_id not in seen and quote(claim.source_id, claim.quote)
        if shown:
            seen.add(claim.source_id)
            quotes.append(shown)
    return ConsensusView(
        k.id,
        k.option,
        topic(k.attribute, k.dimension, t),
        t.value(k.value),
        t("agree", count=len(k.sites), sites=", ".join(k.sites)),
        quotes,
    )


# --- confidence and sources -------------------------------------------------------------


def _parts(d: Decision, t: WebStrings) -> list[Part]:
    a = d.assessment
    return [
        Part(t("coverage"), a.coverage),
        Part(t("consistency"), a.consistency),
        Part(t("timeliness"), a.timeliness),
        Part(t("verifiability"), a.verifiability),
        Part(t("corroboration"), a.corroboration),
    ]


def sources(files: RunFiles, evidence_url: EvidenceUrl, t: WebStrings) -> list[SourceView]:
    numbers = files.numbers
    return [
        _source(s, numbers[s.source_id], files.plan, evidence_url, t)
        for s in files.notes.ok_sources()
    ]


def _source(
    src: SourceNotes, n: int, plan: Plan, evidence_url: EvidenceUrl, t: WebStrings
) -> SourceView:
    kind_id, interested = source_kind(src, plan)
    return SourceView(
        n=n,
        source_id=src.source_id,
        title=src.title or src.url,
        url=src.url,
        site=src.site,
        kind_id=kind_id,
        kind=t.kind(kind_id),
        interested=interested,
        published=src.published,
        published_label=t("published", date=src.published) if src.published else "",
        href=evidence_url(src.source_id),
    )


def source_kind(src: SourceNotes, plan: Plan) -> tuple[str, str | None]:
    """The kind of page (primary, comparison, community or interested), and for an
    interested party, whose interest it is, in the plan's language."""
    kind = classify(src.final_url or src.url, src.title, plan.options, language=plan.language)
    if kind.interested:
        return "interested", kind.why
    return kind.kind, None
