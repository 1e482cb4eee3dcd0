"""The Markdown report: built from the decision with a Jinja2 template, then checked.

Every quote is checked against the stored text of the source it cites before the report is
written, and a report without all of its sections is an error, never a partial success.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from research.artifacts import Claim, Crosscheck, Decision, Filtered, Notes, Plan, ScoreCell
from research.stages.sourcekind import classify

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "reports"
SECTIONS = (
    "Background",
    "Options",
    "Dimensions and weights",
    "Score matrix",
    "Contradictions and consensus",
    "Recommendation",
    "Confidence and missing information",
)
QUOTE = re.compile(r"\[(\d+)\] “(.+)”")


class ReportIncomplete(Exception):
    """The rendered report lacks a section, or a section lacks its evidence."""


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


def _env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )  # Markdown, not HTML
    env.filters["cell"] = lambda text: str(text).replace("|", "\\|").replace("\n", " ")
    env.filters["link_text"] = lambda text: re.sub(r"[\[\]]", "", str(text)) or "untitled"
    return env


def render(data: ReportInput) -> str:
    numbers = {s.source_id: n for n, s in enumerate(data.notes.ok_sources(), 1)}
    claims = {c.id: c for c in data.crosscheck.claims}
    text = _env().get_template("report.md.j2").render(**_context(data, numbers, claims))
    validate(text, data.pages, {n: sid for sid, n in numbers.items()}, bool(numbers))
    return text


def _context(
    data: ReportInput, numbers: dict[str, int], claims: dict[str, Claim]
) -> dict[str, Any]:
    d = data.decision
    cite = _citer(numbers, claims)
    return {
        "question": data.plan.question,
        "run_id": data.run_id,
        "generated": data.generated,
        "mode_label": "deterministic analysis (no LLM)"
        if d.mode == "deterministic"
        else "LLM-assisted analysis",
        "low_confidence": d.assessment.confidence < d.threshold,
        "threshold": d.threshold,
        "a": d.assessment,
        "missing": d.missing_information,
        "unreachable": d.unreachable,
        "providers": data.plan.sources,
        "kept": len(data.filtered.kept),
        "read": len(data.notes.sources),
        "cite_all": cite(list(numbers)),
        "sources": _sources(data, numbers),
        "options": _options(data, cite),
        "dimensions": _dimensions(data, cite),
        "cells": [_cell(c, claims, numbers, cite) for c in d.matrix],
        "ranking": d.ranking,
        "contradictions": [_contradiction(x, numbers) for x in data.crosscheck.contradictions],
        "consensus": [_consensus(k, claims, numbers) for k in data.crosscheck.consensus],
        "rec": d.recommendation,
        "rec_cites": _recommendation_cites(data, cite),
        "verified_line": _verified_line(data, cite),
    }


def _citer(numbers: dict[str, int], claims: dict[str, Claim]):
    def cite(source_ids: list[str]) -> str:
        ns = sorted({numbers[s] for s in source_ids if s in numbers})
        return ", ".join(f"[{n}]" for n in ns)

    return cite


def _sources(data: ReportInput, numbers: dict[str, int]) -> list[dict[str, Any]]:
    return [
        {
            "n": numbers[s.source_id],
            "title": s.title or s.url,
            "url": s.url,
            "site": s.site,
            "published": s.published,
            "page": s.page,
            "kind": classify(s.final_url or s.url, s.title, data.plan.options).kind,
        }
        for s in data.notes.ok_sources()
    ]


def _options(data: ReportInput, cite) -> list[dict[str, Any]]:
    origin = "named in the question" if data.plan.options_source == "question" else "given"
    rows = []
    for option in data.plan.options:
        mine = [c for c in data.crosscheck.claims if c.option == option]
        rows.append(
            {
                "name": option,
                "origin": origin,
                "claims": len(mine),
                "cites": cite([c.source_id for c in mine]),
            }
        )
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
    cell: ScoreCell, claims: dict[str, Claim], numbers: dict[str, int], cite
) -> dict[str, Any]:
    mine = [claims[i] for i in cell.claim_ids if i in claims]
    evidence = [
        {"claim_id": c.id, "n": numbers[c.source_id], "quote": c.quote, "label": _label(c)}
        for c in mine
        if c.source_id in numbers
    ]
    return {**cell.model_dump(), "cites": cite([c.source_id for c in mine]), "evidence": evidence}


def _label(claim: Claim) -> str:
    if claim.kind == "stance":
        return f"{claim.value} on {claim.dimension}"
    return f"{claim.attribute}: {claim.value}"


def _topic_label(attribute: str, dimension: str | None) -> str:
    if attribute == "stance":
        return f"judgement on {dimension}"
    return attribute.replace("_", " ")


def _contradiction(x, numbers: dict[str, int]) -> dict[str, Any]:
    return {
        "id": x.id,
        "option": x.option,
        "attribute": _topic_label(x.attribute, x.dimension),
        "note": x.note,
        "a_n": numbers[x.a.source_id],
        "a_quote": x.a.quote,
        "b_n": numbers[x.b.source_id],
        "b_quote": x.b.quote,
    }


def _consensus(k, claims: dict[str, Claim], numbers: dict[str, int]) -> dict[str, Any]:
    quotes, seen = [], set()
    for claim_id in k.claim_ids:
        claim = claims.get(claim_id)
        if claim and claim.source_id in numbers and claim.source_id not in seen:
            seen.add(claim.source_id)
            quotes.append({"n": numbers[claim.source_id], "quote": claim.quote})
    return {
        "option": k.option,
        "attribute": _topic_label(k.attribute, k.dimension),
        "value": k.value,
        "sites": k.sites,
        "quotes": quotes[:3],
    }


def _recommendation_cites(data: ReportInput, cite) -> str:
    option = data.decision.recommendation.option
    if option is None:
        return ""
    return cite([c.source_id for c in data.crosscheck.claims if c.option == option])


def _verified_line(data: ReportInput, cite) -> str:
    n = len(data.crosscheck.claims)
    if not n:
        return "No quote could be verified."
    return (
        f"All {n} claims in this report were checked to appear verbatim in the stored "
        f"text of the source they cite: {cite([c.source_id for c in data.crosscheck.claims])}."
    )


def validate(text: str, pages: dict[str, str], sources: dict[int, str], has_evidence: bool) -> None:
    """Raise ReportIncomplete unless every section is there, in order, citing evidence, and
    every quote is an exact substring of the stored text of the source it cites."""
    bodies = _sections(text)
    if list(bodies) != list(SECTIONS):
        missing = [s for s in SECTIONS if s not in bodies]
        raise ReportIncomplete(
            f"report sections missing or out of order: {missing or list(bodies)}"
        )
    if has_evidence:
        uncited = [name for name, body in bodies.items() if not re.search(r"\[\d+\]", body)]
        if uncited:
            raise ReportIncomplete(f"report sections cite no evidence: {uncited}")
    for match in QUOTE.finditer(text):
        source_id = sources.get(int(match.group(1)))
        if source_id is None or match.group(2) not in pages.get(source_id, ""):
            raise ReportIncomplete(
                f"quote not found in source [{match.group(1)}]: {match.group(2)[:60]!r}"
            )


def _sections(text: str) -> dict[str, str]:
    bodies: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            if current in SECTIONS:
                bodies[current] = ""
            else:
                current = None
        elif current is not None:
            bodies[current] += line + "\n"
    return bodies
