"""What is missing, and what would raise confidence, in the plan's language (DESIGN section 2).

"Not found in what was read" and "not read" are told apart: a cell without evidence whose
option had kept pages that were never read (the reading budget) or could not be read
(timeouts, blocks) names those pages; otherwise it says how many pages were read.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date

from django.utils.translation import ngettext

from decisions.assessment import cell_support, evidence, options_with_primary
from decisions.scoring.contradictions import current_side
from decisions.scoring.sources import SourceInfo, years_before
from decisions.scoring.status import short
from research.artifacts import (
    Candidate,
    Claim,
    Contradiction,
    Crosscheck,
    Filtered,
    Notes,
    ScoreCell,
    SourceNotes,
)
from research.i18n import attribute_name, in_language, value_name, words
from research.outcomes import Outcome
from research.reading import mentions

STALE_YEARS = 3
NAMED_PAGES = 3  # pages named per line; the rest are counted


def _text(language: str) -> dict[str, str]:
    return words(language).MISSING


@dataclass(frozen=True)
class Reading:
    """What was read, and what was kept but never read, so a gap can say which it was."""

    notes: Notes
    filtered: Filtered | None = None
    max_pages: int | None = None


@dataclass(frozen=True)
class Unread:
    title: str
    url: str
    why: str


def unread_pages(option: str, reading: Reading, language: str = "en") -> list[Unread]:
    """Kept pages about the option that were left unread or could not be read."""
    text, read = _text(language), {s.source_id: s for s in reading.notes.sources}
    kept = reading.filtered.kept if reading.filtered else []
    pages = [_unread(k, read.get(k.id), reading, text) for k in kept if _about(k, option)]
    # Failed reads the filter's list does not know of (or no list was given).
    known = {k.id for k in kept}
    pages += [
        Unread(s.title or s.url, s.url, _failed(s, text))
        for s in reading.notes.sources
        if s.status is not Outcome.OK
        and s.source_id not in known
        and mentions(f"{s.title} {_words(s.url)}", option)
    ]
    return [p for p in pages if p is not None]


def _unread(
    kept: Candidate, src: SourceNotes | None, reading: Reading, text: dict[str, str]
) -> Unread | None:
    if src is None:
        return Unread(kept.title or kept.url, kept.url, text["budget"].format(n=reading.max_pages))
    if src.status is Outcome.OK:
        return None
    return Unread(kept.title or src.title or kept.url, kept.url, _failed(src, text))


def _failed(src: SourceNotes, text: dict[str, str]) -> str:
    return text["failed"].format(
        status=src.status.value + (f", {src.detail}" if src.detail else "")
    )


def _about(candidate: Candidate, option: str) -> bool:
    named = f"{candidate.title} {candidate.snippet} {_words(candidate.url)}"
    return candidate.option == option or mentions(named, option)


def _words(url: str) -> str:
    return re.sub(r"[-_/.]+", " ", url)


# --- gaps ---------------------------------------------------------------------------------


def gap_reason(option: str, dims: list[str], reading: Reading, language: str = "en") -> str:
    text = _text(language)
    unread = unread_pages(option, reading, language)
    shown = text["join"].join(dims)
    if not unread:
        n = len(reading.notes.ok_sources())
        with in_language(language):
            found_none = ngettext(
                "No evidence on {option} x {dims} was found in the {n} page read",
                "No evidence on {option} x {dims} was found in the {n} pages read",
                n,
            )
        return found_none.format(option=option, dims=shown, n=n)
    listed = [text["item"].format(title=p.title, url=p.url, why=p.why) for p in unread]
    if len(listed) > NAMED_PAGES:
        listed = [*listed[:NAMED_PAGES], text["more"].format(n=len(listed) - NAMED_PAGES)]
    with in_language(language):
        said = ngettext(
            "No evidence on {option} x {dims}; {n} page about {option} was not read: {listed}",
            "No evidence on {option} x {dims}; {n} pages about {option} were not read: {listed}",
            len(unread),
        )
    return said.format(option=option, dims=shown, n=len(unread), listed=text["sep"].join(listed))


def explain_gaps(
    cells: list[ScoreCell], reading: Reading, language: str = "en", offline: str = ""
) -> list[ScoreCell]:
    """Each missing cell carries the reason it is missing: no search could be made, when
    none could."""
    return [
        c.model_copy(
            update={"notes": [offline or gap_reason(c.option, [c.dimension], reading, language)]}
        )
        if c.missing
        else c
        for c in cells
    ]


def _gaps(cells: list[ScoreCell], reading: Reading, language: str) -> list[str]:
    by_option: dict[str, list[str]] = {}
    for cell in cells:
        if cell.missing:
            by_option.setdefault(cell.option, []).append(cell.dimension)
    return [gap_reason(o, dims, reading, language) for o, dims in by_option.items()]


# --- everything that would raise confidence -----------------------------------------------


def missing_information(
    cells: list[ScoreCell],
    crosscheck: Crosscheck,
    sources: dict[str, SourceInfo],
    reading: Reading | Notes,
    options: list[str],
    *,
    today: date | None = None,
    language: str = "en",
    offline: str = "",
) -> list[str]:
    """Sentences in a fixed order: missing cells, thinly backed cells, options without a
    primary source, contradictions, unreadable sources, then cells whose evidence is all old.

    `today` dates the staleness check; pass the run's date so a report can be reproduced.
    """
    reading = reading if isinstance(reading, Reading) else Reading(reading)
    text = _text(language)
    claims = {c.id: c for c in crosscheck.claims}
    counted = evidence(crosscheck.claims, sources)
    primary = options_with_primary(counted, sources)
    return [
        # No search could be made: one sentence says why, not one per option.
        *([offline] if offline else _gaps(cells, reading, language)),
        *_thin(cells, counted, sources, text),
        *(text["no_primary"].format(o=o) for o in options if o not in primary),
        *(_disagreement(x, claims, text, language) for x in crosscheck.contradictions),
        *_unreadable(reading.notes, language),
        *_stale(cells, claims, sources, today or date.today(), text),
    ]


def _thin(
    cells: list[ScoreCell], claims: list[Claim], sources: dict[str, SourceInfo], text: dict
) -> list[str]:
    thin = [
        text["cell"].format(option=c.option, dim=c.dimension)
        for c in cells
        if not c.missing and cell_support(c, claims, sources) == 0
    ]
    return [text["thin"].format(cells=text["join"].join(thin))] if thin else []


def _disagreement(
    contradiction: Contradiction, claims: dict[str, Claim], text: dict, language: str
) -> str:
    x = contradiction
    a, b = (claims.get(side.claim_id) for side in (x.a, x.b))
    if a is None or b is None or a.kind != "fact" or b.kind != "fact":
        # Stances and whole statements have no short value: the sources' own words show it.
        subject = x.dimension or text["overall"]
        said = (f'"{short(x.a.quote)}"', f'"{short(x.b.quote)}"')
    else:
        subject = attribute_name(a.attribute, language)
        said = (value_name(a.value, language), value_name(b.value, language))
    side = current_side(x)
    if side is not None:  # the earlier state first, then today's
        earlier, now = said if side == "b" else said[::-1]
        return text["changed"].format(
            o=x.option, subject=subject, said=text["then_now"].format(a=earlier, b=now)
        )
    key = "scoped" if x.cause == "scope" else "disagree"
    return text[key].format(
        o=x.option, subject=subject, said=text["vs"].format(a=said[0], b=said[1])
    )


def _unreadable(notes: Notes, language: str) -> list[str]:
    failed = Counter(s.status for s in notes.sources if s.status is not Outcome.OK)
    if not failed:
        return []
    count = sum(failed.values())
    # Enum order, so the sentence is the same on every run.
    by_outcome = ", ".join(f"{o.value}: {failed[o]}" for o in Outcome if o in failed)
    with in_language(language):
        said = ngettext(
            "{n} source could not be read ({outcomes})",
            "{n} sources could not be read ({outcomes})",
            count,
        )
    return [said.format(n=count, outcomes=by_outcome)]


def _stale(
    cells: list[ScoreCell],
    claims: dict[str, Claim],
    sources: dict[str, SourceInfo],
    today: date,
    text: dict,
) -> list[str]:
    lines = []
    for cell in cells:
        dates = _source_dates(cell, claims, sources)
        # An undated source might be current, so only a cell with every date known and old
        # is called stale.
        if dates and all(d is not None and _older_than(d, today) for d in dates):
            newest = max(d for d in dates if d is not None)
            lines.append(
                text["stale"].format(
                    o=cell.option, d=cell.dimension, years=STALE_YEARS, newest=newest.isoformat()
                )
            )
    return lines


def _source_dates(
    cell: ScoreCell, claims: dict[str, Claim], sources: dict[str, SourceInfo]
) -> list[date | None]:
    ids = dict.fromkeys(claims[i].source_id for i in cell.claim_ids if i in claims)
    return [sources[sid].published for sid in ids if sid in sources]


def _older_than(published: date, today: date) -> bool:
    return published < years_before(today, STALE_YEARS)
