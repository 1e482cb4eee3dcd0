"""The MCP server for one Django user: resources, tools and prompts over that user's runs.

Every read goes through research.selectors.run_for (a run the user does not own does not
exist for them) and the run store (which checks artifact names and refuses links); no path
is opened here. Django's ORM is synchronous, so each handler hands its work to
`sync_to_async`.

The run-level tools live here, the stage tools in research.mcp.tools; research.mcp.gating
decides which a session is shown and sends it the change notifications it asked for, and
research.mcp.completions offers argument values. The level a session sets with
logging/setLevel decides which of the tools' log lines it is sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from asgiref.sync import sync_to_async
from mcp.server import ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp_types import (
    CallToolResult,
    EmptyResult,
    LoggingLevel,
    SetLevelRequestParams,
    ToolAnnotations,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, Field

from research import selectors, services
from research.mcp import gating
from research.mcp.common import (
    ARTIFACTS,
    DAMAGED,
    INVALID,
    NOT_FINISHED,
    PAGE_TEMPLATE,
    READ_ONLY,
    RUNS_URI,
    Reporter,
    artifact_uri,
    failed,
    owned_run,
    readable,
    valid_source_id,
)
from research.mcp.completions import register_completions
from research.mcp.prompts import PROMPTS, render_prompt
from research.mcp.tools import register_stage_tools
from research.models import StageRun
from research.names import (
    CANDIDATES,
    CROSSCHECK,
    DECISION,
    FILTERED,
    NOTES,
    NOTES_MD,
    PAGES_DIR,
    PLAN,
    REPORT,
    stage_id,
    stage_label,
)
from research.outcomes import Outcome
from research.store import INDEX, LOG, ArtifactDamaged, StoreError, readers, store_for

INSTRUCTIONS = """Verdict researches a decision question in five stages (retrieve, filter,
deep-read, cross-validate, decide) and writes every stage's output as a run artifact.
Start a run with start_research, follow it with get_run_status, and read the result with
get_report. Each artifact is also a resource: research://runs/{run_id}/<artifact name>.
To carry out a run's stages yourself, call follow_run: the tool list then shows the tools
of the stage the run is at, and changes as the run moves on."""


def mime_type(name: str) -> str:
    if name.endswith(".json"):
        return "application/json"
    if name.endswith(".md"):
        return "text/markdown"
    return "text/plain"


# --- tool results (statuses: research.mcp.common) --------------------------------------------


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


# --- the server ---------------------------------------------------------------------------


def build_server(user) -> MCPServer:
    """The MCP server acting for `user`: it sees and starts only that user's runs."""
    bus = InMemorySubscriptionBus()
    sessions = gating.Sessions(user, bus)
    server = MCPServer(
        name="verdict",
        title="Verdict decision research",
        instructions=INSTRUCTIONS,
        subscriptions=bus,
        lifespan=sessions.listening,
    )
    reporter = _install_logging(server, sessions)

    # -- synchronous reads (run in a thread through sync_to_async) --

    def read_artifact(run_id: str, name: str) -> str:
        """An artifact's text, for resources: every refusal is a ResourceNotFoundError
        (-32602, invalid params), so a foreign run and a bad name look alike."""
        try:
            owned_run(user, run_id)
            return store_for(run_id).read_text(name)
        except LookupError as exc:
            raise ResourceNotFoundError(str(exc)) from None
        except ArtifactDamaged as exc:
            raise ResourceError(str(exc)) from None  # -32603: there, but not sound
        except StoreError as exc:
            raise ResourceNotFoundError(f"invalid artifact: {exc}") from None
        except FileNotFoundError:
            raise ResourceNotFoundError(f"run {run_id} has no {name} yet") from None

    def list_runs() -> str:
        rows = [
            {
                "run_id": run.run_id,
                "question": run.question,
                "status": run.status,
                "current_stage": run.current_stage,
                "created": run.created.isoformat(),
                "uri": artifact_uri(run.run_id, INDEX),
                "report": artifact_uri(run.run_id, REPORT),
            }
            for run in selectors.runs_for(user)
        ]
        return json.dumps({"runs": rows}, ensure_ascii=False, indent=2)

    # -- resources --

    @server.resource(
        RUNS_URI,
        name="runs",
        title="Your runs",
        description="Your research runs, newest first, with each run's status and URIs.",
        mime_type="application/json",
    )
    async def runs() -> str:
        return await sync_to_async(list_runs)()

    def add_artifact_template(name: str) -> None:
        async def read(run_id: str) -> str:
            return await sync_to_async(read_artifact)(run_id, name)

        server.resource(
            artifact_uri("{run_id}", name),
            name=name,
            title=f"Run artifact {name}",
            description=f"The {name} artifact of one of your runs.",
            mime_type=mime_type(name),
        )(read)

    for artifact in ARTIFACTS:
        add_artifact_template(artifact)

    @server.resource(
        PAGE_TEMPLATE,
        name="round_3_page",
        title="A page deep-read stored",
        description="The main text of one source that deep-read fetched, as Markdown.",
        mime_type="text/markdown",
    )
    async def page(run_id: str, source_id: str) -> str:
        if not valid_source_id(source_id):
            raise ResourceNotFoundError(f"not a valid source id: {source_id!r}")
        return await sync_to_async(read_artifact)(run_id, f"{PAGES_DIR}/{source_id}.md")

    # -- tools --

    def start(
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
            errors = {k: [str(m) for m in _as_list(v)] for k, v in exc.errors.items()}
            lines = [f"{field}: {m}" for field, msgs in errors.items() for m in msgs]
            result = StartedRun(status=INVALID, errors=errors)
            return failed(result, "The question was not accepted.\n" + "\n".join(lines))
        return StartedRun(status=Outcome.OK, run_id=run.run_id, uri=artifact_uri(run.run_id, INDEX))

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
        result = await sync_to_async(start)(
            question, options or [], dimensions or [], preset, sources or []
        )
        if isinstance(result, StartedRun):
            await reporter(ctx).log("info", f"queued run {result.run_id}: {question.strip()}")
        return result

    def status_of(run_id: str) -> RunStatus | CallToolResult:
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
        return await sync_to_async(status_of)(run_id)

    def report_of(run_id: str) -> Report | CallToolResult:
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
        return Report(
            status=Outcome.OK, run_id=run_id, uri=artifact_uri(run_id, REPORT), markdown=text
        )

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
        return await sync_to_async(report_of)(run_id)

    def dataset_of(run_id: str, name: str) -> Dataset | CallToolResult:
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
        return await sync_to_async(dataset_of)(run_id, name)

    register_stage_tools(server, user, reporter)
    gating.install(server, sessions)
    register_completions(server, user)

    # -- prompts --

    for prompt_name in PROMPTS:
        _add_prompt(server, prompt_name)

    return server


# What a handshake-era session that never called logging/setLevel is sent.
DEFAULT_LOG_LEVEL: LoggingLevel = "info"


def _install_logging(server: MCPServer, sessions: gating.Sessions) -> Callable[[Context], Reporter]:
    """Serve logging/setLevel, which declares the logging capability, and return what makes
    a tool call's Reporter.

    Up to 2025-11-25 the level a session sets holds for its later calls, until it closes
    (gating drops the session, and with it the level). A 2026-07-28 request has no
    logging/setLevel: it names its own level in _meta, and the SDK sends only that."""
    levels: WeakKeyDictionary[gating.Session, LoggingLevel] = WeakKeyDictionary()

    async def set_level(ctx: ServerRequestContext, params: SetLevelRequestParams) -> EmptyResult:
        levels[sessions.of(ctx)] = params.level
        return EmptyResult()

    # MCPServer has no public way to add a protocol handler; its low-level server does.
    server._lowlevel_server.add_request_handler(
        "logging/setLevel", SetLevelRequestParams, set_level
    )

    def reporter(ctx: Context) -> Reporter:
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return Reporter(ctx, None)
        return Reporter(ctx, levels.get(sessions.of(ctx.request_context), DEFAULT_LOG_LEVEL))

    return reporter


def _add_prompt(server: MCPServer, name: str) -> None:
    stage = stage_id(name)
    label = stage_label(stage)

    def prompt(run_id: str, question: str) -> str:
        return render_prompt(
            name,
            run_id=run_id,
            question=question,
            tools=sorted(gating.STAGE_TOOLS[stage]),
            uri=lambda artifact: artifact_uri(run_id, artifact),
            artifacts={
                "index": INDEX,
                "plan": PLAN,
                "candidates": CANDIDATES,
                "filtered": FILTERED,
                "notes": NOTES,
                "notes_md": NOTES_MD,
                "crosscheck": CROSSCHECK,
                "decision": DECISION,
                "report": REPORT,
                "pages": PAGES_DIR,
            },
        )

    server.prompt(
        name=name,
        title=f"Verdict {label} stage",
        description=f"How to carry out the {label} stage of a run for its question.",
    )(prompt)


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]
