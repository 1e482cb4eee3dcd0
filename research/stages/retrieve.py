"""Stage 1: run the plan's sub-queries against every search provider, concurrently."""

from __future__ import annotations

import time
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack

from research.artifacts import Candidate, Candidates, Plan, ProviderCall, SubQuery
from research.context import StageContext
from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchProvider
from research.providers.urls import canonical_url, source_id, web_address

HITS_PER_QUERY = 20


def retrieve(
    plan: Plan,
    providers: Mapping[str, SearchProvider],
    ctx: StageContext,
    previous: Candidates | None = None,
    concurrency: int | None = None,
) -> Candidates:
    """Collect at most plan.limits.max_candidates candidates, one per canonical URL.

    Each provider has at most `concurrency` searches in flight (None: every sub-query of
    the plan at once, so retrieve takes about one search's time), and never more than the
    provider's own `max_in_flight`. Results are merged in plan
    order whatever order they finish in, so the artifact and the log do not depend on
    timing. Hits are taken round-robin across queries, so every option x dimension gets a
    share of the candidate budget instead of the first query taking it all.
    """
    calls: list[ProviderCall] = list(previous.provider_calls) if previous else []
    per_query: list[list[Candidate]] = []
    bound = concurrency or max(1, len(plan.queries))
    for query, name, hits, call in _search_all(plan.queries, providers, bound):
        calls.append(call)
        _record_failure(call, ctx)
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
        records=list(previous.records) if previous else [],
    )


def _search_all(
    queries: list[SubQuery], providers: Mapping[str, SearchProvider], concurrency: int
) -> list[tuple[SubQuery, str, list[SearchHit], ProviderCall]]:
    """Every query x provider search, in plan order (query by query, then provider)."""
    with ExitStack() as stack:
        # One pool per provider: a slow provider fills its own slots, never another's.
        pools = {
            name: _pool(stack, name, min(concurrency, getattr(p, "max_in_flight", concurrency)))
            for name, p in providers.items()
        }
        pending: list[tuple[SubQuery, str, Future[tuple[list[SearchHit], ProviderCall]]]] = [
            (query, name, pools[name].submit(_search, provider, name, query))
            for query in queries
            for name, provider in providers.items()
        ]
        return [(query, name, *future.result()) for query, name, future in pending]


def _pool(stack: ExitStack, name: str, workers: int) -> ThreadPoolExecutor:
    pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix=f"search {name}")
    # If a provider raises, searches not yet started are dropped, as a sequential loop
    # would never have reached them.
    stack.callback(pool.shutdown, wait=True, cancel_futures=True)
    return pool


def _search(
    provider: SearchProvider, name: str, query: SubQuery
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
        return [], call
    # A local file is read from its path; any other hit must be an address deep-read can fetch.
    usable = [h for h in result.hits if h.local_path or web_address(h.url)]
    if len(usable) < len(result.hits):
        left_out = len(result.hits) - len(usable)
        note = f"{left_out} result(s) without a usable http(s) address left out"
        call = call.model_copy(
            update={
                "hits": len(usable),
                "detail": "; ".join(filter(None, [call.detail, note])),
                "outcome": Outcome.OK if usable else Outcome.NO_HIT,
            }
        )
    return usable, call


def _record_failure(call: ProviderCall, ctx: StageContext) -> None:
    # Recorded by the caller in plan order, not by the search thread as it finishes, so
    # the log reads the same on every run.
    if call.outcome is not Outcome.OK:
        ctx.record(
            "provider_outcome",
            provider=call.provider,
            query=call.query,
            outcome=call.outcome.value,
            detail=call.detail,
        )


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
