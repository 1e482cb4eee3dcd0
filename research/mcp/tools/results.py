"""What the stage tools answer: a pydantic model each, whose `status` says how it went, and
the bounds of their arguments."""

from __future__ import annotations

from typing import Any

from mcp_types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field

from research import bounds
from research.artifacts import (
    Assessment,
    CellRef,
    RankedOption,
)
from research.mcp.common import (
    INVALID,
    NO_RECOMMENDATION_REASON,
    WITHHELD,
    failed,
)

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
    model_config = ConfigDict(extra="forbid")

    url: str = Field(
        max_length=bounds.URL_CHARS, description="The candidate page's http(s) address."
    )
    title: str = Field(
        "", max_length=bounds.SNIPPET_CHARS, description="Its title, as the search gave it."
    )
    snippet: str = Field(
        "", max_length=bounds.SNIPPET_CHARS, description="The search's snippet of it."
    )
    published: str | None = Field(
        None, max_length=bounds.DATE_CHARS, description="ISO date (YYYY-MM-DD) when known"
    )


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
    withheld: str | None = Field(None, description=WITHHELD)
    no_recommendation_reason: str = Field("", description=NO_RECOMMENDATION_REASON)
    would_settle: str = Field(
        "", description="when nothing is recommended: the missing evidence that would settle it"
    )
    settling_cells: list[CellRef] = Field(
        default_factory=list,
        description="the missing (option, dimension) cells that would settle it, most weight first",
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


def invalid(model: Any, message: str) -> CallToolResult:
    model.status = INVALID
    model.message = message
    return failed(model, message)
