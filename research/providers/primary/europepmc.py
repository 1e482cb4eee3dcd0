"""Europe PMC's REST search: GET /search?query=...&format=json&resultType=core.

`core` results carry the abstract and the full-text links. Pages follow each other by
cursor (`cursorMark`, starting at `*`; the answer's `nextCursorMark` asks for the next),
until enough papers are in, a page comes back empty, or the cursor stops moving. A paper's
open-access full text is a link marked "OA", preferring Europe PMC's own HTML; a paper
with a PMC id that is open access is read at europepmc.org.
"""

from __future__ import annotations

import html
import re

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.netguard import Resolver, resolve
from research.providers.primary.base import (
    DEFAULT_DEADLINE,
    ApiProvider,
    gap,
    items,
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
    Subject,
)

PAGE_SIZE = 25
MAX_PAGES = 5
_TAG = re.compile(r"<[^>]+>")
# Inline markup sits inside a word ("<i>BRCA</i>-Negative"): it goes without a space.
_INLINE_TAG = re.compile(r"</?(?:i|b|em|strong|sup|sub|u|span|sc)\b[^>]*>", re.IGNORECASE)


def search_query(option: str, query: str) -> str:
    """The option as a phrase, then the query's words (Europe PMC joins terms with AND)."""
    phrase = " ".join(option.replace('"', " ").split())
    words = " ".join(query.replace('"', " ").split())
    return " ".join(part for part in (f'"{phrase}"' if phrase else "", words) if part)


class EuropePmcProvider(ApiProvider):
    name = "europepmc"
    label = "Europe PMC"
    service = "the Europe PMC REST API"
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
        query = search_query(subject.option, subject.query)
        if not query:
            return self.result(subject, Outcome.NO_HIT, detail="no words to search Europe PMC for")
        limit = max(1, subject.limit)
        papers: list[tuple[dict, ApiAnswer]] = []
        gaps: list[Gap] = []
        cursor = "*"
        for _page in range(MAX_PAGES):
            params = {
                "query": query,
                "format": "json",
                "resultType": "core",
                "pageSize": min(self.page_size, limit - len(papers)),
                "cursorMark": cursor,
            }
            answer = self.client.get("search", params, call=call, endpoint=True)
            if not answer.ok and not papers:
                return self.failed(subject, answer)
            if not answer.ok:
                gaps.append(gap("papers", answer, "the next page of results"))
                break
            page = require_dict(answer.data, "the search answer")
            batch = [
                entry
                for entry in items(obj(page, "resultList"), "result")
                if isinstance(entry, dict)
            ]
            papers += [(entry, answer) for entry in batch]
            following = text(page, "nextCursorMark")
            if len(papers) >= limit or not batch or not following or following == cursor:
                break
            cursor = following
        if not papers:
            return self.result(
                subject, Outcome.NO_HIT, detail=f"Europe PMC found nothing for {query}"
            )
        records, facts = [], []
        for entry, answer in papers[:limit]:
            record, found = self._record(subject, answer, entry)
            records.append(record)
            facts += found
        return self.result(subject, Outcome.OK, records=records, facts=facts, gaps=gaps)

    def _record(
        self, subject: Subject, answer: ApiAnswer, paper: dict
    ) -> tuple[PrimaryRecord, list[PrimaryFact]]:
        source, ident = text(paper, "source") or "MED", text(paper, "id")
        url = f"https://europepmc.org/article/{source}/{ident}"
        title = _plain(text(paper, "title")).rstrip(".") or f"{source} {ident}"
        record = self.writer(subject, answer, url=url, title=title)
        if text(paper, "authorString"):
            record.line(f"Authors: {text(paper, 'authorString')}")
        journal = text(obj(paper, "journalInfo", "journal"), "title") or text(paper, "journalTitle")
        if journal:
            record.line(f"Journal: {journal}")
        published = iso_day(text(paper, "firstPublicationDate")) or text(paper, "pubYear") or None
        said = f'"{title}"' + (f" ({journal})" if journal else "")
        said += f", first published {published}" if published else ""
        record.fact("paper", title, said, event_date=published)
        ids = [(key, text(paper, key)) for key in ("pmid", "pmcid", "doi") if text(paper, key)]
        if ids:
            record.line("Identifiers: " + ", ".join(f"{key.upper()} {value}" for key, value in ids))
        full_text = open_access_link(paper)
        free = "" if full_text else full_text_link(paper, "F") or in_europe_pmc(paper)
        if full_text:
            record.fact("open_access_full_text", full_text, f"Open-access full text: {full_text}")
        elif free:
            record.fact("free_full_text", free, f"Full text free to read (not open access): {free}")
        abstract = _plain(text(paper, "abstractText"))
        if abstract:
            record.heading("Abstract")
            record.paragraph(abstract)
        built = record.build(published=published, api_urls=(answer.url,))
        return built, record.facts


def open_access_link(paper: dict) -> str:
    found = full_text_link(paper, "OA")
    if found:
        return found
    if text(paper, "isOpenAccess") == "Y" and text(paper, "pmcid"):
        return f"https://europepmc.org/article/PMC/{text(paper, 'pmcid')}"
    return ""


def in_europe_pmc(paper: dict) -> str:
    """Full text that Europe PMC itself shows (`inEPMC`), free to read: the only sign of
    it in a `lite` answer, which lists no links."""
    if text(paper, "inEPMC") == "Y" and text(paper, "pmcid"):
        return f"https://europepmc.org/article/PMC/{text(paper, 'pmcid')}"
    return ""


def full_text_link(paper: dict, code: str) -> str:
    """The paper's full text with availability `code` ("OA" open access, "F" free to read),
    Europe PMC's own HTML first."""
    links = [
        entry
        for entry in items(obj(paper, "fullTextUrlList"), "fullTextUrl")
        if isinstance(entry, dict)
        and text(entry, "availabilityCode") == code
        and text(entry, "url")
    ]
    links.sort(
        key=lambda entry: (
            text(entry, "site") != "Europe_PMC",
            text(entry, "documentStyle") != "html",
        )
    )
    return text(links[0], "url") if links else ""


def _plain(value: str) -> str:
    """Europe PMC marks up titles and abstracts with HTML (<i>, <h4>, <sup>)."""
    return " ".join(html.unescape(_TAG.sub(" ", _INLINE_TAG.sub("", value))).split())
