"""What the report page shows, shaped from a run's artifacts for its templates.

Plain functions from the pydantic artifacts to small dataclasses: no request, no
database. The numbers, claims and quotes are the ones report.md prints (the same verified
claims, the same citation numbers); only the layout differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from reports import narrative
from reports.lines import mode_line, model_leans_line, scored
from research.artifacts import Decision
from research.outcomes import Outcome
from research.web.report import debate, matrix
from research.web.report.run_files import (
    EvidenceUrl,
    Quoter,
    RunFiles,
    rich,
)
from research.web.report.sources import sources
from research.web.report.strings import WebStrings

WARNING_ITEMS = 3  # what-would-raise-it items in the opening; the rest are further down


@dataclass
class Part:
    label: str
    value: float | None
    blank: str = ""  # said instead of a number that would measure nothing


def report_page(files: RunFiles, evidence_url: EvidenceUrl) -> dict[str, Any]:
    """The template context of the report page, in the question's language."""
    d, plan = files.decision, files.plan
    t = WebStrings(plan.language)
    quote = Quoter(files.numbers, evidence_url)
    return {
        "t": t,
        "L": t.labels(),
        "question": plan.question,
        "mode": mode_line(d, t),
        **_answer(files, quote, t),
        "chart": matrix.chart(d),
        "dimensions": [(dim.name, round(dim.weight * 100)) for dim in plan.dimensions],
        "rows": matrix.rows(files, quote, t),
        "formula": rich(t("matrix_intro", formula=matrix.formula(t))),
        "model_leans": model_leans_line(d, t),
        "contradictions": [
            debate.contradiction(x, files, quote, t) for x in files.crosscheck.contradictions
        ],
        "contradictions_corrected": _contradictions_corrected(files, t),
        "plan_options": plan.options,
        "plan_dimensions": [dim.name for dim in plan.dimensions],
        "consensus": [debate.consensus(k, files, quote, t) for k in files.crosscheck.consensus],
        "no_contradiction": _none_found("no_contradiction", files, t),
        "no_consensus": _none_found("no_consensus", files, t),
        "parts": _parts(d, t, bool(files.crosscheck.claims)),
        "method": d.assessment.method,
        "missing": d.missing_information,
        "not_read": d.not_read,
        "kept_not_read_intro": t("kept_not_read_intro", budget=plan.limits.max_pages),
        "unreachable": d.unreachable,
        "sources": sources(files, evidence_url, t),
        "no_source": t("no_source"),
        "unread_sources": [s for s in files.notes.sources if s.status is not Outcome.OK],
    }


def _answer(files: RunFiles, quote: Quoter, t: WebStrings) -> dict[str, Any]:
    """The opening: warning, recommendation, confidence, reasons, the top contradiction."""
    d = files.decision
    confidence = d.assessment.confidence
    low = confidence < d.threshold
    found = scored(files.crosscheck.contradictions, files.claims)
    top = narrative.top_contradiction(found, d, files.plan, files.claims)
    return {
        "low": low,
        "warning": rich(t("low_confidence", confidence=f"{confidence:.0f}", threshold=d.threshold)),
        "would_raise": d.missing_information[:WARNING_ITEMS],
        "would_raise_default": t("would_raise_default"),
        "more_missing": max(0, len(d.missing_information) - WARNING_ITEMS),
        "rec_label": t("rec_provisional" if low and d.recommendation.option else "rec_label"),
        "recommendation": d.recommendation.option,
        "confidence": round(confidence),
        "threshold": d.threshold,
        "gauge": matrix.Gauge(confidence, d.threshold, t("threshold", threshold=d.threshold)),
        "reasons": reasons(files, t),
        "top": debate.contradiction(top, files, quote, t) if top else None,
    }


def reasons(files: RunFiles, t: WebStrings, report_url: str = "") -> list[SafeString]:
    """The reasons that decided it, as the report gives them; the run page gives the same,
    its citations linked to the report's list of sources (`report_url`)."""
    said = narrative.reasons(
        files.decision, files.plan, files.claims, files.cite, list(files.numbers)
    )
    return [rich(t.say(s.key, s.params), report_url) for s in said]


def _contradictions_corrected(files: RunFiles, t: WebStrings) -> list[dict[str, Any]]:
    """The contradictions the reader found that the owner marked not real."""
    gone = []
    for x in (files.read or files.crosscheck).contradictions:
        fix = files.standing.get(x.id)
        if fix is not None:
            gone.append(
                {
                    "id": x.id,
                    "option": x.option,
                    "topic": debate.topic(x.attribute, x.dimension, t),
                    "said": matrix.correction_said(fix, files, t),
                    "note": fix.note,
                    "correction_id": fix.id,
                }
            )
    return gone


def _none_found(key: str, files: RunFiles, t: WebStrings) -> SafeString:
    """The sentence saying none was found among the sources read (or that none was read)."""
    if not files.numbers:
        return rich(t(f"{key}_unread"))
    return rich(t(key, cites=files.cite(list(files.numbers))))


def _parts(d: Decision, t: WebStrings, has_claims: bool = True) -> list[Part]:
    """Without a claim, consistency, timeliness and verifiability measure nothing: they
    say so instead of showing a number."""
    a = d.assessment
    blank = "" if has_claims else t("no_claim_part")
    return [
        Part(t("coverage"), a.coverage),
        Part(t("consistency"), None if blank else a.consistency, blank),
        Part(t("timeliness"), None if blank else a.timeliness, blank),
        Part(t("verifiability"), None if blank else a.verifiability, blank),
        Part(t("corroboration"), a.corroboration),
    ]
