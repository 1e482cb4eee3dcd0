"""A primary source's record as a page of the run (deep-read), and its typed facts as
claims (cross-validate).

The record is stored like any page: the same front matter, then the record's own text, so
every fact's quote (a whole line of the record) stands at its offset in the stored text.
A record is dated by what it says (a package's latest stable release, a repository's last
push, a trial's last update), so an abandoned package is old news however recently it was
asked for; the day it was retrieved is shown as "as of", and a registry's statement of the
project's state (its release history, archived or not) holds on that day.
"""

from __future__ import annotations

import re
from datetime import date

from research.artifacts import Claim, KeyPoint, Plan, PrimaryRecordDoc, RecordFact, SourceNotes
from research.names import page_artifact
from research.outcomes import Outcome
from research.providers.primary.dates import ON_RHYTHM, parse_history
from research.providers.urls import source_id
from research.reading import (
    PERMISSIVE,
    RESTRICTIVE,
    dimension_for,
    licences,
    normalise_version,
    results_hits,
)
from research.stages.plan.primary import called_for

SITES = {
    "github": "GitHub",
    "pypi": "PyPI",
    "npm": "npm",
    "crates": "crates.io",
    "wikipedia": "Wikipedia",
    "arxiv": "arXiv",
    "europepmc": "Europe PMC",
    "clinicaltrials": "ClinicalTrials.gov",
}
ACTIVE_DAYS = 365  # a release or push within a year of the record: maintained
STOPPED_DAYS = 730  # nothing for two years: releases have stopped
_DATED = ("latest_release", "last_push")
# Release history speaks to the same dimensions as a release date.
_CONCEPTS = {"release_cadence": "release_date", "release_history": "release_date"}
_RESULT_WORDS = re.compile(r"\b(?:results?|trials?|outcomes?)\b|结果|试验", re.I)


def record_page(doc: PrimaryRecordDoc, header: str) -> tuple[SourceNotes, str]:
    """The record's notes and stored text (`header` is deep-read's front matter); each fact
    gets the offset of its line, and is left out when its line is not there."""
    stored = header + doc.text
    facts = []
    for fact in doc.facts:
        at = _line_at(stored, fact.quote, len(header))
        if at is not None:
            facts.append(fact.model_copy(update={"offset": at}))
    published, updated = record_dates(doc)
    notes = SourceNotes(
        source_id=source_id(doc.url),
        url=doc.url,
        title=doc.title,
        published=published,
        updated=updated,
        date_source=date_source(doc),
        site=SITES.get(doc.provider, doc.provider),
        status=Outcome.OK,
        chars=len(doc.text),
        page=page_artifact(source_id(doc.url)),
        kind=doc.source_kind,
        facts=facts,
        key_points=[_point(f) for f in facts],
    )
    return notes, stored


def record_dates(doc: PrimaryRecordDoc) -> tuple[str | None, str | None]:
    """(published, updated): the record's own dates, never the day it was retrieved."""
    return doc.published, doc.updated if doc.updated != doc.published else None


def date_source(doc: PrimaryRecordDoc) -> str:
    site = SITES.get(doc.provider, doc.provider)
    return f"the {site} record's own dates, as of {doc.retrieved_at[:10]}"


def _line_at(stored: str, quote: str, start: int) -> int | None:
    at = stored.find(f"- {quote}", start)
    return at + 2 if at >= 0 else None


def _point(fact: RecordFact) -> KeyPoint:
    return KeyPoint(text=fact.quote, quote=fact.quote, offset=fact.offset, option=fact.option)


# --- facts as claims ---------------------------------------------------------------------


def record_claims(plan: Plan, src: SourceNotes, first_id: int) -> list[Claim]:
    """The claims a record's facts make, numbered from `first_id`."""
    drafts = [d for fact in src.facts for d in _drafts(fact)]
    drafts += _maintenance(src.facts)
    claims = []
    for fact, attribute, value, polarity in drafts:
        dimension = _dimension(plan, attribute, fact.provider)
        if dimension is None:
            continue
        claims.append(
            Claim(
                id=f"c{first_id + len(claims):03d}",
                option=fact.option,
                dimension=dimension,
                attribute=attribute,
                kind="fact",
                value=value,
                polarity=polarity,
                source_id=src.source_id,
                quote=fact.quote,
                offset=fact.offset,
                source_kind=src.kind,
                date=fact.event_date or fact.as_of,
            )
        )
    return claims


Draft = tuple[RecordFact, str, str, int]


def _drafts(fact: RecordFact) -> list[Draft]:
    if fact.attribute == "licence":
        return [_licence(fact)]
    if fact.attribute == "latest_release":
        return [(fact, "latest_version", normalise_version(fact.value), 0)]
    if fact.attribute == "last_push":
        return [(fact, "last_commit", fact.value, 0)]
    if fact.attribute in ("stars", "release_cadence", "release_history"):
        return [(fact, fact.attribute, fact.value, 0)]
    if fact.attribute == "trial_primary_result":
        return [(fact, fact.attribute, fact.value, _result_polarity(fact.quote))]
    if fact.attribute in ("trial_status", "trial_design", "trial_primary_outcome", "paper"):
        return [(fact, fact.attribute, fact.value, 0)]
    return []


def _licence(fact: RecordFact) -> Draft:
    named = sorted({name for _, name in licences(fact.value)})
    value = named[0] if len(named) == 1 else fact.value
    polarity = 1 if value in PERMISSIVE else -1 if value in RESTRICTIVE else 0
    return fact, "licence", value, polarity


def _result_polarity(quote: str) -> int:
    weights = [weight for _, _, weight in results_hits(quote)]
    total = sum(weights)
    return 1 if total > 0 else -1 if total < 0 else 0


def _maintenance(facts: list[RecordFact]) -> list[Draft]:
    """One maintenance status per record and option: archived, deprecated or discontinued says so
    outright; then the stable release history; else the freshest release or push, by its
    age on the day retrieved."""
    by_option: dict[str, list[RecordFact]] = {}
    for fact in facts:
        by_option.setdefault(fact.option, []).append(fact)
    found: list[Draft] = []
    for option_facts in by_option.values():
        status = _stopped(option_facts) or _from_history(option_facts) or _from_age(option_facts)
        if status is not None:
            fact, value, polarity = status
            # The status holds on the day the record was retrieved, not on its last release.
            held = fact.model_copy(update={"event_date": fact.as_of})
            found.append((held, "maintenance", value, polarity))
    return found


Status = tuple[RecordFact, str, int]


def _stopped(facts: list[RecordFact]) -> Status | None:
    stopped = [
        f
        for f in facts
        if (f.attribute == "archived" and f.value == "true")
        or f.attribute in ("deprecated", "discontinued")
    ]
    return (stopped[0], "inactive", -1) if stopped else None


def _from_history(facts: list[RecordFact]) -> Status | None:
    """Stable releases in the last year: active. None in the last year but some in the
    two: active when the last one is within the project's usual pace (a mature library
    that releases once a year), else slowing. None in two years: inactive."""
    for fact in facts:
        read = parse_history(fact.value) if fact.attribute == "release_history" else None
        if read is None:
            continue
        in_12, in_24, age, gap = read
        if in_12 or (in_24 and gap is not None and age <= ON_RHYTHM * gap):
            return fact, "active", 1
        return (fact, "slowing", -1) if in_24 else (fact, "inactive", -1)
    return None


def _from_age(facts: list[RecordFact]) -> Status | None:
    dated = [f for f in facts if f.attribute in _DATED and _day(f.event_date)]
    if not dated:
        return None
    freshest = max(dated, key=lambda f: _day(f.event_date) or date.min)
    age = _age(freshest)
    if age is None:
        return None
    if age <= ACTIVE_DAYS:
        return freshest, "active", 1
    return (freshest, "slowing", -1) if age <= STOPPED_DAYS else (freshest, "inactive", -1)


def _age(fact: RecordFact) -> int | None:
    then, now = _day(fact.event_date), _day(fact.as_of)
    return (now - then).days if then and now else None


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat((value or "")[:10])
    except ValueError:
        return None


def _dimension(plan: Plan, attribute: str, provider: str) -> str | None:
    """The dimension a record's fact speaks to: the one its attribute names (licence on
    licence risk), or for a trial's or paper's facts the dimension that called for them,
    a trial-results dimension first."""
    names = [d.name for d in plan.dimensions]
    if not attribute.startswith(("trial_", "paper")):
        return dimension_for(_CONCEPTS.get(attribute, attribute), names)
    calling = [name for name in names if provider in called_for(name)]
    if attribute == "trial_primary_result":
        results = [name for name in calling if _RESULT_WORDS.search(name)]
        return (results or calling or [None])[0]
    return calling[0] if calling else None
