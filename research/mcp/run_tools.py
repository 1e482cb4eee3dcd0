"""The run-level tools: start a run (start_research), follow it (get_run_status), and read
what it produced (get_report, read_dataset), each acting for one user."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import (
    CallToolResult,
    ToolAnnotations,
)

from research import selectors, services
from research.mcp.common import (
    ARTIFACTS,
    DAMAGED,
    INVALID,
    NOT_FINISHED,
    READ_ONLY,
    Reporter,
    artifact_uri,
    failed,
    owned_run,
    readable,
)
from research.mcp.resources import mime_type
from research.mcp.run_results import (
    Dataset,
    DimensionInput,
    Report,
    RunStatus,
    StageStatus,
    StartedRun,
)
from research.names import (
    PAGES_DIR,
    REPORT,
)
from research.outcomes import Outcome
from research.store import INDEX, LOG, ArtifactDamaged, StoreError, readers, store_for


def start_run(
    user,
    question: str,
    options: list[str],
    dimensions: list[DimensionInput],
    preset: str,
    sources: list[str],
) -> StartedRun | CallToolResult:
    try:
        form = services.Submission(
            question=question,
            options=options,
            dimensions=[d.model_dump() for d in dimensions],
            preset=preset,
            sources=sources,
        )
        run = services.submit_question(user, form)
    except services.QuestionInvalid as exc:
        errors = {k: [str(m) for m in as_list(v)] for k, v in exc.errors.items()}
        lines = [f"{field}: {m}" for field, msgs in errors.items() for m in msgs]
        result = StartedRun(status=INVALID, errors=errors)
        return failed(result, "The question was not accepted.\n" + "\n".join(lines))
    return StartedRun(status=Outcome.OK, run_id=run.run_id, uri=artifact_uri(run.run_id, INDEX))


def status_of(user, run_id: str) -> RunStatus | CallToolResult:
    try:
        run = owned_run(user, run_id)
    except LookupError as exc:
        return failed(RunStatus(status=Outcome.NO_HIT, run_id=run_id, error=str(exc)), str(exc))
    verdict = selectors.run_verdict(run)
    stages = [
        StageStatus(
            stage=view.stage,
            label=view.label,
            status=view.status,
            counts=view.raw_counts,
            outcomes=view.outcomes,
            attempts=view.attempts,
            error=view.error,
        )
        for view in selectors.run_stages(run)
    ]
    return RunStatus(
        status=Outcome.OK,
        run_id=run.run_id,
        question=run.question,
        run_status=run.status,
        current_stage=run.current_stage or None,
        stages=stages,
        recommendation=verdict.option if verdict else None,
        confidence=verdict.confidence if verdict else None,
        error=run.error,
    )


def report_of(user, run_id: str) -> Report | CallToolResult:
    try:
        owned_run(user, run_id)
    except LookupError as exc:
        return failed(Report(status=Outcome.NO_HIT, run_id=run_id, message=str(exc)), str(exc))
    try:
        text = readers.report(store_for(run_id))
    except ArtifactDamaged as exc:
        return failed(Report(status=DAMAGED, run_id=run_id, message=str(exc)), str(exc))
    except FileNotFoundError:
        message = (
            f"Run {run_id} has not finished: its report is written by the decide stage. "
            "Call get_run_status to see where it is."
        )
        return Report(status=NOT_FINISHED, run_id=run_id, message=message)
    return Report(status=Outcome.OK, run_id=run_id, uri=artifact_uri(run_id, REPORT), markdown=text)


def dataset_of(user, run_id: str, name: str) -> Dataset | CallToolResult:
    try:
        owned_run(user, run_id)
        if not readable(name):
            raise StoreError(
                f"not an artifact name: {name!r}; choose one of {', '.join(ARTIFACTS)}, "
                f"{LOG} or {PAGES_DIR}/<source_id>.md"
            )
        text = store_for(run_id).read_text(name)
    except LookupError as exc:
        result = Dataset(status=Outcome.NO_HIT, run_id=run_id, name=name, message=str(exc))
        return failed(result, str(exc))
    except ArtifactDamaged as exc:
        result = Dataset(status=DAMAGED, run_id=run_id, name=name, message=str(exc))
        return failed(result, str(exc))
    except StoreError as exc:
        result = Dataset(status=INVALID, run_id=run_id, name=name, message=str(exc))
        return failed(result, str(exc))
    except FileNotFoundError:
        message = f"Run {run_id} has no {name} (yet)."
        return failed(
            Dataset(status=Outcome.NO_HIT, run_id=run_id, name=name, message=message), message
        )
    data: Any = text
    if name.endswith(".json"):
        data = json.loads(text)
    elif name == LOG:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    return Dataset(
        status=Outcome.OK,
        run_id=run_id,
        name=name,
        uri=artifact_uri(run_id, name),
        mime_type=mime_type(name),
        data=data,
    )


def register_run_tools(server: MCPServer, user, reporter: Callable[[Context], Reporter]) -> None:
    """Add the four run-level tools to `server`, acting for `user`; `reporter` makes the
    Reporter of one call."""

    @server.tool(
        name="start_research",
        title="Start a research run",
        description=(
            "Call this when the user asks a decision question (which option to choose) that "
            "has no run yet. It validates the question exactly as the web form does, starts "
            "the five-stage pipeline in the background and returns the run_id at once; then "
            "call get_run_status to follow it. Do not call it again for a question that "
            "already has a run (see the research://runs resource)."
        ),
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False
        ),
    )
    async def start_research(
        question: str,
        options: list[str] | None = None,
        dimensions: list[DimensionInput] | None = None,
        preset: str = "",
        sources: list[str] | None = None,
        *,
        ctx: Context,
    ) -> StartedRun:
        result = await sync_to_async(start_run)(
            user, question, options or [], dimensions or [], preset, sources or []
        )
        if isinstance(result, StartedRun):
            await reporter(ctx).log("info", f"queued run {result.run_id}: {question.strip()}")
        return result

    @server.tool(
        name="get_run_status",
        title="Run status",
        description=(
            "Call this to see how far a run has got: the run's status and, for each of the "
            "five stages, its status (pending, queued, running, done, skipped, failed), counts "
            "and error. Call it after start_research and before get_report; while a stage is "
            "running, wait a few seconds between calls."
        ),
        annotations=READ_ONLY,
    )
    async def get_run_status(run_id: str) -> RunStatus:
        return await sync_to_async(status_of)(user, run_id)

    @server.tool(
        name="get_report",
        title="Run report",
        description=(
            "Call this once get_run_status shows the decide stage done, to get the run's "
            "report (recommendation, confidence, score matrix, contradictions, evidence) as "
            "Markdown. Before then it answers status NOT_FINISHED."
        ),
        annotations=READ_ONLY,
    )
    async def get_report(run_id: str) -> Report:
        return await sync_to_async(report_of)(user, run_id)

    @server.tool(
        name="read_dataset",
        title="Read a run artifact",
        description=(
            "Call this to read one artifact of a run by name when you need its data rather "
            f"than the report: {', '.join(ARTIFACTS)}, {LOG} (the decision log), or "
            f"{PAGES_DIR}/<source_id>.md for a page deep-read stored. JSON artifacts come "
            "back parsed. Read only the artifact you need instead of all of them."
        ),
        annotations=READ_ONLY,
    )
    async def read_dataset(run_id: str, name: str) -> Dataset:
        return await sync_to_async(dataset_of)(user, run_id, name)


def as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]
