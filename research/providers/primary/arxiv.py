"""The arXiv API: GET /api/query, answered in Atom.

Papers are searched by every word of the option and the query (`all:` fields joined by
AND), or fetched by identifier (`id_list`). Each paper becomes a record with its abstract,
its dates (first version and this version) and the open-access PDF that every arXiv paper
has. An identifier may name several papers ("1707.08567, 2104.12255v1"); one written
"arXiv:..." is asked for as written, so that arXiv itself says what is wrong with it.
arXiv answers a malformed query with a feed holding one entry whose id points at
/api/errors (since 2025 with HTTP 400): that is a refusal, not a paper, and its message
is kept. arXiv's terms ask for one request every
three seconds; the registry sets that pace.
"""

from __future__ import annotations

import re

from lxml import etree

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary.base import ApiProvider, ShapeError
from research.providers.primary.client import ApiAnswer, decode_xml
from research.providers.primary.dates import iso_day
from research.providers.primary.records import Gap, PrimaryRecord, PrimaryResult, Subject, clean

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
MAX_WORDS = 8
_ARXIV_ID = re.compile(
    r"^(?:arxiv:)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)$", re.I
)
_WORD = re.compile(r"[^\W_][\w.+-]*", re.UNICODE)
_SEPARATORS = re.compile(r"[\s,]+")


def paper_ids(identifier: str) -> list[str]:
    """The arXiv ids an identifier names, or [] when it names none (then arXiv is searched)."""
    ids = []
    for part in _SEPARATORS.split(identifier.strip()):
        known = _ARXIV_ID.match(part)
        if known:
            ids.append(known.group(1))
        elif part[:6].lower() == "arxiv:" and part[6:]:
            ids.append(part[6:])
        elif part:
            return []
    return ids


def search_query(option: str, query: str) -> str:
    """'all:"gradient boosting" AND all:benchmark': the option as one phrase, then words."""
    parts = []
    phrase = " ".join(_WORD.findall(option))
    if phrase:
        parts.append(f'all:"{phrase}"' if " " in phrase else f"all:{phrase}")
    seen = {word.lower() for word in phrase.split()}
    for word in _WORD.findall(query):
        if word.lower() not in seen and len(parts) < MAX_WORDS:
            seen.add(word.lower())
            parts.append(f"all:{word}")
    return " AND ".join(parts)


class ArxivProvider(ApiProvider):
    name = "arxiv"
    label = "arXiv"
    service = "the arXiv API"
    source_kind = "primary"

    def _lookup(self, subject: Subject, call: Call) -> PrimaryResult:
        ids = paper_ids(subject.identifier)
        if ids:
            # arXiv answers at most 10 papers unless asked for more.
            more = len(ids) if len(ids) > 10 else None
            params: dict[str, object | None] = {"id_list": ",".join(ids), "max_results": more}
        else:
            query = search_query(subject.option, subject.query)
            if not query:
                return self.result(subject, Outcome.NO_HIT, detail="no words to search arXiv for")
            params = {
                "search_query": query,
                "start": 0,
                "max_results": max(1, subject.limit),
                "sortBy": "relevance",
                "sortOrder": "descending",
            }
        answer = self.client.get(
            "query",
            params,
            call=call,
            decode=decode_xml,
            accept="application/atom+xml",
            endpoint=True,
        )
        if not answer.ok:
            return self.failed(subject, answer)
        feed = answer.data
        if feed.tag != f"{ATOM}feed":
            raise ShapeError("the answer is not an Atom feed")
        entries = feed.findall(f"{ATOM}entry")
        refusal = _error(entries)
        if refusal:
            return self.result(
                subject, Outcome.UNAVAILABLE, detail=f"arXiv refused the query: {refusal}"
            )
        if not entries:
            detail = (
                f"arXiv found no papers for {params.get('search_query') or params.get('id_list')}"
            )
            return self.result(subject, Outcome.NO_HIT, detail=detail)
        records, facts = [], []
        for entry in entries[: max(1, subject.limit, len(ids))]:
            record, found = self._record(subject, answer, entry)
            records.append(record)
            facts += found
        gaps = [
            Gap("paper", Outcome.NO_HIT, f"arXiv has no paper {wanted}")
            for wanted in ids
            if not any(_is_version_of(record.url, wanted) for record in records)
        ]
        return self.result(subject, Outcome.OK, records=records, facts=facts, gaps=gaps)

    def _record(
        self, subject: Subject, answer: ApiAnswer, entry: etree._Element
    ) -> tuple[PrimaryRecord, list]:
        abs_url = _link(entry, rel="alternate") or _text(entry, f"{ATOM}id")
        paper_id = abs_url.rstrip("/").rsplit("/abs/", 1)[-1]
        title = _text(entry, f"{ATOM}title") or paper_id
        record = self.writer(subject, answer, url=abs_url, title=f"{title} (arXiv:{paper_id})")
        authors = [clean(name.text or "") for name in entry.iter(f"{ATOM}name")]
        if authors:
            record.line(f"Authors: {', '.join(name for name in authors if name)}")
        published = iso_day(_text(entry, f"{ATOM}published"))
        updated = iso_day(_text(entry, f"{ATOM}updated"))
        said = f'arXiv:{paper_id} "{title}"'
        said += f", first version {published}" if published else ""
        said += f", this version {updated}" if updated and updated != published else ""
        record.fact("paper", title, said, event_date=published)
        category = entry.find(f"{ARXIV}primary_category")
        if category is not None and category.get("term"):
            record.line(f"Primary category: {category.get('term')}")
        for tag, what in ((f"{ARXIV}doi", "DOI"), (f"{ARXIV}journal_ref", "Journal reference")):
            if _text(entry, tag):
                record.line(f"{what}: {_text(entry, tag)}")
        pdf = _link(entry, title="pdf")
        if pdf:
            record.fact(
                "open_access_full_text",
                pdf,
                f"Full text of arXiv:{paper_id} (PDF, open access): {pdf}",
            )
        summary = _text(entry, f"{ATOM}summary")
        if summary:
            record.heading("Abstract")
            record.paragraph(summary)
        built = record.build(published=published, updated=updated, api_urls=(answer.url,))
        return built, record.facts


def _is_version_of(url: str, wanted: str) -> bool:
    """Whether the paper at `url` (".../abs/1707.08567v1") is the one `wanted` names."""
    found = url.rstrip("/").rsplit("/abs/", 1)[-1]
    return found == wanted or re.fullmatch(rf"{re.escape(wanted)}v\d+", found) is not None


def _text(element: etree._Element, tag: str) -> str:
    found = element.find(tag)
    return clean(found.text or "") if found is not None else ""


def _link(entry: etree._Element, **wanted: str) -> str:
    for link in entry.findall(f"{ATOM}link"):
        if all(link.get(key) == value for key, value in wanted.items()) and link.get("href"):
            return link.get("href", "")
    return ""


def _error(entries: list[etree._Element]) -> str:
    for entry in entries:
        if "/api/errors" in _text(entry, f"{ATOM}id"):
            return _text(entry, f"{ATOM}summary") or "an error entry without a message"
    return ""
