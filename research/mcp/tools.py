"""The stage tools: one step of a stage at a time, for a client that does the research itself.

Each tool runs the same code the pipeline stage runs (research.stages, research.providers,
decisions), writes nothing, and answers with a pydantic model whose `status` is an Outcome
(research.outcomes) or one of the statuses in research.mcp.common. "Looked and found
nothing" (NO_HIT) is an answer; "could not look" (TIMEOUT, UNAVAILABLE, BLOCKED ...),
NOT_READY, INVALID and a run that is not the user's are isError results that still carry
their status, so the two never blur for the client either.

Sources are the operator's (research.sources): a client names one, never a folder or a
search server's URL; pages are fetched only through the guarded fetcher.

The tools that take a while (searching, fetching, assessing) say how they are going as they
go, through a research.mcp.common.Reporter: a log line per step and, when the client sent a
progressToken, a progress notification.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Annotated, Any
from urllib.parse import urlsplit

import anyio
from asgiref.sync import sync_to_async
from django.conf import settings
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult
from pydantic import BaseModel, Field

from research.artifacts import (
    AskedDimension,
    Assessment,
    Candidate,
    Candidates,
    Decision,
    Limits,
    Plan,
    Question,
    RankedOption,
)
from research.context import StageContext
from research.mcp.common import (
    INVALID,
    NOT_READY,
    READ_ONLY,
    Reporter,
    artifact_uri,
    current_stage,
    failed,
    owned_run,
    valid_source_id,
)
from research.names import (
    CANDIDATES,
    CROSSCHECK,
    DECISION,
    FINISHED,
    NOTES,
    PLAN,
    page_artifact,
    stage_label,
)
from research.outcomes import Outcome
from research.providers.extract import extract_page
from research.providers.fetch import HttpFetcher
from research.providers.search import SourceSpecError, build_provider
from research.providers.urls import canonical_url, source_id
from research.runs.runners.decide import decide_from_files
from research.selectors import run_stages
from research.sources import SourceChoice, UnknownSource, configured_sources
from research.stages.filter import filter_candidates
from research.stages.keypoints import key_points
from research.stages.plan import PlanError, build_plan
from research.stages.text import discover_aliases
from research.store import readers, store_for

MAX_RESULTS = 10  # one search answers with at most this many results
MAX_CANDIDATES = 50  # candidates one chunk_filter_candidates call judges
DEFAULT_PAGE_LENGTH = 5_000  # characters of page text one page_fetch_markdown call returns
MAX_PAGE_LENGTH = 20_000
MAX_TEXT = 200_000  # characters of text extract_key_points reads
FETCH_STEPS = 2  # page_fetch_markdown: fetch, then extract the main text
ASSESS_STEPS = 3  # generate_assessment from the artifacts: read, verify quotes, score

# The stage tools, by the pipeline stage they belong to (research.mcp.gating lists them).
SEARCH = "search_engine_query"
FILTER = "chunk_filter_candidates"
FETCH = "page_fetch_markdown"
KEY_POINTS = "extract_key_points"
ASSESS = "generate_assessment"


# --- results ------------------------------------------------------------------------------


class SearchHitOut(BaseModel):
    url: str
    title: str
    snippet: str = ""
    published: str | None = None
    source: str = Field(description="the configured source that found it")


class SourceOutcome(BaseModel):
    source: str
    outcome: str = Field(description="OK, NO_HIT, TIMEOUT, UNAVAILABLE, RATE_LIMITED ...")
    hits: int = 0
    detail: str = ""


class SearchResults(BaseModel):
    status: str = Field(
        description="OK (results found), NO_HIT (every source looked, none found anything), "
        "the outcome of a source that could not look when nothing was found, or INVALID"
    )
    query: str
    results: list[SearchHitOut] = Field(default_factory=list)
    sources: list[SourceOutcome] = Field(default_factory=list, description="outcome per source")
    message: str = ""


class CandidateIn(BaseModel):
    url: str
    title: str = ""
    snippet: str = ""
    published: str | None = Field(None, description="ISO date (YYYY-MM-DD) when known")


class KeptOut(BaseModel):
    id: str
    url: str
    title: str
    score: float
    reasons: list[str]


class DroppedOut(BaseModel):
    id: str
    url: str
    title: str
    reason: str
    score: float | None = None


class FilterResult(BaseModel):
    status: str = Field(description="OK, NOT_READY (no candidates yet), NO_HIT or INVALID")
    run_id: str | None = None
    max_kept: int | None = None
    kept: list[KeptOut] = Field(default_factory=list)
    dropped: list[DroppedOut] = Field(default_factory=list)
    message: str = ""


class PageText(BaseModel):
    status: str = Field(
        description="OK, NO_HIT (no readable text), BLOCKED (private address, robots.txt, "
        "size or type refused), TIMEOUT, UNAVAILABLE, UNAUTHORIZED, RATE_LIMITED or INVALID"
    )
    url: str
    final_url: str | None = None
    title: str = ""
    published: str | None = None
    site: str = ""
    content: str = Field("", description="Markdown, from start_index on")
    start_index: int = 0
    next_index: int | None = Field(
        None, description="start_index of the next part; null at the end"
    )
    total_length: int = Field(0, description="characters of main text the page has")
    message: str = ""


class KeyPointOut(BaseModel):
    text: str
    quote: str = Field(description="an exact substring of the text, at `offset`")
    offset: int
    option: str | None = None
    dimension: str | None = None


class KeyPoints(BaseModel):
    status: str = Field(
        description="OK, NO_HIT (no key points, or no such source), NOT_READY (deep-read has "
        "not run), the page's fetch outcome when it could not be read, or INVALID"
    )
    run_id: str | None = None
    source_id: str | None = None
    uri: str | None = Field(None, description="the stored page the offsets refer to")
    key_points: list[KeyPointOut] = Field(default_factory=list)
    message: str = ""


class ScoreOut(BaseModel):
    option: str
    dimension: str
    score: float | None = None
    missing: bool = False


class AssessmentResult(BaseModel):
    status: str = Field(description="OK, NOT_READY (not cross-validated yet) or NO_HIT")
    run_id: str
    stage: str | None = Field(None, description="the run's current stage")
    source: str | None = Field(
        None, description="stored (the decide stage's own result) or computed (from the artifacts)"
    )
    recommendation: str | None = None
    reasons: list[str] = Field(default_factory=list)
    single_site: str | None = Field(
        None,
        description="set when no recommendation was given because the best-scoring option's "
        "evidence all comes from this one site: a recommendation needs two or more",
    )
    confidence: float | None = None
    threshold: int | None = None
    low_confidence: bool | None = None
    assessment: Assessment | None = None
    ranking: list[RankedOption] = Field(
        default_factory=list,
        description="best first; each total is the weighted mean over every dimension, one "
        "without evidence counting as neutral (50), with evidence_share, the share of the "
        "weight (0-100) that rests on evidence, and the independent sites behind it",
    )
    scores: list[ScoreOut] = Field(default_factory=list)
    missing_information: list[str] = Field(default_factory=list)
    message: str = ""


# --- search_engine_query -------------------------------------------------------------------


def search(
    query: str, source: str, max_results: int, reporter: Reporter
) -> SearchResults | CallToolResult:
    text = query.strip()
    if not text:
        return _invalid(SearchResults(status=INVALID, query=query), "The query is empty.")
    try:
        chosen = _sources(source)
    except UnknownSource as exc:
        names = ", ".join(c.name for c in configured_sources())
        message = f"{exc}; the configured sources are: {names}"
        return _invalid(SearchResults(status=INVALID, query=query), message)

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
        provider = build_provider(choice.spec)
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


# --- chunk_filter_candidates ---------------------------------------------------------------


def filter_run(user, run_id: str, max_kept: int | None) -> FilterResult | CallToolResult:
    try:
        owned_run(user, run_id)
    except LookupError as exc:
        return failed(
            FilterResult(status=Outcome.NO_HIT, run_id=run_id, message=str(exc)), str(exc)
        )
    store = store_for(run_id)
    if not (readers.sound(store, PLAN) and readers.sound(store, CANDIDATES)):
        message = (
            f"Run {run_id} has no candidates yet: they are written when its retrieve stage "
            "finishes. Call get_run_status to see where it is."
        )
        return failed(FilterResult(status=NOT_READY, run_id=run_id, message=message), message)
    plan = readers.plan(store)
    return _judged(_with_max_kept(plan, max_kept), readers.candidates(store), run_id)


def filter_given(
    candidates: list[CandidateIn],
    question: str,
    options: list[str],
    dimensions: list[str],
    max_kept: int | None,
) -> FilterResult | CallToolResult:
    try:
        asked = Question(
            question=question,
            options=options,
            dimensions=[AskedDimension(name=d) for d in dimensions],
            sources=["given"],  # the candidates come with the call; no source is searched
        )
        plan = build_plan(asked, Limits(max_kept=settings.MAX_KEPT))
    except PlanError as exc:
        return _invalid(FilterResult(status=INVALID), f"The question was not accepted: {exc}")
    unusable = [
        f"candidate {n} ({c.url[:200]!r})"
        for n, c in enumerate(candidates, 1)
        if not _web_address(c.url)
    ]
    if unusable:
        message = f"Every candidate needs an http(s) address with a host: {', '.join(unusable)}."
        return _invalid(FilterResult(status=INVALID), message)
    given = Candidates(
        candidates=[
            Candidate(
                id=source_id(c.url),
                url=c.url,
                title=c.title or c.url,
                snippet=c.snippet,
                provider="given",
                query="",
                rank=rank,
                published=c.published,
            )
            for rank, c in enumerate(candidates, 1)
        ]
    )
    return _judged(_with_max_kept(plan, max_kept), given, None)


def _web_address(url: str) -> bool:
    """An http(s) URL with a host and a valid port: what a source can be and be read from."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018  (raises ValueError for a port out of range)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def _with_max_kept(plan: Plan, max_kept: int | None) -> Plan:
    if max_kept is None:
        return plan
    return plan.model_copy(update={"limits": plan.limits.model_copy(update={"max_kept": max_kept})})


def _judged(plan: Plan, candidates: Candidates, run_id: str | None) -> FilterResult:
    filtered = filter_candidates(plan, candidates, StageContext())
    kept = [
        KeptOut(id=k.id, url=k.url, title=k.title, score=k.score, reasons=k.reasons)
        for k in filtered.kept
    ]
    dropped = [
        DroppedOut(**d.model_dump(include=set(DroppedOut.model_fields))) for d in filtered.dropped
    ]
    total = len(candidates.candidates)
    status = Outcome.OK if kept else Outcome.NO_HIT
    message = f"kept {len(kept)} of {total}, dropped {len(dropped)}"
    if len(kept) < plan.limits.min_kept:
        message += (
            f"; fewer than {plan.limits.min_kept} strong sources: search again with broader "
            "queries rather than keeping weak ones"
        )
    return FilterResult(
        status=status,
        run_id=run_id,
        max_kept=plan.limits.max_kept,
        kept=kept,
        dropped=dropped,
        message=message,
    )


# --- page_fetch_markdown -------------------------------------------------------------------


def fetch_page(
    url: str, start_index: int, max_length: int, reporter: Reporter
) -> PageText | CallToolResult:
    fetched = HttpFetcher.from_settings().fetch(url.strip())
    result = PageText(status=fetched.outcome, url=url, final_url=fetched.final_url)
    reporter.step(
        f"fetched {fetched.final_url or url}: {fetched.outcome}",
        total=FETCH_STEPS,
        level="info" if fetched.outcome.looked else "warning",
    )
    if fetched.outcome is not Outcome.OK:
        result.message = fetched.detail or f"the fetch ended {fetched.outcome}"
        if fetched.outcome is Outcome.NO_HIT:
            return result  # the server answered: there is no such page
        return failed(result, f"{fetched.outcome}: {result.message}")
    page = extract_page(
        fetched.body,
        fetched.content_type,
        fetched.final_url or url,
        settings.FETCH_MAX_BYTES,
    )
    result.title, result.published, result.site = page.title, page.published, page.site
    result.total_length = len(page.text)
    reporter.step(f"extracted {len(page.text):,} characters of main text", total=FETCH_STEPS)
    if not page.text.strip():
        result.status, result.message = Outcome.NO_HIT, "the page has no readable main text"
        return result
    if start_index >= len(page.text):
        result.status = INVALID
        result.message = (
            f"start_index {start_index} is past the end: the text has {len(page.text)} characters"
        )
        return failed(result, result.message)
    end = min(start_index + max_length, len(page.text))
    result.content, result.start_index = page.text[start_index:end], start_index
    result.next_index = end if end < len(page.text) else None
    return result


# --- extract_key_points --------------------------------------------------------------------


def key_points_of_source(user, run_id: str, source: str) -> KeyPoints | CallToolResult:
    result = KeyPoints(status=Outcome.OK, run_id=run_id, source_id=source)
    try:
        owned_run(user, run_id)
    except LookupError as exc:
        result.status, result.message = Outcome.NO_HIT, str(exc)
        return failed(result, str(exc))
    if not valid_source_id(source):
        return _invalid(result, f"not a source id: {source!r}")
    store = store_for(run_id)
    if not readers.sound(store, NOTES):
        result.status = NOT_READY
        result.message = (
            f"Run {run_id} has no deep-read notes yet. Read the page with page_fetch_markdown "
            "and pass its text here instead, or wait for the deep-read stage."
        )
        return failed(result, result.message)
    notes = next((s for s in readers.notes(store).sources if s.source_id == source), None)
    if notes is None:
        result.status = Outcome.NO_HIT
        result.message = f"deep-read read no source {source!r} in run {run_id}"
        return failed(result, result.message)
    if notes.status is not Outcome.OK:
        result.status = notes.status
        result.message = f"the page could not be read: {notes.detail or notes.status}"
        return failed(result, result.message)
    if notes.duplicate_of:
        result.status = Outcome.NO_HIT
        result.message = f"{notes.detail}: read the key points of {notes.duplicate_of}"
        return result
    result.uri = artifact_uri(run_id, page_artifact(source))
    result.key_points = [
        KeyPointOut(**kp.model_dump(include=set(KeyPointOut.model_fields)))
        for kp in notes.key_points
    ]
    result.message = f"{len(result.key_points)} key points, offsets in the stored page"
    return result


def key_points_of_text(
    text: str, options: list[str], dimensions: list[str], limit: int
) -> KeyPoints | CallToolResult:
    result = KeyPoints(status=Outcome.OK)
    names = [o.strip() for o in options if o.strip()]
    if not text.strip():
        return _invalid(result, "The text is empty.")
    if not names:
        return _invalid(result, "Name at least one option the key points should be about.")
    points = key_points(
        text,
        names,
        [d.strip() for d in dimensions if d.strip()],
        page_option=names[0] if len(names) == 1 else None,
        limit=limit,
        aliases=discover_aliases([text], names),
    )
    result.key_points = [
        KeyPointOut(**kp.model_dump(include=set(KeyPointOut.model_fields))) for kp in points
    ]
    if not points:
        result.status = Outcome.NO_HIT
        result.message = "no sentence of the text says something checkable about the options"
    else:
        result.message = f"{len(points)} key points, offsets in the text given"
    return result


# --- generate_assessment -------------------------------------------------------------------


def assess(user, run_id: str, reporter: Reporter) -> AssessmentResult | CallToolResult:
    try:
        run = owned_run(user, run_id)
    except LookupError as exc:
        return failed(
            AssessmentResult(status=Outcome.NO_HIT, run_id=run_id, message=str(exc)), str(exc)
        )
    statuses = {view.stage: view.status for view in run_stages(run)}
    current = current_stage(run)
    store = store_for(run_id)
    if statuses.get("crosscheck") not in FINISHED or not readers.sound(store, CROSSCHECK):
        message = (
            f"Run {run_id} is not cross-validated yet (it is at the {stage_label(current)} "
            "stage): an assessment needs the cross-validate stage's claims and contradictions."
        )
        return failed(
            AssessmentResult(status=NOT_READY, run_id=run_id, stage=current, message=message),
            message,
        )
    if statuses.get("decide") in FINISHED and readers.sound(store, DECISION):
        decision, source = readers.decision(store), "stored"
        reporter.step(f"read the decide stage's result for run {run_id}", total=1)
    else:
        decision, source = _decision(store, reporter), "computed"
    return AssessmentResult(
        status=Outcome.OK,
        run_id=run_id,
        stage=current,
        source=source,
        recommendation=decision.recommendation.option,
        reasons=decision.recommendation.reasons,
        single_site=decision.recommendation.single_site,
        confidence=decision.assessment.confidence,
        threshold=decision.threshold,
        low_confidence=decision.recommendation.low_confidence,
        assessment=decision.assessment,
        ranking=decision.ranking,
        scores=[
            ScoreOut(option=c.option, dimension=c.dimension, score=c.score, missing=c.missing)
            for c in decision.matrix
        ],
        missing_information=decision.missing_information,
    )


def _decision(store, reporter: Reporter) -> Decision:
    """What the decide stage would conclude from the run's artifacts, written nowhere."""
    say = partial(reporter.step, total=ASSESS_STEPS)
    return decide_from_files(store, StageContext(), say=say).decision


def _invalid(model: Any, message: str) -> CallToolResult:
    model.status = INVALID
    model.message = message
    return failed(model, message)


# --- registration --------------------------------------------------------------------------


def register_stage_tools(server: MCPServer, user, reporter: Callable[[Context], Reporter]) -> None:
    """Add the five stage tools to `server`, acting for `user`; `reporter` makes the
    Reporter of one call."""

    @server.tool(
        name=SEARCH,
        title="Search the configured sources",
        description=(
            "Call this during the retrieve stage to run one search query through the sources "
            "the operator configured (name one with `source`, or leave it empty for the "
            f"default ones). It returns at most {MAX_RESULTS} results, unfiltered, and how "
            "each source's search ended: NO_HIT means a source looked and found nothing; "
            "TIMEOUT, UNAVAILABLE and the like mean it could not look. Call it once per "
            "sub-query; judge the results with chunk_filter_candidates."
        ),
        annotations=READ_ONLY,
    )
    async def search_engine_query(
        query: str,
        source: str = "",
        max_results: Annotated[int, Field(ge=1, le=MAX_RESULTS)] = MAX_RESULTS,
        *,
        ctx: Context,
    ) -> SearchResults:
        return await anyio.to_thread.run_sync(search, query, source, max_results, reporter(ctx))

    @server.tool(
        name=FILTER,
        title="Keep or drop candidate sources",
        description=(
            "Call this during the filter stage to decide which candidate sources to keep: "
            "either for a run (run_id: its retrieved candidates) or for candidates you found "
            "yourself (candidates, with the question and its options). Each candidate is "
            "kept with a score and reasons, or dropped with the reason (off topic, outdated, "
            "near-duplicate, below the cut), by the filter stage's own rules. Weak sources "
            "are dropped rather than kept to fill the list."
        ),
        annotations=READ_ONLY,
    )
    async def chunk_filter_candidates(
        run_id: str = "",
        candidates: Annotated[list[CandidateIn], Field(max_length=MAX_CANDIDATES)] | None = None,
        question: str = "",
        options: list[str] | None = None,
        dimensions: list[str] | None = None,
        max_kept: Annotated[int, Field(ge=1, le=MAX_CANDIDATES)] | None = None,
    ) -> FilterResult:
        if bool(run_id.strip()) == bool(candidates):
            return _invalid(
                FilterResult(status=INVALID), "Give either run_id or candidates (not both)."
            )
        if candidates:
            return await anyio.to_thread.run_sync(
                filter_given, candidates, question, options or [], dimensions or [], max_kept
            )
        return await sync_to_async(filter_run)(user, run_id.strip(), max_kept)

    @server.tool(
        name=FETCH,
        title="Fetch a page as Markdown",
        description=(
            "Call this during the deep-read stage to read one web page: it is fetched through "
            "the guarded fetcher (private and local addresses, robots.txt refusals, oversized "
            "and non-text bodies come back BLOCKED) and its main text returned as Markdown, "
            f"at most max_length characters (default {DEFAULT_PAGE_LENGTH}) from start_index. "
            "When next_index is set, call again with start_index=next_index for the rest."
        ),
        annotations=READ_ONLY,
    )
    async def page_fetch_markdown(
        url: str,
        start_index: Annotated[int, Field(ge=0)] = 0,
        max_length: Annotated[int, Field(ge=1, le=MAX_PAGE_LENGTH)] = DEFAULT_PAGE_LENGTH,
        *,
        ctx: Context,
    ) -> PageText:
        return await anyio.to_thread.run_sync(
            fetch_page, url, start_index, max_length, reporter(ctx)
        )

    @server.tool(
        name=KEY_POINTS,
        title="Key points of a page",
        description=(
            "Call this during the deep-read stage to get the sentences of a page that say "
            "something checkable about the options, each with its exact quote and offset. "
            "Either for a page a run read (run_id and source_id, from round_3_notes.json) or "
            "for text you have (text, with the options and optionally the dimensions, e.g. "
            "what page_fetch_markdown returned)."
        ),
        annotations=READ_ONLY,
    )
    async def extract_key_points(
        run_id: str = "",
        source_id: str = "",
        text: Annotated[str, Field(max_length=MAX_TEXT)] = "",
        options: list[str] | None = None,
        dimensions: list[str] | None = None,
        limit: Annotated[int, Field(ge=1, le=50)] = 24,
    ) -> KeyPoints:
        if bool(run_id.strip()) == bool(text):
            message = "Give either run_id with source_id, or text with options (not both)."
            return _invalid(KeyPoints(status=INVALID), message)
        if text:
            return await anyio.to_thread.run_sync(
                key_points_of_text, text, options or [], dimensions or [], limit
            )
        return await sync_to_async(key_points_of_source)(user, run_id.strip(), source_id.strip())

    @server.tool(
        name=ASSESS,
        title="Score and assess a run",
        description=(
            "Call this once a run's cross-validate stage is done to get its assessment: the "
            "score of every option on every dimension, the ranking with how much of each "
            "option's weight rests on evidence, the recommendation (or none, and why: nothing "
            "verified, or the best option rests on a single site), the confidence with "
            "coverage, consistency, timeliness and "
            "verifiability, and the missing information. Before cross-validation it answers "
            "NOT_READY with the stage the run is at."
        ),
        annotations=READ_ONLY,
    )
    async def generate_assessment(run_id: str, ctx: Context) -> AssessmentResult:
        return await sync_to_async(assess)(user, run_id, reporter(ctx))
