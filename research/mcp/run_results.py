"""What the run-level tools answer: a pydantic model each, whose `status` says how it went
(the statuses of research.mcp.common), and the dimensions start_research takes."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from research import bounds
from research.mcp.common import NO_RECOMMENDATION_REASON, WITHHELD
from research.models import StageRun

DEFAULT_TEXT_LENGTH = 25_000  # characters of a report or an artifact one call returns
MAX_TEXT_LENGTH = 100_000
DEFAULT_WAIT = 50  # seconds `research` waits by default: under most clients' 60 s timeout
MAX_WAIT = 600

TextLength = Annotated[
    int,
    Field(
        ge=1,
        le=MAX_TEXT_LENGTH,
        description=f"The most characters to return in one call (default {DEFAULT_TEXT_LENGTH:,}); "
        "when there is more, next_index says where to go on.",
    ),
]


class DimensionInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(
        max_length=bounds.NAME_CHARS,
        description="What to weigh the options on, e.g. 'licence risk'.",
    )
    weight: float = Field(
        1.0,
        gt=0,
        allow_inf_nan=False,
        description="How much it counts, relative to the other dimensions (a number above 0, "
        "e.g. 0.4 or 2; weights are normalised to sum to 1). Default 1.",
    )


class DimensionUsed(BaseModel):
    name: str
    weight: float = Field(description="normalised: the weights of a run sum to 1")


class SourceUsed(BaseModel):
    name: str = Field(description="the configured source's name, as list_sources gives it")
    kind: str = Field(description="local, searxng, ddgs or mcp")


class Used(BaseModel):
    """What a run was started with, as the pipeline will use it."""

    options: list[str] = Field(default_factory=list)
    options_from: str = Field("", description="given, or question (read from the question)")
    dimensions: list[DimensionUsed] = Field(default_factory=list)
    preset: str | None = Field(None, description="the preset the dimensions came from, if any")
    sources: list[SourceUsed] = Field(default_factory=list)


class StartedRun(BaseModel):
    status: str = Field(
        description="OK when the run was created and queued; INVALID when the question was "
        "not accepted (errors says why); UNAVAILABLE when no worker is running to run it"
    )
    run_id: str | None = None
    uri: str | None = Field(None, description="the run's manifest resource")
    used: Used | None = Field(None, description="the options, dimensions and sources it uses")
    errors: dict[str, list[str]] = Field(default_factory=dict, description="field -> messages")
    message: str = ""


class StageStatus(BaseModel):
    stage: str
    label: str
    status: str = Field(description=" | ".join(StageRun.Status.values))
    counts: dict[str, Any] = Field(default_factory=dict)
    outcomes: dict[str, int] = Field(default_factory=dict, description="provider outcome -> n")
    attempts: int = 0
    error: str = ""


class RunStatus(BaseModel):
    status: str = Field(description="OK, or NO_HIT when the run is not one of yours")
    run_id: str
    question: str | None = None
    run_status: str | None = Field(None, description="queued | running | done | failed ...")
    current_stage: str | None = None
    stages: list[StageStatus] = Field(default_factory=list)
    recommendation: str | None = None
    withheld: str | None = Field(None, description=WITHHELD)
    no_recommendation_reason: str = Field("", description=NO_RECOMMENDATION_REASON)
    confidence: float | None = None
    error: str = ""


class Report(BaseModel):
    status: str = Field(
        description="OK, NOT_FINISHED (no report yet), NO_HIT (no such run) or DAMAGED (the "
        "report no longer matches its recorded checksum; the message says what to re-run)"
    )
    run_id: str
    uri: str | None = None
    markdown: str | None = Field(None, description="the report, from start_index on")
    start_index: int = 0
    next_index: int | None = Field(
        None, description="start_index of the next part; null at the end"
    )
    total_length: int = Field(0, description="characters of the whole report")
    message: str = ""


class Researched(BaseModel):
    status: str = Field(
        description="OK (the report is in markdown), NOT_FINISHED (still running when the "
        "wait ended: call get_run_status or get_report later), FAILED (the run failed; "
        "message says why), INVALID or UNAVAILABLE (no run was started)"
    )
    run_id: str | None = None
    run_status: str | None = Field(None, description="queued | running | done | failed")
    current_stage: str | None = None
    used: Used | None = Field(None, description="the options, dimensions and sources it used")
    recommendation: str | None = None
    withheld: str | None = Field(None, description=WITHHELD)
    no_recommendation_reason: str = Field("", description=NO_RECOMMENDATION_REASON)
    confidence: float | None = None
    markdown: str | None = Field(None, description="the report, from its start")
    next_index: int | None = Field(
        None, description="where get_report goes on when the report is longer; null if not"
    )
    total_length: int = Field(0, description="characters of the whole report")
    waited: float = Field(0, description="seconds this call waited")
    errors: dict[str, list[str]] = Field(default_factory=dict, description="field -> messages")
    message: str = ""


class Dataset(BaseModel):
    status: str = Field(
        description="OK, NO_HIT (not written yet / no such run), INVALID or DAMAGED (the file "
        "no longer matches its recorded checksum; the message says what to re-run)"
    )
    run_id: str
    name: str
    uri: str | None = None
    mime_type: str | None = None
    data: dict[str, Any] | list[dict[str, Any]] | str | None = Field(
        None,
        description="the artifact, JSON parsed (text for .md files), when it fits in "
        "max_length; else null and `text` holds one part of it",
    )
    text: str | None = Field(None, description="a part of a large artifact's text")
    start_index: int = 0
    next_index: int | None = Field(
        None, description="start_index of the next part; null at the end"
    )
    total_length: int = Field(0, description="characters of the whole artifact")
    message: str = ""


class SourceInfo(BaseModel):
    name: str = Field(
        description="what to pass in `sources` (start_research, research) or `source`"
    )
    kind: str = Field(description="local (documents on the server), searxng, ddgs or mcp")
    label: str
    default: bool = Field(description="used when a question names no source")
    available: bool = Field(description="whether it can be used as configured")
    detail: str = Field("", description="why not, when it cannot")


class Sources(BaseModel):
    status: str = Field(description="OK, or NO_HIT when the operator configured no source")
    sources: list[SourceInfo] = Field(default_factory=list)
    message: str = ""
