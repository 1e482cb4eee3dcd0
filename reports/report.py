"""The Markdown report: built from the decision with a Jinja2 template, then checked.

It leads with the answer (warning, recommendation, confidence, the reasons that decided it,
the contradiction that matters most), then gives the sections DESIGN section 2 fixes, in the
question's language (reports.strings). Every quote is checked against the stored text of the
source it cites before the report is written, and a report without all of its sections is
an error, never a partial success.

What the model did in LLM mode is marked where it shows: claims and contradictions it read
or judged, the cells whose lean it gave, and claims flagged because the deterministic reader
reads their quote the other way (shown with the flag's words, counted in no score).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from decisions.scoring.cell import WEIGHTS
from decisions.scoring.contradictions import superseded
from decisions.scoring.sources import source_infos, standing
from decisions.scoring.totals import percent
from reports import narrative
from reports.markdown import Md, cell, escape, fold_lines, link_address, unescape
from reports.strings import HEADINGS, Strings
from research.artifacts import (
    Claim,
    Contradiction,
    Crosscheck,
    Decision,
    Filtered,
    Notes,
    Plan,
    RankedOption,
    ScoreCell,
)
from research.names import stage_label
from research.stages.sourcekind import classify

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "reports"
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
# The low-confidence warning lists this many items; the full list is in its own section.
WARNING_ITEMS = 3


class ReportIncomplete(Exception):
    """The rendered report lacks a section, or a section lacks its evidence."""


# A parameter that is only citations, as reports.narrative writes them: "[1], [3]".
_CITES = re.compile(r"\[\d+\](?:, \[\d+\])*")


class MarkdownStrings(Strings):
    """The report's words, each sentence Markdown this code wrote (Md): the facts put into
    it (names, titles, values, the model's words) are escaped, save citations and what is
    itself Md, such as a sentence made by another call."""

    def __call__(self, key: str, **params: Any) -> Md:
        return Md(super().__call__(key, **{k: _fact(v) for k, v in params.items()}))


def _fact(value: Any) -> Any:
    if not isinstance(value, str) or isinstance(value, Md) or _CITES.fullmatch(value):
        return value
    return escape(value)


def _finalize(value: Any) -> Any:
    """What the template prints: strings are data and escaped, unless they are Md."""
    return escape(value) if isinstance(value, str) else value


@dataclass
class ReportInput:
    run_id: str
    plan: Plan
    filtered: Filtered
    notes: Notes
    crosscheck: Crosscheck  # verified claims only
    decision: Decision
    pages: dict[str, str]
    generated: date


def _env(t: Strings) -> Environment:
    # Markdown, not HTML: every string printed is escaped as Markdown unless it is Md.
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        finalize=_finalize,
    )
    env.filters["cell"] = cell
    env.filters["link_text"] = lambda text: escape(text) if str(text).strip() else t("untitled")
    return env


def render(data: ReportInput) -> str:
    numbers = {s.source_id: n for n, s in enumerate(data.notes.ok_sources(), 1)}
    claims = {c.id: c for c in data.crosscheck.claims}
    t = MarkdownStrings(data.plan.language)
    text = _env(t).get_template("report.md.j2").render(**_context(data, numbers, claims, t))
    sources = {n: sid for sid, n in numbers.items()}
    validate(text, data.pages, sources, bool(numbers), language=t.language)
    return text


def _context(
    data: ReportInput, numbers: dict[str, int], claims: dict[str, Claim], t: Strings
) -> dict[str, Any]:
    d = data.decision
    cite = _citer(numbers)
    low = d.assessment.confidence < d.threshold
    strength = _strengths(data, claims)
    old = superseded(data.crosscheck.contradictions)
    return {
        "t": t,
        "question": data.plan.question,
        "run_id": data.run_id,
        "generated": data.generated,
        "mode": mode_line(d, t),
        "low_confidence": low,
        "confidence": f"{d.assessment.confidence:.0f}",
        "threshold": d.threshold,
        "a": d.assessment,
        "missing": d.missing_information,
        "warning_items": d.missing_information[:WARNING_ITEMS],
        "unreachable": d.unreachable,
        "providers": data.plan.sources,
        "kept": len(data.filtered.kept),
        "read": len(data.notes.sources),
        "cite_all": cite(list(numbers)),
        "has_claims": bool(claims),
        "sources": _sources(data, numbers, t),
        "options": _options(data, cite, t),
        "dimensions": _dimensions(data, cite),
        "matrix_formula": Md(" + ".join(f"{w} x {t('part_' + p)}" for p, w in WEIGHTS.items())),
        "model_leans": model_leans_line(d, t),
        "cells": [_cell(c, claims, numbers, cite, old, t) for c in d.matrix],
        "totals": [_ranked(r, data, t) for r in d.ranking],
        "contradictions": [
            _contradiction(x, claims, numbers, strength, t) for x in data.crosscheck.contradictions
        ],
        "consensus": [_consensus(k, claims, numbers, t) for k in data.crosscheck.consensus],
        "rec": d.recommendation,
        "rec_line": _rec_line(d, low, t),
        "reasons": [
            t.say(s.key, s.params)
            for s in narrative.reasons(d, data.plan, claims, cite, list(numbers))
        ],
        "top": _top_contradiction(data, claims, numbers, strength, t),
        "rec_cites": _recommendation_cites(data, cite),
        "method": d.assessment.method,
        "corroboration": _number(d.assessment.corroboration, t),
        "not_read": d.not_read,
        "budget": data.plan.limits.max_pages,
        "verified_line": _verified_line(data, cite, t),
    }


def _citer(numbers: dict[str, int]) -> narrative.Cite:
    def cite(source_ids: list[str]) -> str:
        ns = sorted({numbers[s] for s in source_ids if s in numbers})
        return Md(", ".join(f"[{n}]" for n in ns))

    return cite


def mode_line(d: Decision, t: Strings) -> str:
    """Which method produced the decision: "LLM-assisted" only where the model's answers
    were used, naming the model and the stages, and where it stopped being asked."""
    if d.mode != "llm":
        if d.model and d.model_stages == []:
            return Md(t("mode_model_unused", model=d.model) + _why_not(d, t))
        return t("mode_deterministic")
    line = t("mode_llm_named", model=d.model) if d.model else t("mode_llm")
    if d.model_stages:
        line += t("mode_llm_in", stages=", ".join(stage_label(s) for s in d.model_stages))
    lost, timed_out = d.model_unreachable_at, d.model_time_out_at
    if lost and lost == timed_out:  # nothing usable came in the stage's time
        line += t("mode_time_lost", stage=stage_label(lost))
    elif lost:
        line += t("mode_model_lost", stage=stage_label(lost))
    elif d.budget_exhausted_at:
        line += t("mode_budget_out", stage=stage_label(d.budget_exhausted_at))
    elif timed_out:
        line += t("mode_time_out", stage=stage_label(timed_out))
    return Md(line)


def _why_not(d: Decision, t: Strings) -> str:
    """Why a configured model gave no usable answer, when the run knows."""
    if d.model_time_out_at and d.model_time_out_at == d.model_unreachable_at:
        return t("why_unused_time", stage=stage_label(d.model_time_out_at))
    if d.model_unreachable_at:
        return t("why_unused_lost", stage=stage_label(d.model_unreachable_at))
    if d.budget_exhausted_at:
        return t("why_unused_budget", stage=stage_label(d.budget_exhausted_at))
    if d.model_time_out_at:
        return t("why_unused_time", stage=stage_label(d.model_time_out_at))
    return ""


def model_leans_line(d: Decision, t: Strings) -> str:
    """In LLM mode, how many cells' lean the model gave; nothing otherwise."""
    if d.mode != "llm":
        return ""
    cells = sum(1 for c in d.matrix if not c.missing)
    count = sum(1 for c in d.matrix if c.model_base is not None)
    return t("model_leans", count=count, cells=cells) if count else t("model_leans_none")


def flag_text(flag: str) -> str:
    """A flag on one line and without curly quotes, so the quote after it stays the only
    one on its report line."""
    return " ".join(flag.replace("“", '"').replace("”", '"').split())


def scored(contradictions: list[Contradiction], claims: dict[str, Claim]) -> list[Contradiction]:
    """The contradictions the scores count: none whose main claims are flagged."""
    return [
        x
        for x in contradictions
        if not any(
            claims.get(s.claim_id) is not None and claims[s.claim_id].flag for s in (x.a, x.b)
        )
    ]


def _ranked(r: RankedOption, data: ReportInput, t: Strings) -> str:
    """ "1. Loamdb: 62.3 (evidence on 2 of 3 dimensions, 65% of the weight)" """
    if r.total is None:
        return t("total_item_none", rank=r.rank, option=r.option, total=t("no_total"))
    share = evidence_line(r, data.decision, data.plan, t)
    return t("total_item", rank=r.rank, option=r.option, total=f"{r.total:.1f}", share=share)


def evidence_line(r: RankedOption, d: Decision, plan: Plan, t: Strings) -> str:
    """How much of an option's weight rests on evidence: "evidence on 2 of 3 dimensions,
    65% of the weight"."""
    share = percent(narrative.share_of(r, d, plan))
    return t(
        "evidence_share",
        covered=r.cells_with_evidence,
        dimensions=len(plan.dimensions),
        share=share,
    )


def _rec_line(d: Decision, low: bool, t: Strings) -> str:
    if d.recommendation.option is None:
        return t("no_recommendation")
    return t("provisional" if low else "recommendation", option=d.recommendation.option)


def _strengths(data: ReportInput, claims: dict[str, Claim]) -> dict[str, float]:
    """Claim id -> how much its source counts for it, as the scores count it."""
    infos = source_infos(data.notes, data.plan.options, data.plan.language)
    return {
        c.id: standing(c, infos[c.source_id]).strength
        for c in claims.values()
        if c.source_id in infos
    }


def _number(value: float | None, t: Strings) -> str:
    return t("not_recorded") if value is None else f"{value:.1f}"


def _top_contradiction(
    data: ReportInput,
    claims: dict[str, Claim],
    numbers: dict[str, int],
    strength: dict[str, float],
    t: Strings,
) -> str:
    found = scored(data.crosscheck.contradictions, claims)
    x = narrative.top_contradiction(found, data.decision, data.plan, claims)
    if x is None:
        if not numbers:
            return t("top_contradiction_unread")
        cites = Md(", ".join(f"[{n}]" for n in numbers.values()))
        return t("top_contradiction_none", cites=cites)
    where = t("contradiction_where", id=x.id, count=len(found), section=t.heading("contradictions"))
    return t(
        "top_contradiction",
        option=x.option,
        topic=_topic_label(x.attribute, x.dimension, t),
        said=_said(x, claims, numbers, t),
        where=where,
        cause=_cause(x, claims, numbers, strength, t),
    )


def _said(x: Contradiction, claims: dict[str, Claim], numbers: dict[str, int], t: Strings) -> str:
    """Both sides in words, and how many pages stand on each when more than one does."""
    said = narrative.describe(x, claims, numbers)
    text = t.say(said.key, said.params)
    a, b = (len(_pages(x, side, numbers)) for side in ("a", "b"))
    return Md(text + t("side_counts", a=a, b=b)) if a + b > 2 else text


def _pages(x: Contradiction, side: str, numbers: dict[str, int]) -> list[str]:
    return [s for s in narrative.side_sources(x, side) if s in numbers]


def _cause(
    x: Contradiction,
    claims: dict[str, Claim],
    numbers: dict[str, int],
    strength: dict[str, float],
    t: Strings,
) -> str:
    said = narrative.cause(x, claims, numbers, strength)
    return Md(t("sentence_sep") + t.say(said.key, said.params)) if said else Md("")


def _sources(data: ReportInput, numbers: dict[str, int], t: Strings) -> list[dict[str, Any]]:
    return [
        {
            "n": numbers[s.source_id],
            "title": s.title or s.url,
            # Linked only when it is an http(s) address; otherwise shown as text.
            "url": link_address(s.url) or s.url,
            "linked": link_address(s.url) is not None,
            "site": s.site,
            "published": s.published or t("unknown"),
            "page": Md(s.page) if s.page else Md(""),
            "kind": _kind(s.final_url or s.url, s.title, data.plan, t),
        }
        for s in data.notes.ok_sources()
    ]


def _kind(url: str, title: str, plan: Plan, t: Strings) -> str:
    """What kind of page it is; for an interested party, whose interest it is."""
    kind = classify(url, title, plan.options, language=plan.language)
    return kind.why if kind.interested else t.kind(kind.kind)


def _options(data: ReportInput, cite, t: Strings) -> list[dict[str, Any]]:
    origin = t("origin_question" if data.plan.options_source == "question" else "origin_given")
    rows = []
    for option in data.plan.options:
        mine = [c for c in data.crosscheck.claims if c.option == option]
        cites = cite([c.source_id for c in mine])
        detail = t("option_claims", count=len(mine), cites=cites) if cites else None
        rows.append({"name": option, "origin": origin, "detail": detail or t("option_no_claim")})
    return rows


def _dimensions(data: ReportInput, cite) -> list[dict[str, Any]]:
    return [
        {
            "name": d.name,
            "weight": d.weight,
            "cites": cite([c.source_id for c in data.crosscheck.claims if c.dimension == d.name]),
        }
        for d in data.plan.dimensions
    ]


def _cell(
    cell: ScoreCell,
    claims: dict[str, Claim],
    numbers: dict[str, int],
    cite,
    old: dict[str, Contradiction],
    t: Strings,
) -> dict[str, Any]:
    mine = [claims[i] for i in cell.claim_ids if i in claims]
    flagged = [
        c
        for c in claims.values()
        if c.flag and c.option == cell.option and c.dimension == cell.dimension
    ]
    evidence = [
        {
            "claim_id": c.id,
            "n": numbers[c.source_id],
            "quote": c.quote,
            "label": Md(
                _label(c, t)
                + (t("model_read_mark") if c.origin == "model" else "")
                + (t("superseded_mark", id=old[c.id].id) if c.id in old else "")
                + (f" · {t('flagged_line', flag=flag_text(c.flag))}" if c.flag else "")
            ),
        }
        for c in (*mine, *flagged)
        if c.source_id in numbers
    ]
    return {
        **cell.model_dump(),
        "cites": cite([c.source_id for c in mine]),
        "evidence": evidence,
        "flagged": any(c.source_id in numbers for c in flagged),
    }


def _label(claim: Claim, t: Strings) -> str:
    if claim.kind == "stance":
        return t("label_stance", value=t.value(claim.value), dimension=claim.dimension)
    if claim.kind == "statement":  # its value is the sentence itself, quoted right after
        return t("label_statement", attribute=t.attribute(claim.attribute))
    return t("label_fact", attribute=t.attribute(claim.attribute), value=t.value(claim.value))


def _topic_label(attribute: str, dimension: str | None, t: Strings) -> str:
    if attribute == "stance":
        return t("topic_stance", dimension=dimension or t("overall_merit"))
    return t.attribute(attribute)


def _contradiction(
    x: Contradiction,
    claims: dict[str, Claim],
    numbers: dict[str, int],
    strength: dict[str, float],
    t: Strings,
) -> dict[str, Any]:
    """Both sides in words, then each side's pages with their own words, then what the
    difference likely means. The stage's own note stays in round_4_crosscheck.json: it is
    written in English only."""
    said = narrative.describe(x, claims, numbers)
    return {
        "id": x.id,
        "option": x.option,
        "topic": _topic_label(x.attribute, x.dimension, t),
        "said": t.say(said.key, said.params),
        "cause": _cause(x, claims, numbers, strength, t),
        "judged": t("judged_by_model") if x.judged_by == "model" else "",
        "sides": [_side(x, side, claims, numbers, t) for side in ("a", "b")],
    }


def _side(
    x: Contradiction, side: str, claims: dict[str, Claim], numbers: dict[str, int], t: Strings
) -> dict[str, Any]:
    main, also = (x.a, x.a_also) if side == "a" else (x.b, x.b_also)
    pages = _pages(x, side, numbers)
    quotes = [
        {"n": numbers[s.source_id], "quote": s.quote, "mark": _side_mark(claims.get(s.claim_id), t)}
        for s in (main, *also)
        if s.source_id in numbers
    ]
    cites = Md(", ".join(f"[{n}]" for n in sorted({numbers[p] for p in pages})))
    return {"label": t(f"side_{side}", count=len(pages), cites=cites), "quotes": quotes}


def _side_mark(claim: Claim | None, t: Strings) -> str:
    """What goes before a side's quote: who read the claim, and its flag."""
    if claim is None:
        return Md("")
    marks = [t("model_read_mark").strip()] if claim.origin == "model" else []
    if claim.flag:
        marks.append(t("flagged_line", flag=flag_text(claim.flag)))
    return Md(" ".join(marks) + t("colon")) if marks else Md("")


def _consensus(k, claims: dict[str, Claim], numbers: dict[str, int], t: Strings) -> dict[str, Any]:
    quotes, seen = [], set()
    for claim_id in k.claim_ids:
        claim = claims.get(claim_id)
        if claim and claim.source_id in numbers and claim.source_id not in seen:
            seen.add(claim.source_id)
            quotes.append(
                {
                    "n": numbers[claim.source_id],
                    "quote": claim.quote,
                    "mark": _side_mark(claim, t),
                }
            )
    return {
        "option": k.option,
        "topic": _topic_label(k.attribute, k.dimension, t),
        "value": t.value(k.value),
        "agree": t("agree", count=len(k.sites), sites=", ".join(k.sites)),
        "quotes": quotes[:3],
    }


def _recommendation_cites(data: ReportInput, cite) -> str:
    option = data.decision.recommendation.option
    if option is None:
        return ""
    return cite([c.source_id for c in data.crosscheck.claims if c.option == option])


def _verified_line(data: ReportInput, cite, t: Strings) -> str:
    n = len(data.crosscheck.claims)
    if n:
        return t("verified", count=n, cites=cite([c.source_id for c in data.crosscheck.claims]))
    read = cite([s.source_id for s in data.notes.ok_sources()])
    return t("not_verified", cites=read) if read else t("not_verified_unread")


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
