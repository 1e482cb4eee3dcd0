"""Wikipedia's page summaries (English and Chinese) and the Wikidata item behind them.

The summary (REST: /api/rest_v1/page/summary/<title>) gives the article's lead and its
Wikidata item. The item (Action API: wbgetentities) gives typed statements: developer
(P178), licence (P275), inception (P571), and software versions (P348) with their
publication dates (qualifier P577); the latest version is the preferred one, else the one
published last. The other language's summary is found through the item's sitelinks, so
"Flask" in English and its Chinese article are the same thing, not a title that happens
to match. A title that names several things (a disambiguation page: "Dart", "Mercury") is
not taken for the article: the article is looked for as "Dart (software)" and "Dart
(programming language)", then through Wikidata's search for an item described as software;
when none is found, the answer says so and asks for the exact title. The language the
title is written in answers first: the other language's failure never outranks it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.netguard import Resolver, resolve
from research.providers.primary.base import (
    DEFAULT_DEADLINE,
    ApiProvider,
    gap,
    obj,
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
from research.providers.primary.wikidata import entity_record, search_item

LANGUAGES = ("en", "zh")
# How each Wikipedia qualifies a software title that shares its name with other things.
QUALIFIERS = {"en": ("software", "programming language"), "zh": ("软件", "编程语言")}
_QID = re.compile(r"^Q[1-9][0-9]*$")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass
class _Found:
    """What one lookup has gathered so far."""

    records: list[PrimaryRecord] = field(default_factory=list)
    facts: list[PrimaryFact] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    failures: list[ApiAnswer] = field(default_factory=list)  # in the order the languages were asked
    ambiguous: set[tuple[str, str]] = field(default_factory=set)  # (language, title)
    links: dict[str, str] = field(default_factory=dict)
    read: set[str] = field(default_factory=set)  # languages whose summary is in
    qid: str = ""  # the Wikidata item the first summary names


class WikipediaProvider(ApiProvider):
    name = "wikipedia"
    label = "Wikipedia"
    service = "the Wikipedia REST API"
    source_kind = "registry"

    def __init__(
        self,
        wikis: Mapping[str, ApiClient],
        wikidata: ApiClient,
        *,
        deadline: float = DEFAULT_DEADLINE,
        resolver: Resolver = resolve,
    ) -> None:
        super().__init__(wikidata, deadline=deadline, resolver=resolver)
        self.wikis = dict(wikis)  # language code -> that Wikipedia's client

    def close(self) -> None:
        super().close()
        for client in self.wikis.values():
            client.close()

    def _lookup(self, subject: Subject, call: Call) -> PrimaryResult:
        found = _Found()
        identifier = subject.identifier.strip()
        qid = identifier if _QID.match(identifier) else ""
        if not qid:
            qid = self._first_summary(subject, identifier or subject.option.strip(), call, found)
        entity = self._entity(subject, qid, call, found) if qid else {}
        for lang in self.wikis:
            title = text(obj(entity, "sitelinks", f"{lang}wiki"), "title")
            if lang not in found.read and title:
                answer = self._summary(subject, lang, title, call, found)
                if answer is not None:
                    found.gaps.append(gap(f"summary_{lang}", answer, f"{lang} Wikipedia summary"))
        return self._result(subject, found)

    def _first_summary(self, subject: Subject, title: str, call: Call, found: _Found) -> str:
        """Read the summary in the title's own language, else the other; its item id."""
        first = "zh" if _CJK.search(title) else "en"
        for lang in dict.fromkeys((first, *LANGUAGES)):
            if lang not in self.wikis or not title:
                continue
            answer = self._summary(subject, lang, title, call, found)
            if answer is not None and (lang, title) in found.ambiguous:
                answer = self._disambiguate(subject, lang, title, call, found, answer)
            if answer is None:
                return found.qid
            found.failures.append(answer)
        return ""

    def _disambiguate(
        self,
        subject: Subject,
        lang: str,
        title: str,
        call: Call,
        found: _Found,
        answer: ApiAnswer,
    ) -> ApiAnswer | None:
        """The software article behind a disambiguation page: by its qualified title, else
        by Wikidata's search; None when found, else what was tried."""
        said = [f"'{title}' names several things on {lang} Wikipedia (a disambiguation page)"]
        for qualifier in QUALIFIERS.get(lang, ()):
            qualified = f"{title} ({qualifier})"
            missed = self._summary(subject, lang, qualified, call, found)
            if missed is None:
                return None
            if missed.outcome is Outcome.NO_HIT:
                said.append(f"'{qualified}' is not an article there")
            else:
                said.append(f"'{qualified}' could not be asked ({missed.detail})")
        qid, why = search_item(self, title, lang, call)
        if qid:
            found.qid = qid
            return None
        said += [why, "give the article's exact title or its Wikidata id"]
        detail = "; ".join(said)
        return ApiAnswer(Outcome.NO_HIT, answer.url, answer.status, detail=detail)

    def _summary(
        self, subject: Subject, lang: str, title: str, call: Call, found: _Found
    ) -> ApiAnswer | None:
        """Add the summary's record; None when it was added, else the failed answer."""
        path = f"api/rest_v1/page/summary/{quote(title.replace(' ', '_'), safe='')}"
        answer = self.wikis[lang].get(path, call=call)
        if not answer.ok:
            return answer
        if not isinstance(answer.data, dict):
            detail = f"{lang} Wikipedia answered in an unexpected shape: not a page summary"
            return ApiAnswer(Outcome.UNAVAILABLE, answer.url, answer.status, detail=detail)
        page = answer.data
        if text(page, "type") == "disambiguation":
            found.ambiguous.add((lang, title))
            detail = f"'{title}' names several things on {lang} Wikipedia (a disambiguation page)"
            return ApiAnswer(Outcome.NO_HIT, answer.url, answer.status, detail=detail)
        if not text(page, "extract") and not text(page, "title"):
            return ApiAnswer(Outcome.NO_HIT, answer.url, detail=f"{lang} Wikipedia: empty page")
        found.records.append(self._summary_record(subject, lang, page, answer))
        found.read.add(lang)
        found.qid = found.qid or text(page, "wikibase_item")
        found.links.setdefault(f"wikipedia_{lang}", found.records[-1].url)
        return None

    def _summary_record(
        self, subject: Subject, lang: str, page: dict, answer: ApiAnswer
    ) -> PrimaryRecord:
        title = text(obj(page, "titles"), "normalized") or text(page, "title").replace("_", " ")
        title = title or subject.option
        url = text(obj(page, "content_urls", "desktop"), "page")
        url = url or f"https://{lang}.wikipedia.org/wiki/{quote(title.replace(' ', '_'))}"
        record = self.writer(subject, answer, url=url, title=f"{title} ({lang} Wikipedia)")
        if text(page, "description"):
            record.line(f"Description: {text(page, 'description')}")
        edited = iso_day(text(page, "timestamp"))
        if edited:
            record.line(f"Article last edited: {edited}")
        record.paragraph(text(page, "extract"))
        return record.build(updated=edited, api_urls=(answer.url,))

    def _entity(self, subject: Subject, qid: str, call: Call, found: _Found) -> dict:
        built = entity_record(self, subject, qid, call)
        if isinstance(built, ApiAnswer):
            found.gaps.append(gap("wikidata", built, f"Wikidata item {qid}"))
            if not found.records:
                found.failures.append(built)
            return {}
        record, facts, gaps, entity = built
        found.records.append(record)
        found.facts += facts
        found.gaps += gaps
        found.links["wikidata"] = record.url
        return entity

    def _result(self, subject: Subject, found: _Found) -> PrimaryResult:
        if found.records:
            return self.result(
                subject,
                Outcome.OK,
                records=found.records,
                facts=found.facts,
                gaps=found.gaps,
                links=found.links,
            )
        if not found.failures:
            return self.result(subject, Outcome.NO_HIT, detail="Wikipedia has no such article")
        # The title's own language answered first and decides: the other language's
        # trouble is told, never taken for the answer.
        first, *others = found.failures
        detail = first.detail or f"Wikipedia answered {first.outcome}"
        for other in others:
            if other.outcome is not Outcome.NO_HIT:
                detail += f"; besides, {other.detail or other.outcome}"
        return self.result(subject, first.outcome, detail=detail)
