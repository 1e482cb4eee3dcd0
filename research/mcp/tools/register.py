"""Registers the five stage tools on a server acting for one user: names, descriptions,
argument schemas (from type hints) and annotations; each hands its work to a thread, and the
text work to research.offload's processes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import anyio
from asgiref.sync import sync_to_async
from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from research import bounds, offload
from research.mcp.arguments import Names, RunId, StartIndex
from research.mcp.common import (
    INVALID,
    READ_ONLY,
    Reporter,
)
from research.mcp.tools.assess import assess
from research.mcp.tools.filtering import filter_given, filter_run
from research.mcp.tools.pages import fetch_page, key_points_of_source, key_points_of_text
from research.mcp.tools.results import (
    ASSESS,
    DEFAULT_PAGE_LENGTH,
    FETCH,
    FILTER,
    KEY_POINTS,
    MAX_CANDIDATES,
    MAX_PAGE_LENGTH,
    MAX_RESULTS,
    MAX_TEXT,
    SEARCH,
    AssessmentResult,
    CandidateIn,
    FilterResult,
    KeyPoints,
    PageText,
    SearchResults,
    invalid,
)
from research.mcp.tools.search import search


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
        query: Annotated[
            str,
            Field(
                max_length=bounds.QUERY_CHARS,
                description="The search query, e.g. 'Quillsync licence'.",
            ),
        ],
        source: Annotated[
            str,
            Field(
                max_length=bounds.NAME_CHARS,
                description="One source's name, from list_sources; empty for the default sources.",
            ),
        ] = "",
        max_results: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_RESULTS,
                description=f"The most results to return (1 to {MAX_RESULTS}).",
            ),
        ] = MAX_RESULTS,
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
        run_id: Annotated[
            str,
            Field(
                max_length=bounds.RUN_ID_CHARS,
                description="A run whose retrieved candidates to judge (or give candidates).",
            ),
        ] = "",
        candidates: Annotated[
            list[CandidateIn] | None,
            Field(
                max_length=MAX_CANDIDATES,
                description=f"Candidates you found yourself, at most {MAX_CANDIDATES} (instead "
                "of run_id).",
            ),
        ] = None,
        question: Annotated[
            str,
            Field(
                max_length=bounds.QUESTION_CHARS,
                description="With candidates: the decision question they are for.",
            ),
        ] = "",
        options: Annotated[
            Names | None, Field(description="With candidates: the options being compared.")
        ] = None,
        dimensions: Annotated[
            Names | None,
            Field(description="With candidates: the dimensions, by name (optional)."),
        ] = None,
        max_kept: Annotated[
            int | None,
            Field(
                ge=1,
                le=MAX_CANDIDATES,
                description=f"The most candidates to keep (1 to {MAX_CANDIDATES}); empty for "
                "the stage's own limit.",
            ),
        ] = None,
    ) -> FilterResult:
        if bool(run_id.strip()) == bool(candidates):
            return invalid(
                FilterResult(status=INVALID), "Give either run_id or candidates (not both)."
            )
        if candidates:
            return await offload.run(
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
        url: Annotated[
            str, Field(max_length=bounds.URL_CHARS, description="The page's http(s) address.")
        ],
        start_index: StartIndex = 0,
        max_length: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_PAGE_LENGTH,
                description=f"The most characters to return (1 to {MAX_PAGE_LENGTH:,}).",
            ),
        ] = DEFAULT_PAGE_LENGTH,
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
        run_id: Annotated[
            str,
            Field(
                max_length=bounds.RUN_ID_CHARS,
                description="A run whose stored page to read (with source_id), or empty.",
            ),
        ] = "",
        source_id: Annotated[
            str,
            Field(
                max_length=bounds.NAME_CHARS,
                description="With run_id: the page's source id, e.g. s1 (round_3_notes.json).",
            ),
        ] = "",
        text: Annotated[
            str,
            Field(
                max_length=MAX_TEXT,
                description=f"Text to read instead of a run's page (at most {MAX_TEXT:,} chars).",
            ),
        ] = "",
        options: Annotated[
            Names | None, Field(description="With text: the options the key points are about.")
        ] = None,
        dimensions: Annotated[
            Names | None, Field(description="With text: the dimensions, by name (optional).")
        ] = None,
        limit: Annotated[
            int,
            Field(ge=1, le=50, description="With text: the most key points to return (1 to 50)."),
        ] = 24,
    ) -> KeyPoints:
        if bool(run_id.strip()) == bool(text):
            message = "Give either run_id with source_id, or text with options (not both)."
            return invalid(KeyPoints(status=INVALID), message)
        if text:
            return await offload.run(
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
    async def generate_assessment(run_id: RunId, ctx: Context) -> AssessmentResult:
        return await sync_to_async(assess)(user, run_id, reporter(ctx))
