"""ClinicalTrials.gov's API v2: GET /studies (a search) or /studies/<NCT id> (one study).

A search asks for studies of the option as an intervention (`query.intr`) and the
question's words (`query.term`); pages follow each other by `nextPageToken`. Each study
becomes a record with its design, arms, primary outcomes, dates and status, and, where
results were posted, the primary outcomes' results as the registry states them: the
values per group and the analyses (hazard ratio, confidence interval, p-value).
"""

from __future__ import annotations

import re

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.netguard import Resolver, resolve
from research.providers.primary.base import (
    DEFAULT_DEADLINE,
    ApiProvider,
    gap,
    items,
    number,
    obj,
    require_dict,
    text,
)
from research.providers.primary.client import ApiAnswer, ApiClient
from research.providers.primary.dates import iso_day
from research.providers.primary.records import (
    Gap,
    PrimaryFact,
    PrimaryRecord,
    PrimaryResult,
    RecordWriter,
    Subject,
)
from research.providers.primary.trials import analysis_lines, result_line

PAGE_SIZE = 10
MAX_PAGES = 5
_NCT = re.compile(r"^NCT\d{8}$", re.IGNORECASE)


def words(value: str) -> str:
    """An enum as people write it: 'PARALLEL' -> 'parallel', 'PHASE3' -> 'Phase 3'."""
    phase = re.fullmatch(r"(EARLY_)?PHASE(\d)", value)
    if phase:
        return ("Early Phase " if phase.group(1) else "Phase ") + phase.group(2)
    return value.replace("_", " ").lower()


class ClinicalTrialsProvider(ApiProvider):
    name = "clinicaltrials"
    label = "ClinicalTrials.gov"
    service = "the ClinicalTrials.gov API"
    source_kind = "primary"

    def __init__(
        self,
        client: ApiClient,
        *,
        deadline: float = DEFAULT_DEADLINE,
        resolver: Resolver = resolve,
        page_size: int = PAGE_SIZE,
    ) -> None:
        super().__init__(client, deadline=deadline, resolver=resolver)
        self.page_size = page_size

    def _lookup(self, subject: Subject, call: Call) -> PrimaryResult:
        if _NCT.match(subject.identifier.strip()):
            nct = subject.identifier.strip().upper()
            answer = self.client.get(f"studies/{nct}", {"format": "json"}, call=call)
            if not answer.ok:
                return self.failed(subject, answer, f"study {nct}")
            studies = [(require_dict(answer.data, "the study"), answer)]
            return self._result(subject, studies, [])
        if not subject.option.strip() and not subject.query.strip():
            return self.result(subject, Outcome.NO_HIT, detail="nothing to search for")
        return self._search(subject, call)

    def _search(self, subject: Subject, call: Call) -> PrimaryResult:
        limit = max(1, subject.limit)
        studies: list[tuple[dict, ApiAnswer]] = []
        gaps: list[Gap] = []
        token = ""
        for _page in range(MAX_PAGES):
            params = {
                "query.intr": subject.option.strip() or None,
                "query.term": " ".join(subject.query.split()) or None,
                "pageSize": min(self.page_size, limit - len(studies)),
                "format": "json",
                "pageToken": token or None,
            }
            answer = self.client.get("studies", params, call=call, endpoint=True)
            if not answer.ok and not studies:
                return self.failed(subject, answer)
            if not answer.ok:
                gaps.append(gap("trials", answer, "the next page of studies"))
                break
            page = require_dict(answer.data, "the studies answer")
            batch = [study for study in items(page, "studies") if isinstance(study, dict)]
            studies += [(study, answer) for study in batch]
            token = text(page, "nextPageToken")
            if len(studies) >= limit or not batch or not token:
                break
        if not studies:
            detail = "ClinicalTrials.gov has no studies"
            if subject.option.strip():
                detail += f" of {subject.option.strip()!r}"
            if subject.query.strip():
                detail += f" matching {subject.query.strip()!r}"
            return self.result(subject, Outcome.NO_HIT, detail=detail)
        return self._result(subject, studies[:limit], gaps)

    def _result(
        self, subject: Subject, studies: list[tuple[dict, ApiAnswer]], gaps: list[Gap]
    ) -> PrimaryResult:
        records: list[PrimaryRecord] = []
        facts: list[PrimaryFact] = []
        for study, answer in studies:
            built = self._record(subject, answer, study, gaps)
            if built is not None:
                records.append(built[0])
                facts += built[1]
        if not records:
            return self.result(subject, Outcome.UNAVAILABLE, detail="no study had an NCT id")
        return self.result(subject, Outcome.OK, records=records, facts=facts, gaps=gaps)

    def _record(
        self, subject: Subject, answer: ApiAnswer, study: dict, gaps: list[Gap]
    ) -> tuple[PrimaryRecord, list[PrimaryFact]] | None:
        protocol = obj(study, "protocolSection")
        ident = obj(protocol, "identificationModule")
        nct = text(ident, "nctId")
        if not nct:
            return None
        title = text(ident, "briefTitle") or text(ident, "officialTitle") or nct
        if text(ident, "acronym"):
            title += f" ({text(ident, 'acronym')})"
        url = f"https://clinicaltrials.gov/study/{nct}"
        record = self.writer(subject, answer, url=url, title=f"{nct}: {title}")
        if text(ident, "officialTitle"):
            record.line(f"Official title: {text(ident, 'officialTitle')}")
        conditions = [
            c for c in items(obj(protocol, "conditionsModule"), "conditions") if isinstance(c, str)
        ]
        if conditions:
            record.line(f"Conditions: {', '.join(conditions)}")
        sponsor = text(obj(protocol, "sponsorCollaboratorsModule", "leadSponsor"), "name")
        if sponsor:
            record.fact("trial_sponsor", sponsor, f"Lead sponsor of {nct}: {sponsor}")
        dates = _status(record, nct, obj(protocol, "statusModule"))
        _design(record, nct, obj(protocol, "designModule"))
        _ages(record, nct, obj(protocol, "eligibilityModule"))
        _arms(record, nct, obj(protocol, "armsInterventionsModule"))
        _interventions(record, nct, obj(protocol, "armsInterventionsModule"))
        _outcomes(record, nct, obj(protocol, "outcomesModule"))
        if not _results(record, nct, study, dates.get("results")):
            gaps.append(Gap("trial_results", Outcome.NO_HIT, f"no results posted for {nct}"))
        summary = text(obj(protocol, "descriptionModule"), "briefSummary")
        if summary:
            record.heading("Summary")
            record.paragraph(summary)
        built = record.build(
            published=dates.get("first_posted"),
            updated=dates.get("last_update"),
            api_urls=(answer.url,),
        )
        return built, record.facts


def _date(module: dict, key: str) -> str | None:
    return iso_day(text(obj(module, key), "date"))


def _status(record: RecordWriter, nct: str, module: dict) -> dict[str, str]:
    dates = {
        "start": _date(module, "startDateStruct"),
        "primary_completion": _date(module, "primaryCompletionDateStruct"),
        "completion": _date(module, "completionDateStruct"),
        "first_posted": _date(module, "studyFirstPostDateStruct"),
        "results": _date(module, "resultsFirstPostDateStruct"),
        "last_update": _date(module, "lastUpdatePostDateStruct"),
    }
    status = text(module, "overallStatus")
    if status:
        said = f"Status of {nct}: {words(status)}"
        for key, what in (
            ("start", "started"),
            ("primary_completion", "primary completion"),
            ("completion", "completion"),
        ):
            if dates[key]:
                said += f"; {what} {dates[key]}"
        record.fact(
            "trial_status",
            words(status),
            said,
            event_date=dates["primary_completion"] or dates["start"],
        )
    posted = [
        (what, dates[key])
        for key, what in (
            ("first_posted", "first posted"),
            ("results", "results first posted"),
            ("last_update", "last update posted"),
        )
        if dates[key]
    ]
    if posted:
        record.line("Record dates: " + "; ".join(f"{what} {day}" for what, day in posted))
    return {key: value for key, value in dates.items() if value}


def _design(record: RecordWriter, nct: str, module: dict) -> None:
    info = obj(module, "designInfo")
    parts = [words(text(module, "studyType"))] if text(module, "studyType") else []
    parts += [
        words(phase)
        for phase in items(module, "phases")
        if isinstance(phase, str) and phase != "NA"
    ]
    if text(info, "allocation"):
        parts.append(words(text(info, "allocation")))
    if text(info, "interventionModel"):
        parts.append(f"{words(text(info, 'interventionModel'))} assignment")
    masking = text(obj(info, "maskingInfo"), "masking")
    if masking:
        parts.append("open label" if masking == "NONE" else f"{words(masking)} masking")
    enrolment = obj(module, "enrollmentInfo")
    count = number(enrolment, "count")
    if count is not None:
        kind = words(text(enrolment, "type")) if text(enrolment, "type") else ""
        parts.append(f"{count:,} participants" + (f" ({kind})" if kind else ""))
    if parts:
        value = ", ".join(parts)
        record.fact("trial_design", value, f"Design of {nct}: {value}")


def _arms(record: RecordWriter, nct: str, module: dict) -> None:
    for arm in items(module, "armGroups"):
        label = text(arm, "label")
        if not label:
            continue
        said = f"Arm of {nct}: {label}"
        if text(arm, "type"):
            said += f" ({words(text(arm, 'type'))})"
        given = [name for name in items(arm, "interventionNames") if isinstance(name, str)]
        if given:
            said += f": {', '.join(given)}"
        elif text(arm, "description"):
            said += f": {text(arm, 'description')}"
        record.fact("trial_arm", label, said)


def _ages(record: RecordWriter, nct: str, module: dict) -> None:
    youngest, oldest = text(module, "minimumAge"), text(module, "maximumAge")
    if youngest and oldest:
        said = f"{youngest} to {oldest}"
    elif youngest or oldest:
        said = f"{youngest} and older" if youngest else f"up to {oldest}"
    else:
        return
    record.line(f"Ages eligible for {nct}: {said}")


def _interventions(record: RecordWriter, nct: str, module: dict) -> None:
    """The interventions by name, with their other names (a drug's code and brand)."""
    named = []
    for given in items(module, "interventions"):
        name = text(given, "name")
        others = [other for other in items(given, "otherNames") if isinstance(other, str)]
        if name:
            named.append(name + (f" (also {', '.join(others)})" if others else ""))
    if named:
        value = "; ".join(named)
        record.fact("trial_interventions", value, f"Interventions of {nct}: {value}")


def _outcomes(record: RecordWriter, nct: str, module: dict) -> None:
    for outcome in items(module, "primaryOutcomes"):
        measure = text(outcome, "measure")
        if not measure:
            continue
        said = f"Primary outcome of {nct}: {measure}"
        if text(outcome, "timeFrame"):
            said += f" (time frame: {text(outcome, 'timeFrame')})"
        record.fact("trial_primary_outcome", measure, said)


def _results(record: RecordWriter, nct: str, study: dict, posted: str | None) -> bool:
    """The primary outcomes' results; False when the study has none posted."""
    measures = items(obj(study, "resultsSection", "outcomeMeasuresModule"), "outcomeMeasures")
    primary = [m for m in measures if isinstance(m, dict) and text(m, "type") == "PRIMARY"]
    posted_any = False
    for measure in primary:
        line = result_line(measure)
        if not line:
            continue
        posted_any = True
        said = f"Primary outcome result of {nct}: {line}"
        record.fact("trial_primary_result", text(measure, "title"), said, event_date=posted)
        for attribute, value, stated in analysis_lines(nct, measure):
            record.fact(attribute, value, stated, event_date=posted)
    return posted_any
