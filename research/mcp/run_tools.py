"""The run-level tools: the sources to choose from (list_sources), start a run
(start_research), start one and wait for its report (research), follow it
(get_run_status), and read what it produced (get_report, read_dataset), each acting for
one user.

Starting a run needs a Celery worker to run it: without one the tools say so at once
(UNAVAILABLE) instead of queueing a run that nothing will take."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import anyio
from asgiref.sync import sync_to_async
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from research import bounds, selectors, services
from research import sources as configured
from research.artifacts import Question
from research.mcp.arguments import Names, RunId, StartIndex
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
    text_part,
)
from research.mcp.resources import mime_type
from research.mcp.run_results import (
    DEFAULT_TEXT_LENGTH,
    DEFAULT_WAIT,
    MAX_WAIT,
    Dataset,
    DimensionInput,
    DimensionUsed,
    Report,
    Researched,
    RunStatus,
    SourceInfo,
    Sources,
    SourceUsed,
    StageStatus,
    StartedRun,
    TextLength,
    Used,
)
from research.models import Run
from research.names import PAGES_DIR, REPORT, stage_label
from research.outcomes import Outcome
from research.providers.search import SourceSpecError, parse_source
from research.questions import clean_question, plan_of
from research.runs import workers
from research.stages.plan.rules import PRESETS
from research.store import INDEX, LOG, ArtifactDamaged, StoreError, readers, store_for

FAILED = "FAILED"
POLL_SECONDS = 1.0  # how often `research` looks at its run while it waits

# --- the arguments a run takes -----------------------------------------------------------------

QuestionText = Annotated[
    str,
    Field(
        max_length=bounds.QUESTION_CHARS,
        description="The decision to research, in a sentence, e.g. 'For our notes app, choose "
        "between Quillsync, Loamdb and Tessera'. The options may be named in it ('A vs B', "
        "'between A, B and C') or given in `options`.",
    ),
]
Options = Annotated[
    Names | None,
    Field(
        description="The options to compare (2 or more); leave out to read them from the question."
    ),
]
Dimensions = Annotated[
    list[DimensionInput] | None,
    Field(
        max_length=bounds.NAMES,
        description="What to weigh the options on, each with a weight; leave out to read them "
        "from the question ('weighing A, B and C', 'A matters most, then B'), or, when it "
        "names none, to use `preset`.",
    ),
]
Preset = Annotated[
    str,
    Field(
        max_length=bounds.NAME_CHARS,
        # In the schema, so a client offers the names; an unknown one is still refused by
        # the service, in words that list them.
        json_schema_extra={"enum": ["", *PRESETS]},
        description="Dimensions to use when `dimensions` is left out: 'tech' (cost, learning "
        "curve, community activity, extensibility, risk) or 'procurement' (price, delivery "
        "time, after-sales support, compliance, replaceability) or 'clinical' (efficacy, "
        "safety, trial results, cost; also asks ClinicalTrials.gov and Europe PMC). Empty: "
        "the default.",
    ),
]
SourceNames = Annotated[
    Names | None,
    Field(description="Names of sources to search, from list_sources; leave out for the defaults."),
]


def _submission(question, options, dimensions, preset, sources) -> services.Submission:
    return services.Submission(
        question=question,
        options=options or [],
        dimensions=[d.model_dump() for d in dimensions or []],
        preset=preset,
        sources=sources or [],
    )


async def start_run(user, form: services.Submission) -> StartedRun | CallToolResult:
    """Check the question, check that a worker will run it, then create and queue it. The
    ping waits in a thread of its own, not in the one the database calls share."""
    question = await sync_to_async(checked)(form, user)
    if not isinstance(question, Question):
        return question
    problem = await anyio.to_thread.run_sync(workers.worker_problem)
    if problem is not None:
        message = f"{Outcome.UNAVAILABLE}: {problem}"
        return failed(StartedRun(status=Outcome.UNAVAILABLE, message=message), message)
    return await sync_to_async(submit)(user, form, question)


def checked(form: services.Submission, user=None) -> Question | CallToolResult:
    try:
        return clean_question(form, owner=user)
    except services.QuestionInvalid as exc:
        errors = {k: [str(m) for m in as_list(v)] for k, v in exc.errors.items()}
        lines = [f"{field}: {m}" for field, msgs in errors.items() for m in msgs]
        message = "INVALID: the question was not accepted.\n" + "\n".join(lines)
        return failed(StartedRun(status=INVALID, errors=errors, message=message), message)


def submit(user, form: services.Submission, question: Question) -> StartedRun:
    run = services.submit_question(user, form)
    used = used_by(question, user)
    return StartedRun(
        status=Outcome.OK,
        run_id=run.run_id,
        uri=artifact_uri(run.run_id, INDEX),
        used=used,
        message=f"Started run {run.run_id}: {describe(used)}.",
    )


def used_by(question: Question, user=None) -> Used:
    """What the pipeline will use for a checked question, sources by their configured names
    (never a server path)."""
    plan = plan_of(question)
    specs = plan.sources or configured.default_specs()
    names = {choice.reference: choice.name for choice in configured.available_sources(user)}
    return Used(
        options=plan.options,
        options_from=plan.options_source,
        dimensions=[DimensionUsed(name=d.name, weight=round(d.weight, 4)) for d in plan.dimensions],
        preset=plan.preset,
        sources=[
            SourceUsed(name=names.get(s, configured.kind_of(s)), kind=configured.kind_of(s))
            for s in specs
        ],
    )


def describe(used: Used) -> str:
    dims = ", ".join(f"{d.name} {d.weight:.2f}" for d in used.dimensions)
    sources = ", ".join(s.name for s in used.sources)
    return f"options {', '.join(used.options)}; dimensions {dims}; sources {sources}"


# --- sources -----------------------------------------------------------------------------------

_NOT_USABLE = {
    "local": "its folder is missing on the server",
    "searxng": "its address is not a usable http(s) URL",
    "mcp": "its server or tool is not in the allowlist",
}


def list_sources(user=None) -> Sources:
    """The operator's sources, and the caller's own documents (`mine`) when they have any."""
    choices = configured.available_sources(user)
    infos = []
    for choice in choices:
        kind = configured.kind_of(choice.spec)
        try:
            parse_source(choice.spec)
            available, detail = True, ""
        except SourceSpecError:
            available, detail = False, _NOT_USABLE.get(kind, "it is not configured correctly")
        infos.append(
            SourceInfo(
                name=choice.name,
                kind=kind,
                label=choice.label,
                default=choice.default,
                available=available,
                detail=detail,
            )
        )
    if not infos:
        return Sources(status=Outcome.NO_HIT, message="The operator configured no source.")
    return Sources(status=Outcome.OK, sources=infos)


# --- reading a run -----------------------------------------------------------------------------


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
        withheld=verdict.withheld if verdict else None,
        no_recommendation_reason=verdict.no_recommendation_reason if verdict else "",
        confidence=verdict.confidence if verdict else None,
        error=run.error,
    )


def report_of(
    user, run_id: str, start: int = 0, length: int = DEFAULT_TEXT_LENGTH
) -> Report | CallToolResult:
    """The report as Markdown: the text content is the Markdown itself, not JSON."""
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
    part, next_index = text_part(text, start, length)
    result = Report(
        status=Outcome.OK,
        run_id=run_id,
        uri=artifact_uri(run_id, REPORT),
        markdown=part,
        start_index=start,
        next_index=next_index,
        total_length=len(text),
    )
    return as_markdown(result, part, next_index, len(text))


def as_markdown(model: Any, text: str, next_index: int | None, total: int) -> CallToolResult:
    """A result whose text content is `text` itself, with the structured result alongside."""
    if next_index is not None:
        text += (
            f"\n\n[{total - next_index:,} more characters: call get_report with "
            f"start_index={next_index}]"
        )
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=model.model_dump(mode="json"),
    )


def dataset_of(
    user, run_id: str, name: str, start: int = 0, length: int = DEFAULT_TEXT_LENGTH
) -> Dataset | CallToolResult:
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
    found = Dataset(
        status=Outcome.OK,
        run_id=run_id,
        name=name,
        uri=artifact_uri(run_id, name),
        mime_type=mime_type(name),
        total_length=len(text),
    )
    if start == 0 and len(text) <= length:
        found.data = parsed(name, text)
        return found
    found.text, found.next_index = text_part(text, start, length)
    found.start_index = start
    found.message = f"{name} has {len(text):,} characters: this is a part of its text" + (
        f"; call again with start_index={found.next_index} for more." if found.next_index else "."
    )
    return found


def parsed(name: str, text: str) -> Any:
    if name.endswith(".json"):
        return json.loads(text)
    if name == LOG:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return text


# --- research: start a run and wait for it ------------------------------------------------------


def run_state(run_id: str) -> tuple[str, str]:
    run = Run.objects.only("status", "current_stage").get(run_id=run_id)
    return run.status, run.current_stage or ""


async def wait_for(run_id: str, seconds: float, reporter: Reporter) -> tuple[str, str, float]:
    """Look at the run until it is done or failed or `seconds` pass; tell the client each
    stage it reaches. Returns the run's status, its stage and the seconds waited."""
    started = anyio.current_time()
    seen: tuple[str, str] | None = None
    while True:
        status, stage = await sync_to_async(run_state)(run_id)
        if (status, stage) != seen and status not in (Run.Status.DONE, Run.Status.FAILED):
            seen = (status, stage)
            label = stage_label(stage) if stage else "first"
            await reporter.advance(f"run {run_id}: {status} at its {label} stage")
        waited = anyio.current_time() - started
        if status in (Run.Status.DONE, Run.Status.FAILED) or waited >= seconds:
            return status, stage, waited
        await anyio.sleep(min(POLL_SECONDS, seconds - waited))


def researched(user, run_id: str, used: Used, status: str, stage: str, waited: float):
    """What `research` answers once its wait is over."""
    run = owned_run(user, run_id)
    verdict = selectors.run_verdict(run)
    result = Researched(
        status=NOT_FINISHED,
        run_id=run_id,
        run_status=status,
        current_stage=stage or None,
        used=used,
        recommendation=verdict.option if verdict else None,
        withheld=verdict.withheld if verdict else None,
        no_recommendation_reason=verdict.no_recommendation_reason if verdict else "",
        confidence=verdict.confidence if verdict else None,
        waited=round(waited, 1),
    )
    if status == Run.Status.FAILED:
        result.status = FAILED
        result.message = f"Run {run_id} failed: {run.error or 'see get_run_status'}"
        return failed(result, result.message)
    if status != Run.Status.DONE:
        label = stage_label(stage) if stage else "first"
        result.message = (
            f"Run {run_id} is still {status}, at its {label} stage, after {waited:.0f} s. "
            "Call get_report with this run_id later (get_run_status shows where it is)."
        )
        return CallToolResult(
            content=[TextContent(type="text", text=result.message)],
            structured_content=result.model_dump(mode="json"),
        )
    report = report_of(user, run_id)
    markdown = (report.structured_content or {}).get("markdown") or ""
    result.status = Outcome.OK
    result.markdown = markdown
    result.next_index = (report.structured_content or {}).get("next_index")
    result.total_length = (report.structured_content or {}).get("total_length") or 0
    return as_markdown(result, markdown, result.next_index, result.total_length)


# --- registration -------------------------------------------------------------------------------


def register_run_tools(server: MCPServer, user, reporter: Callable[[Context], Reporter]) -> None:
    """Add the run-level tools to `server`, acting for `user`; `reporter` makes the
    Reporter of one call."""

    @server.tool(
        name="list_sources",
        title="The sources to search",
        description=(
            "Call this before start_research or research when you want to choose where to "
            "search: the sources the operator configured, by name (and `mine`, the user's "
            "own documents, when they have added any), with their kind, whether "
            "each is used by default and whether it can be used now."
        ),
        annotations=READ_ONLY,
    )
    async def list_sources_tool() -> Sources:
        return await anyio.to_thread.run_sync(list_sources, user)

    @server.tool(
        name="start_research",
        title="Start a research run",
        description=(
            "Call this when the user asks a decision question (which option to choose) that "
            "has no run yet. It validates the question exactly as the web form does, starts "
            "the five-stage pipeline in the background and returns the run_id at once, with "
            "the options, dimensions (normalised weights) and sources the run uses; then "
            "call get_run_status to follow it. Answers UNAVAILABLE when no worker is running "
            "to carry the run out. To wait for the report in one call, use research instead. "
            "Do not call it again for a question that already has a run (see the "
            "research://runs resource)."
        ),
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False
        ),
    )
    async def start_research(
        question: QuestionText,
        options: Options = None,
        dimensions: Dimensions = None,
        preset: Preset = "",
        sources: SourceNames = None,
        *,
        ctx: Context,
    ) -> StartedRun:
        form = _submission(question, options, dimensions, preset, sources)
        result = await start_run(user, form)
        if isinstance(result, StartedRun):
            await reporter(ctx).log("info", f"queued run {result.run_id}: {question.strip()}")
        return result

    @server.tool(
        name="research",
        title="Research a question and wait for the report",
        description=(
            "Call this to research a decision question in one call, when you cannot follow a "
            "run with get_run_status: it starts a run as start_research does and waits up to "
            f"wait_seconds (default {DEFAULT_WAIT}, at most {MAX_WAIT}) for it. A finished "
            "run answers with its report as Markdown; a run still going answers NOT_FINISHED "
            "with its run_id and stage (call get_report later); a failed one, FAILED with the "
            "reason. A run takes from under a minute to a few minutes, with progress "
            "notifications at each stage."
        ),
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False
        ),
    )
    async def research(
        question: QuestionText,
        options: Options = None,
        dimensions: Dimensions = None,
        preset: Preset = "",
        sources: SourceNames = None,
        wait_seconds: Annotated[
            int,
            Field(
                ge=0,
                le=MAX_WAIT,
                description=f"The most seconds to wait for the report (0 to {MAX_WAIT}). "
                "Keep it under your client's request timeout.",
            ),
        ] = DEFAULT_WAIT,
        *,
        ctx: Context,
    ) -> Researched:
        form = _submission(question, options, dimensions, preset, sources)
        started = await start_run(user, form)
        if not isinstance(started, StartedRun):
            data = started.structured_content or {}
            refused = Researched(status=data.get("status", INVALID), errors=data.get("errors", {}))
            refused.message = data.get("message", "")
            return failed(refused, refused.message)
        assert started.run_id is not None and started.used is not None
        calls = reporter(ctx)
        await calls.log("info", f"researching in run {started.run_id}: {question.strip()}")
        status, stage, waited = await wait_for(started.run_id, wait_seconds, calls)
        return await sync_to_async(researched)(
            user, started.run_id, started.used, status, stage, waited
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
    async def get_run_status(run_id: RunId) -> RunStatus:
        return await sync_to_async(status_of)(user, run_id)

    @server.tool(
        name="get_report",
        title="Run report",
        description=(
            "Call this once get_run_status shows the decide stage done, to get the run's "
            "report (recommendation, confidence, score matrix, contradictions, evidence) as "
            "Markdown. A long report comes in parts: call again with start_index=next_index "
            "for the rest. Before the run finishes it answers status NOT_FINISHED."
        ),
        annotations=READ_ONLY,
    )
    async def get_report(
        run_id: RunId, start_index: StartIndex = 0, max_length: TextLength = DEFAULT_TEXT_LENGTH
    ) -> Report:
        return await sync_to_async(report_of)(user, run_id, start_index, max_length)

    @server.tool(
        name="read_dataset",
        title="Read a run artifact",
        description=(
            "Call this to read one artifact of a run by name when you need its data rather "
            f"than the report: {', '.join(ARTIFACTS)}, {LOG} (the decision log), or "
            f"{PAGES_DIR}/<source_id>.md for a page deep-read stored. JSON artifacts come "
            "back parsed; one larger than max_length comes back as text in parts (call again "
            "with start_index=next_index). Read only the artifact you need."
        ),
        annotations=READ_ONLY,
    )
    async def read_dataset(
        run_id: RunId,
        name: Annotated[
            str,
            Field(
                max_length=bounds.NAME_CHARS,
                description=f"The artifact's name, e.g. round_0_plan.json, {LOG} or "
                f"{PAGES_DIR}/s1.md.",
            ),
        ],
        start_index: StartIndex = 0,
        max_length: TextLength = DEFAULT_TEXT_LENGTH,
    ) -> Dataset:
        return await sync_to_async(dataset_of)(user, run_id, name, start_index, max_length)


def as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]
