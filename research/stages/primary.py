"""Asking the plan's primary sources (part of retrieve): each ask's answer (found, found
nothing, could not look), the records they stored, and a provider call per ask for the
manifest's outcomes."""

from __future__ import annotations

import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

from research.artifacts import PrimaryAsk, PrimaryRecordDoc, ProviderCall, RecordFact
from research.context import StageContext
from research.outcomes import Outcome
from research.providers.primary import PrimaryProvider, PrimaryResult, Subject

RECORDS_PER_ASK = 3  # papers or trials a search service gives for one option


def ask_primary(
    asks: list[PrimaryAsk],
    providers: Mapping[str, PrimaryProvider],
    ctx: StageContext,
    workers: int = 4,
) -> tuple[list[PrimaryAsk], list[PrimaryRecordDoc], list[ProviderCall]]:
    """Every ask, answered; results are taken in plan order whatever order they finish in."""
    if not asks:
        return [], [], []
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(asks)))) as pool:
        answers = list(pool.map(lambda ask: _ask(ask, providers[ask.provider]), asks))
    answered, records, calls = [], {}, []
    for ask, (result, elapsed) in zip(asks, answers, strict=True):
        done = _answered(ask, result)
        answered.append(done)
        calls.append(_call(done, elapsed))
        for doc in _records(ask, result):
            _merge(records, doc)
        ctx.record(
            "primary_answer",
            ask=ask.id,
            provider=ask.provider,
            option=ask.option,
            asked=ask.asks,
            answer=done.answer,
            outcome=result.outcome.value,
            records=done.records,
            facts=done.facts,
            detail=done.detail,
        )
    return answered, list(records.values()), calls


def _ask(ask: PrimaryAsk, provider: PrimaryProvider) -> tuple[PrimaryResult, int]:
    started = time.monotonic()
    result = provider.lookup(Subject(option=ask.option, limit=RECORDS_PER_ASK))
    return result, int((time.monotonic() - started) * 1000)


def _answered(ask: PrimaryAsk, result: PrimaryResult) -> PrimaryAsk:
    missing = "; ".join(g.detail for g in result.gaps)
    detail = "; ".join(part for part in (result.detail, missing) if part)
    return ask.model_copy(
        update={
            "outcome": result.outcome,
            "detail": detail,
            "records": len(result.records),
            "facts": len(result.facts),
        }
    )


def _call(ask: PrimaryAsk, elapsed: int) -> ProviderCall:
    return ProviderCall(
        provider=f"primary:{ask.provider}",
        query=f"{ask.option}: {', '.join(ask.asks)}",
        outcome=ask.outcome or Outcome.UNAVAILABLE,
        hits=ask.records,
        detail=ask.detail,
        elapsed_ms=elapsed,
    )


def _records(ask: PrimaryAsk, result: PrimaryResult) -> list[PrimaryRecordDoc]:
    if result.outcome is not Outcome.OK:
        return []
    docs = []
    for record in result.records:
        facts = [
            RecordFact(
                option=ask.option,
                attribute=f.attribute,
                value=f.value,
                as_of=f.as_of,
                event_date=f.event_date,
                quote=f.quote,
                provider=record.provider,
            )
            for f in result.facts
            if f.record_url == record.url
        ]
        docs.append(
            PrimaryRecordDoc(
                ask_id=ask.id,
                provider=record.provider,
                source_kind=record.source_kind,
                url=record.url,
                title=record.title,
                text=record.text,
                retrieved_at=record.retrieved_at,
                published=record.published,
                updated=record.updated,
                facts=facts,
            )
        )
    return docs


def _merge(records: dict[str, PrimaryRecordDoc], doc: PrimaryRecordDoc) -> None:
    """One record per address: a paper found for two options is one page, with the facts
    of both."""
    known = records.get(doc.url)
    if known is None:
        records[doc.url] = doc
        return
    new = [f for f in doc.facts if f not in known.facts]
    records[doc.url] = known.model_copy(update={"facts": [*known.facts, *new]})
