"""Stage 1: run the plan's sub-queries against every search provider."""

from __future__ import annotations

import time
from collections.abc import Mapping

from research.artifacts import Candidate, Candidates, Plan, ProviderCall, SubQuery
from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchProvider
from research.stages.context import StageContext
from research.stages.urls import canonical_url, source_id

HITS_PER_QUERY = 8


def retrieve(
    plan: Plan,
    providers: Mapping[str, SearchProvider],
    ctx: StageContext,
    previous: Candidates | None = None,
) -> Candidates:
    """Collect at most plan.limits.max_candidates candidates, one per canonical URL.

    Hits are taken round-robin across queries, so every option x dimension gets a share of
    the candidate budget instead of the first query taking it all.
    """
    calls: list[ProviderCall] = list(previous.provider_calls) if previous else []
    per_query: list[list[Candidate]] = []
    for query in plan.queries:
        for name, provider in providers.items():
            hits, call = _search(provider, name, query, ctx)
            calls.append(call)
            per_query.append([_candidate(h, name, query, rank) for rank, h in enumerate(hits, 1)])
    seed = list(previous.candidates) if previous else []
    candidates, merged = _merge(seed, per_query, plan.limits.max_candidates)
    ctx.record(
        "retrieve_done", candidates=len(candidates), duplicates_merged=merged, calls=len(calls)
    )
    return Candidates(
        candidates=candidates,
        provider_calls=calls,
        duplicates_merged=merged,
        replans=(previous.replans + 1) if previous else 0,
    )


def _search(
    provider: SearchProvider, name: str, query: SubQuery, ctx: StageContext
) -> tuple[list[SearchHit], ProviderCall]:
    started = time.monotonic()
    result = provider.search(query.text, HITS_PER_QUERY)
    elapsed = int((time.monotonic() - started) * 1000)
    call = ProviderCall(
        provider=name,
        query=query.text,
        outcome=result.outcome,
        hits=len(result.hits),
        detail=result.detail,
        elapsed_ms=elapsed,
    )
    if result.outcome is not Outcome.OK:
        ctx.record(
            "provider_outcome",
            provider=name,
            query=query.text,
            outcome=result.outcome.value,
            detail=result.detail,
        )
    return (result.hits if result.outcome is Outcome.OK else []), call


def _candidate(hit: SearchHit, provider: str, query: SubQuery, rank: int) -> Candidate:
    return Candidate(
        id=source_id(hit.url),
        url=hit.url,
        title=hit.title or hit.url,
        snippet=hit.snippet,
        provider=provider,
        query=query.text,
        rank=rank,
        published=hit.published,
        option=query.option,
        dimension=query.dimension,
        local_path=hit.local_path,
    )


def _merge(
    seed: list[Candidate], per_query: list[list[Candidate]], limit: int
) -> tuple[list[Candidate], int]:
    seen = {canonical_url(c.url) for c in seed}
    kept = list(seed)
    merged = 0
    depth = max((len(hits) for hits in per_query), default=0)
    for position in range(depth):
        for hits in per_query:
            if position >= len(hits):
                continue
            key = canonical_url(hits[position].url)
            if key in seen:
                merged += 1
            elif len(kept) < limit:
                seen.add(key)
                kept.append(hits[position])
    return kept, merged
