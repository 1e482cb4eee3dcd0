"""What a primary provider hands back: stored records and the typed facts they state.

A record is the structured answer of a registry or database rendered as a short Markdown
document: the stored text that stands for the page. Every fact quotes one whole line of
its record, so the quote is found verbatim in the stored text, as the rest of the
pipeline requires of every quote.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from research.outcomes import Outcome

# "registry": a package index, a repository host or Wikidata, stating the current state of
# a project. "primary": the study itself (a trial's registration, a paper's abstract).
SourceKind = Literal["registry", "primary"]

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class Subject:
    """What a provider is asked about.

    `option` is the option as the question names it ("FastAPI"). `identifier` is its name
    in the service when known ("tiangolo/fastapi", "fastapi", an NCT number, a Wikidata
    Q-id); `url` a page known to belong to it (its repository, its registry page). Search
    services (arXiv, Europe PMC, ClinicalTrials.gov) also take `query`, the words of the
    question to look for besides the option.
    """

    option: str
    query: str = ""
    identifier: str = ""
    url: str = ""
    limit: int = 5


@dataclass(frozen=True)
class PrimaryFact:
    """One typed statement of a record: `quote` is a whole line of the record's text."""

    option: str
    attribute: str  # licence, latest_release, archived, last_push, release_cadence, ...
    value: str
    as_of: str  # ISO date the statement holds at: the day the record was retrieved
    source_kind: SourceKind
    record_url: str
    quote: str
    event_date: str | None = None  # the date the fact is about: a release, a push, a result
    provider: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PrimaryRecord:
    provider: str
    source_kind: SourceKind
    url: str  # the record's own page, for people (the repository, the study, the paper)
    title: str
    text: str  # Markdown; facts quote its lines
    retrieved_at: str  # ISO timestamp (UTC) of the answer it was built from
    published: str | None = None  # the record's own dates, ISO, when it has them
    updated: str | None = None
    api_urls: tuple[str, ...] = ()  # what was asked to build it

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["api_urls"] = list(self.api_urls)
        return data


@dataclass(frozen=True)
class Gap:
    """Something the provider meant to look up and could not, or found absent."""

    attribute: str
    outcome: Outcome
    detail: str


@dataclass(frozen=True)
class PrimaryResult:
    provider: str
    subject: Subject
    outcome: Outcome
    records: list[PrimaryRecord] = field(default_factory=list)
    facts: list[PrimaryFact] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    links: dict[str, str] = field(default_factory=dict)  # e.g. {"repository": URL}
    detail: str = ""

    def facts_about(self, attribute: str) -> list[PrimaryFact]:
        return [fact for fact in self.facts if fact.attribute == attribute]


def clean(text: object) -> str:
    """One line of plain text: control characters dropped, whitespace folded."""
    return " ".join(_CONTROL.sub(" ", str(text)).split())


class RecordWriter:
    """Builds a record's text line by line, and the facts that quote those lines."""

    def __init__(
        self,
        *,
        provider: str,
        source_kind: SourceKind,
        option: str,
        url: str,
        title: str,
        retrieved_at: str,
        service: str,
    ) -> None:
        self.provider = provider
        self.source_kind = source_kind
        self.option = option
        self.url = url
        self.title = clean(title)
        self.retrieved_at = retrieved_at
        self.facts: list[PrimaryFact] = []
        self._lines = [
            f"# {self.title}",
            "",
            f"Record: {url}",
            f"Retrieved: {retrieved_at} from {service}",
            "",
        ]

    def heading(self, text: str) -> None:
        self._lines += ["", f"## {clean(text)}", ""]

    def line(self, text: str) -> str:
        """Add a bullet line; returns its text as it stands in the record."""
        stated = clean(text)
        self._lines.append(f"- {stated}")
        return stated

    def paragraph(self, text: str) -> str:
        stated = clean(text)
        if stated:
            self._lines += ["", stated, ""]
        return stated

    def fact(
        self,
        attribute: str,
        value: object,
        text: str,
        *,
        event_date: str | None = None,
        as_of: str | None = None,
    ) -> PrimaryFact:
        """Add `text` as a line and a fact that quotes it."""
        fact = PrimaryFact(
            option=self.option,
            attribute=attribute,
            value=clean(value),
            as_of=as_of or self.retrieved_at[:10],
            source_kind=self.source_kind,
            record_url=self.url,
            quote=self.line(text),
            event_date=event_date,
            provider=self.provider,
        )
        self.facts.append(fact)
        return fact

    def build(
        self,
        *,
        published: str | None = None,
        updated: str | None = None,
        api_urls: tuple[str, ...] = (),
    ) -> PrimaryRecord:
        text = "\n".join(self._lines).strip() + "\n"
        text = re.sub(r"\n{3,}", "\n\n", text)
        return PrimaryRecord(
            provider=self.provider,
            source_kind=self.source_kind,
            url=self.url,
            title=self.title,
            text=text,
            retrieved_at=self.retrieved_at,
            published=published,
            updated=updated,
            api_urls=api_urls,
        )
