"""What each section of the report says, built from a ReportInput: the options and
dimensions, each cell of the matrix, the totals, the contradictions and consensus, the
sources, and the lines that cite the evidence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from decisions.scoring.sources import source_infos, standing
from reports import narrative
from reports.lines import evidence_line, flag_text, scored
from reports.markdown import Md, link_address
from reports.strings import Strings
from research.artifacts import (
    Claim,
    Contradiction,
    Correction,
    Crosscheck,
    Decision,
    Filtered,
    Notes,
    Plan,
    RankedOption,
    ScoreCell,
    SourceNotes,
)
from research.reading import classify


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
    # The owner's corrections of the reader, undone ones included (they say so).
    corrections: tuple[Correction, ...] = ()


def correction_lines(data: ReportInput, t: Strings) -> list[str]:
    """One line per correction: what was corrected, how, by whom and when, and its note."""
    return [
        t(
            "correction_line",
            target=k.target_id,
            kind=t(f"correction_{k.kind}"),
            should="" if k.value is None else t("correction_should_be", value=k.value or "-"),
            who=k.by,
            when=k.at[:10],
            note=t("correction_note", note=k.note) if k.note else "",
            undone=""
            if not k.undone_at
            else t("correction_undone", who=k.undone_by or "", when=k.undone_at[:10]),
        )
        for k in data.corrections
    ]


def ranked(r: RankedOption, data: ReportInput, t: Strings) -> str:
    """ "1. Loamdb: 62.3 (evidence on 2 of 3 dimensions, 65% of the weight)" """
    if r.total is None:
        return t("total_item_none", rank=r.rank, option=r.option, total=t("no_total"))
    share = evidence_line(r, data.decision, data.plan, t)
    return t("total_item", rank=r.rank, option=r.option, total=f"{r.total:.1f}", share=share)


def strengths(data: ReportInput, claims: dict[str, Claim]) -> dict[str, float]:
    """Claim id -> how much its source counts for it, as the scores count it."""
    infos = source_infos(data.notes, data.plan.options, data.plan.language)
    return {
        c.id: standing(c, infos[c.source_id]).strength
        for c in claims.values()
        if c.source_id in infos
    }


def top_contradiction_line(
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
    return Md(t("then_sentence", sentence=t.say(said.key, said.params))) if said else Md("")


def source_lines(data: ReportInput, numbers: dict[str, int], t: Strings) -> list[dict[str, Any]]:
    return [
        {
            "n": numbers[s.source_id],
            "title": s.title or s.url,
            # Linked only when it is an http(s) address; otherwise shown as text.
            "url": link_address(s.url) or s.url,
            "linked": link_address(s.url) is not None,
            "local": s.url.startswith("file:"),  # a server path: named by its title only
            "site": s.site,
            "published": _dated(s, t),
            "page": Md(s.page) if s.page else Md(""),
            "kind": _record_kind(s.kind, t) or _kind(s.final_url or s.url, s.title, data.plan, t),
        }
        for s in data.notes.ok_sources()
    ]


def _dated(s: SourceNotes, t: Strings) -> str:
    """When the page was published and updated, and where those dates were read."""
    said = s.published or t("unknown")
    if s.updated:
        said += t("updated_on", date=s.updated)
    if s.date_source:
        said += t("dates_from", where=_where(s.date_source, t))
    return said


# Where deep-read found a page's dates (research.providers.pagedates, research.stages.records),
# as it records them, and the report's words for each.
_DATE_SOURCES = [
    (re.compile(r"HTML metadata$"), "dates_html"),
    (re.compile(r"Last-Modified header$"), "dates_header"),
    (re.compile(r"the search result$"), "dates_search"),
    (re.compile(r"front matter (?P<keys>.+)$"), "dates_front_matter"),
    (re.compile(r"the (?P<site>.+) record, retrieved (?P<day>[\d-]+)$"), "dates_record"),
    (re.compile(r"the (?P<site>.+) record's own dates$"), "dates_record_own"),
    (
        re.compile(r"the (?P<site>.+) record's own dates, as of (?P<day>[\d-]+)$"),
        "dates_record_as_of",
    ),
]


def _where(detail: str, t: Strings) -> str:
    for pattern, key in _DATE_SOURCES:
        if found := pattern.match(detail):
            return t(key, **found.groupdict())
    return detail


def _record_kind(kind: str | None, t: Strings) -> str:
    if kind is None:
        return ""
    return t("kind_registry" if kind == "registry" else "kind_primary_record")


def _kind(url: str, title: str, plan: Plan, t: Strings) -> str:
    """What kind of page it is; for an interested party, whose interest it is."""
    kind = classify(url, title, plan.options, language=plan.language)
    return kind.why if kind.interested else t.kind(kind.kind)


def option_items(data: ReportInput, cite, t: Strings) -> list[dict[str, Any]]:
    origin = t("origin_question" if data.plan.options_source == "question" else "origin_given")
    rows = []
    for option in data.plan.options:
        mine = [c for c in data.crosscheck.claims if c.option == option]
        cites = cite([c.source_id for c in mine])
        detail = t("option_claims", count=len(mine), cites=cites) if cites else None
        rows.append({"name": option, "origin": origin, "detail": detail or t("option_no_claim")})
    return rows


def dimension_items(data: ReportInput, cite) -> list[dict[str, Any]]:
    return [
        {
            "name": d.name,
            "weight": d.weight,
            "cites": cite([c.source_id for c in data.crosscheck.claims if c.dimension == d.name]),
        }
        for d in data.plan.dimensions
    ]


def cell_item(
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


def contradiction_item(
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


def consensus_item(
    k, claims: dict[str, Claim], numbers: dict[str, int], t: Strings
) -> dict[str, Any]:
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


def recommendation_cites(data: ReportInput, cite) -> str:
    option = data.decision.recommendation.option
    if option is None:
        return ""
    return cite([c.source_id for c in data.crosscheck.claims if c.option == option])


def verified_line(data: ReportInput, cite, t: Strings) -> str:
    n = len(data.crosscheck.claims)
    if n:
        return t("verified", count=n, cites=cite([c.source_id for c in data.crosscheck.claims]))
    sources = data.notes.ok_sources()
    read = cite([s.source_id for s in sources])
    if not read:
        return t("not_verified_unread")
    noted = sum(len(s.key_points) for s in sources)
    return (
        t("not_verified", count=noted, cites=read)
        if noted
        else t("not_verified_nothing", cites=read)
    )
