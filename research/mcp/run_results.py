"""What the run-level tools answer: a pydantic model each, whose `status` says how it went
(the statuses of research.mcp.common), and the dimensions start_research takes."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from research.models import StageRun


class StartedRun(BaseModel):
    status: str = Field(description="OK when the run was created and queued; INVALID otherwise")
    run_id: str | None = None
    uri: str | None = Field(None, description="the run's manifest resource")
    errors: dict[str, list[str]] = Field(default_factory=dict, description="field -> messages")


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
    confidence: float | None = None
    error: str = ""


class Report(BaseModel):
    status: str = Field(
        description="OK, NOT_FINISHED (no report yet), NO_HIT (no such run) or DAMAGED (the "
        "report no longer matches its recorded checksum; the message says what to re-run)"
    )
    run_id: str
    uri: str | None = None
    markdown: str | None = None
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
    data: Any = Field(None, description="the artifact, JSON parsed (text for .md files)")
    message: str = ""


class DimensionInput(BaseModel):
    name: str
    weight: float = 1.0
