"""search_engine_query: one query through the sources the operator configured, each source's
outcome kept apart, the hits interleaved one result per canonical URL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from mcp_types import CallToolResult

from research.mcp.common import (
    INVALID,
    Reporter,
    failed,
)
from research.mcp.tools.results import (
    SearchHitOut,
    SearchResults,
    SourceOutcome,
    invalid,
)
from research.outcomes import Outcome
from research.providers.search import SourceSpecError, build_provider
from research.providers.urls import canonical_url
from research.sources import SourceChoice, UnknownSource, configured_sources


def search(
    query: str, source: str, max_results: int, reporter: Reporter
) -> SearchResults | CallToolResult:
    text = query.strip()
    if not text:
        return invalid(SearchResults(status=INVALID, query=query), "The query is empty.")
    try:
        chosen = _sources(source)
    except UnknownSource as exc:
        names = ", ".join(c.name for c in configured_sources())
        message = f"{exc}; the configured sources are: {names}"
        return invalid(SearchResults(status=INVALID, query=query), message)

    def searched(choice: SourceChoice) -> tuple[SourceOutcome, list[SearchHitOut]]:
        outcome, hits = _search_one(choice, text, max_results)
        level = "info" if Outcome(outcome.outcome).looked else "warning"
        reporter.step(_searched(outcome), total=len(chosen), level=level)
        return outcome, hits

    with ThreadPoolExecutor(max_workers=len(chosen)) as pool:
        answers = list(pool.map(searched, chosen))
    results = _interleave([hits for _, hits in answers], max_results)
    outcomes = [outcome for outcome, _ in answers]
    status = _search_status(results, outcomes)
    summary = "; ".join(
        f"{o.source}: {o.outcome}" + (f" ({o.detail})" if o.detail else "") for o in outcomes
    )
    result = SearchResults(
        status=status, query=text, results=results, sources=outcomes, message=summary
    )
    if status in (Outcome.OK, Outcome.NO_HIT):
        return result
    return failed(result, f"No source could be searched. {summary}")


def _sources(name: str) -> list[SourceChoice]:
    choices = configured_sources()
    if name.strip():
        wanted = name.strip().lower()
        chosen = [c for c in choices if c.name == wanted]
        if not chosen:
            raise UnknownSource([wanted])
        return chosen
    return [c for c in choices if c.default] or choices


def _search_one(
    choice: SourceChoice, query: str, limit: int
) -> tuple[SourceOutcome, list[SearchHitOut]]:
    try:
        provider = build_provider(choice.spec, name=choice.name)
    except SourceSpecError as exc:
        return SourceOutcome(source=choice.name, outcome=Outcome.UNAVAILABLE, detail=str(exc)), []
    answer = provider.search(query, limit)
    # A source may send an address no one can parse (a broken host or port): leave it out.
    hits = [h for h in answer.hits if _parsable(h.url)] if answer.outcome is Outcome.OK else []
    outcome = SourceOutcome(
        source=choice.name, outcome=answer.outcome, hits=len(hits), detail=answer.detail
    )
    found = [
        SearchHitOut(
            url=h.url,
            title=h.title or h.url,
            snippet=h.snippet,
            published=h.published,
            source=choice.name,
        )
        for h in hits
    ]
    return outcome, found


def _parsable(url: str) -> bool:
    try:
        canonical_url(url)
    except ValueError:
        return False
    return True


def _searched(outcome: SourceOutcome) -> str:
    """The log line of one source's search: "searched notes: 7 hits"."""
    if outcome.outcome == Outcome.OK:
        found = f"{outcome.hits} hit{'s' if outcome.hits != 1 else ''}"
    elif outcome.outcome == Outcome.NO_HIT:
        found = "no hits"
    else:
        found = f"{outcome.outcome}" + (f" ({outcome.detail})" if outcome.detail else "")
    return f"searched {outcome.source}: {found}"


def _interleave(per_source: list[list[SearchHitOut]], limit: int) -> list[SearchHitOut]:
    """Each source's best hit in turn, one result per canonical URL."""
    seen: set[str] = set()
    merged: list[SearchHitOut] = []
    for position in range(max((len(h) for h in per_source), default=0)):
        for hits in per_source:
            if position < len(hits) and len(merged) < limit:
                key = canonical_url(hits[position].url)
                if key not in seen:
                    seen.add(key)
                    merged.append(hits[position])
    return merged


def _search_status(results: list[SearchHitOut], outcomes: list[SourceOutcome]) -> str:
    if results:
        return Outcome.OK
    could_not_look = [o.outcome for o in outcomes if not Outcome(o.outcome).looked]
    return could_not_look[0] if could_not_look else Outcome.NO_HIT
