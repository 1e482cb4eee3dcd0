"""A Wikidata item as a record: wbgetentities for the item, then once more for the names
of the items its statements point to (its developer, its licence).

Only the best-ranked statements count (Wikidata's "truthy" ones: the preferred, else the
normal; never the deprecated), as Wikidata's own query service reads them.
"""

from __future__ import annotations

import re
from typing import Any

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary.base import ApiProvider, gap, items, obj, retrieved_at, text
from research.providers.primary.client import ApiAnswer
from research.providers.primary.dates import iso_day
from research.providers.primary.records import (
    Gap,
    PrimaryFact,
    PrimaryRecord,
    RecordWriter,
    Subject,
)

# Wikidata keeps many names only once, as a `mul` (multilingual) label that no single
# language returns: it is asked for too, and read after English, before Chinese.
LABEL_LANGUAGES = ("en", "mul", "zh")
_WIKIDATA_TIME = re.compile(r"^[+-]?(\d{4})-(\d{2})-(\d{2})")

Built = tuple[PrimaryRecord, list[PrimaryFact], list[Gap], dict]


def wikidata_time(value: Any) -> str | None:
    """A Wikidata time value at its precision: a day (11), a month (10) or a year (9)."""
    if not isinstance(value, dict) or not isinstance(value.get("time"), str):
        return None
    match = _WIKIDATA_TIME.match(value["time"])
    precision = value.get("precision")
    if not match or not isinstance(precision, int) or precision < 9:
        return None
    year, month, day = match.groups()
    if precision >= 11 and day != "00":
        return iso_day(f"{year}-{month}-{day}")
    if precision >= 10 and month != "00":
        return iso_day(f"{year}-{month}")
    return year


def truthy(claims: dict, prop: str) -> list[dict]:
    """The statements Wikidata counts as true: the preferred ones if any, else the normal."""
    statements = [s for s in items(claims, prop) if isinstance(s, dict)]
    preferred = [s for s in statements if s.get("rank") == "preferred"]
    return preferred or [s for s in statements if s.get("rank", "normal") == "normal"]


def _value(statement: dict) -> Any:
    snak = obj(statement, "mainsnak")
    if snak.get("snaktype") != "value":
        return None
    return obj(snak, "datavalue").get("value")


def _item_ids(statements: list[dict]) -> list[str]:
    ids = [text(_value(s), "id") for s in statements if isinstance(_value(s), dict)]
    return [item for item in ids if item]


def _qualifier_time(statement: dict, prop: str) -> str | None:
    for snak in items(obj(statement, "qualifiers"), prop):
        if isinstance(snak, dict) and snak.get("snaktype") == "value":
            day = wikidata_time(obj(snak, "datavalue").get("value"))
            if day:
                return day
    return None


def label(entity: dict) -> str:
    for lang in LABEL_LANGUAGES:
        name = text(obj(entity, "labels", lang), "value")
        if name:
            return name
    return ""


def entity_record(
    provider: ApiProvider, subject: Subject, qid: str, call: Call
) -> Built | ApiAnswer:
    """The item's record, facts and gaps, and the item itself; or the failed answer."""
    params = {
        "action": "wbgetentities",
        "ids": qid,
        # `info` carries `modified`, the item's last edit: the date its record goes by.
        "props": "info|labels|descriptions|claims|sitelinks",
        "languages": "|".join(LABEL_LANGUAGES),
        "format": "json",
    }
    answer = provider.client.get("w/api.php", params, call=call, endpoint=True)
    if not answer.ok:
        return answer
    entity = _entity(answer, qid)
    if isinstance(entity, ApiAnswer):
        return entity
    claims = obj(entity, "claims")
    developers, licences = truthy(claims, "P178"), truthy(claims, "P275")
    names, gaps = item_names(provider, _item_ids(developers) + _item_ids(licences), call)
    name = label(entity) or subject.option
    record = RecordWriter(
        provider=provider.name,
        source_kind="registry",
        option=subject.option,
        url=f"https://www.wikidata.org/wiki/{qid}",
        title=f"{name} ({qid}) on Wikidata",
        retrieved_at=retrieved_at(answer),
        service="the Wikidata API",
    )
    description = text(obj(entity, "descriptions", "en"), "value")
    if description:
        record.line(f"Description: {description}")
    edited = iso_day(text(entity, "modified"))
    if edited:
        record.line(f"Wikidata item last edited: {edited}")
    _named(record, "developer", f"{name} developer (Wikidata P178)", developers, names)
    _named(record, "licence", f"{name} licence (Wikidata P275)", licences, names)
    _inception(record, name, truthy(claims, "P571"))
    gaps += _latest_version(record, name, truthy(claims, "P348"))
    _discontinued(record, name, claims)
    for prop, what in (("P856", "Official website"), ("P1324", "Source code repository")):
        urls = [v for s in truthy(claims, prop) if isinstance(v := _value(s), str)]
        if urls:
            record.line(f"{what} (Wikidata {prop}): {urls[0]}")
    built = record.build(updated=edited, api_urls=(answer.url,))
    return built, record.facts, gaps, entity


def _entity(answer: ApiAnswer, qid: str) -> dict | ApiAnswer:
    if not isinstance(answer.data, dict):
        detail = "Wikidata answered in an unexpected shape: not an entities object"
        return ApiAnswer(Outcome.UNAVAILABLE, answer.url, answer.status, detail=detail)
    data = answer.data
    error = obj(data, "error")
    if error:
        code, info = text(error, "code"), text(error, "info")
        outcome = Outcome.NO_HIT if code == "no-such-entity" else Outcome.UNAVAILABLE
        return ApiAnswer(outcome, answer.url, answer.status, detail=f"Wikidata: {info or code}")
    entity = obj(data, "entities", qid)
    if not entity or "missing" in entity:
        return ApiAnswer(
            Outcome.NO_HIT, answer.url, answer.status, detail=f"no Wikidata item {qid}"
        )
    return entity


def item_names(
    provider: ApiProvider, ids: list[str], call: Call
) -> tuple[dict[str, str], list[Gap]]:
    """The names of the items `ids` (by their labels); an item without one keeps its id."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return {}, []
    params = {
        "action": "wbgetentities",
        "ids": "|".join(wanted[:50]),
        "props": "labels",
        "languages": "|".join(LABEL_LANGUAGES),
        "format": "json",
    }
    answer = provider.client.get("w/api.php", params, call=call, endpoint=True)
    if not answer.ok:
        return {}, [gap("labels", answer, "names of the developer and licence items")]
    entities = obj(answer.data, "entities")
    return {item: label(obj(entities, item)) or item for item in wanted}, []


def _named(
    record: RecordWriter, attribute: str, said: str, statements: list[dict], names: dict
) -> None:
    ids = _item_ids(statements)
    if ids:
        value = ", ".join(names.get(item, item) for item in ids)
        record.fact(attribute, value, f"{said}: {value}")


def _inception(record: RecordWriter, name: str, statements: list[dict]) -> None:
    days = sorted(day for s in statements if (day := wikidata_time(_value(s))))
    if days:
        record.fact(
            "inception", days[0], f"{name} inception (Wikidata P571): {days[0]}", event_date=days[0]
        )


def _discontinued(record: RecordWriter, name: str, claims: dict) -> None:
    """Discontinued (P2669) or dissolved (P576) on a date: a fact. Stated as "no value",
    Wikidata says it has not ended, which is no date to read."""
    for prop, what in (("P2669", "discontinued"), ("P576", "dissolved or discontinued")):
        for statement in truthy(claims, prop):
            kind = obj(statement, "mainsnak").get("snaktype")
            day = wikidata_time(_value(statement))
            if day:
                said = f"{name} {what} (Wikidata {prop}): {day}"
                record.fact("discontinued", day, said, event_date=day)
                return
            if kind == "novalue":
                record.line(f"{name} not {what}: Wikidata {prop} states no value")
                return


def _latest_version(record: RecordWriter, name: str, statements: list[dict]) -> list[Gap]:
    versions = [
        (_qualifier_time(s, "P577") or "", index, v)
        for index, s in enumerate(statements)
        if isinstance(v := _value(s), str) and v.strip()
    ]
    if not versions:
        return [Gap("latest_release", Outcome.NO_HIT, "Wikidata lists no software version")]
    date, _, version = max(versions)  # the latest publication date; the last listed on a tie
    said = f"Latest version of {name} (Wikidata P348): {version}"
    said += f", published {date}" if date else ""
    record.fact("latest_release", version, said, event_date=date or None)
    return []


# --- finding the item behind a name that names several things ----------------------------

# Words in an item's description that say it is something a decision could be about.
_PRODUCT_WORDS = re.compile(
    r"\b(software|programming language|framework|library|database|application|app|"
    r"operating system|toolkit|SDK|platform|package|compiler|web browser|service)\b|"
    r"软件|编程语言|框架|程序库|数据库|操作系统",
    re.IGNORECASE,
)


def search_item(provider: ApiProvider, name: str, lang: str, call: Call) -> tuple[str, str]:
    """The first item Wikidata's search finds for `name` whose description says it is
    software (a language, a framework, a database...): (its id, its description), or
    ("", why not)."""
    params = {
        "action": "wbsearchentities",
        "search": name,
        "language": lang,
        "uselang": lang,
        "type": "item",
        "limit": 20,
        "format": "json",
    }
    answer = provider.client.get("w/api.php", params, call=call, endpoint=True)
    if not answer.ok:
        return "", f"Wikidata's search could not be asked ({answer.detail or answer.outcome})"
    for hit in items(answer.data, "search"):
        said = text(hit, "description") or text(obj(hit, "display", "description"), "value")
        if _QID.match(text(hit, "id")) and _PRODUCT_WORDS.search(said):
            return text(hit, "id"), said
    return "", f"Wikidata's search found no software named {name!r}"


_QID = re.compile(r"^Q[1-9][0-9]*$")
