"""The Markdown report: built from the decision with a Jinja2 template, then checked.

It leads with the answer (warning, recommendation, confidence, the reasons that decided it,
the contradiction that matters most), then gives the sections DESIGN section 2 fixes, in the
question's language (reports.strings). Every quote is checked against the stored text of the
source it cites before the report is written, and a report without all of its sections is
an error, never a partial success (reports.check). What each section says is built in
reports.sections, and the lines the report pages print too in reports.lines.

What the model did in LLM mode is marked where it shows: claims and contradictions it read
or judged, the cells whose lean it gave, and claims flagged because the deterministic reader
reads their quote the other way (shown with the flag's words, counted in no score).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import translation
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from decisions.scoring.cell import WEIGHTS
from decisions.scoring.contradictions import superseded
from reports import narrative
from reports.check import validate
from reports.lines import mode_line, model_leans_line, no_rec_why, number, rec_line
from reports.markdown import Md, cell, escape
from reports.sections import (
    ReportInput,
    cell_item,
    consensus_item,
    contradiction_item,
    correction_lines,
    dimension_items,
    option_items,
    ranked,
    recommendation_cites,
    source_lines,
    strengths,
    top_contradiction_line,
    verified_line,
)
from reports.strings import Strings
from research.artifacts import (
    Claim,
)
from research.i18n import django_language
from research.sources import label_for

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "reports"


# The low-confidence warning lists this many items; the full list is in its own section.
WARNING_ITEMS = 3


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


@cache
def _env(language: str) -> Environment:
    """One environment per language, so a worker compiles the template once."""
    t = MarkdownStrings(language)
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
    # Whatever else speaks (a source's kind) speaks the question's language too.
    with translation.override(django_language(t.language)):
        text = (
            _env(t.language)
            .get_template("report.md.j2")
            .render(**_context(data, numbers, claims, t))
        )
    sources = {n: sid for sid, n in numbers.items()}
    validate(text, data.pages, sources, bool(numbers), language=t.language)
    return text


def _context(
    data: ReportInput, numbers: dict[str, int], claims: dict[str, Claim], t: Strings
) -> dict[str, Any]:
    d = data.decision
    cite = _citer(numbers)
    low = d.assessment.confidence < d.threshold
    strength = strengths(data, claims)
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
        # As the pages name them: a configured name or the kind, never a server path.
        "providers": list(dict.fromkeys(label_for(spec) for spec in data.plan.sources)),
        "kept": len(data.filtered.kept),
        "read": len(data.notes.sources),
        "cite_all": cite(list(numbers)),
        "has_claims": bool(claims),
        "sources": source_lines(data, numbers, t),
        "options": option_items(data, cite, t),
        "dimensions": dimension_items(data, cite),
        "matrix_formula": Md(" + ".join(f"{w} x {t('part_' + p)}" for p, w in WEIGHTS.items())),
        "model_leans": model_leans_line(d, t),
        "cells": [cell_item(c, claims, numbers, cite, old, t) for c in d.matrix],
        "totals": [ranked(r, data, t) for r in d.ranking],
        "corrections": correction_lines(data, t),
        "contradictions": [
            contradiction_item(x, claims, numbers, strength, t)
            for x in data.crosscheck.contradictions
        ],
        "consensus": [consensus_item(k, claims, numbers, t) for k in data.crosscheck.consensus],
        "rec": d.recommendation,
        "rec_line": rec_line(d, low, t),
        "no_rec_why": no_rec_why(d, t),
        "reasons": [
            t.say(s.key, s.params)
            for s in narrative.reasons(d, data.plan, claims, cite, list(numbers))
        ],
        "top": top_contradiction_line(data, claims, numbers, strength, t),
        "rec_cites": recommendation_cites(data, cite),
        "method": d.assessment.method,
        "corroboration": number(d.assessment.corroboration, t),
        "not_read": d.not_read,
        "budget": data.plan.limits.max_pages,
        "verified_line": verified_line(data, cite, t),
    }


def _citer(numbers: dict[str, int]) -> narrative.Cite:
    def cite(source_ids: list[str]) -> str:
        ns = sorted({numbers[s] for s in source_ids if s in numbers})
        return Md(", ".join(f"[{n}]" for n in ns))

    return cite
