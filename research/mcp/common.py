"""What the Verdict MCP server's parts share: result statuses, the failed result, the
read-only annotation, resource URIs and which artifacts a client may read, the one way
to reach a run (one of the user's own, or none at all), and how a tool call tells its
client how it is going."""

from __future__ import annotations

import re
import warnings
from typing import get_args

import anyio.from_thread
import anyio.lowlevel
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import CallToolResult, LoggingLevel, TextContent, ToolAnnotations
from pydantic import BaseModel

from research import selectors, services
from research.artifacts import STAGES
from research.models import Run
from research.names import (
    ARTIFACT_STAGES,
    CORRECTIONS,
    DECISION,
    FINISHED,
    PAGES_DIR,
    REPORT,
    SAVED_ABOUT,
    SAVED_DIR,
)
from research.store import INDEX, LOG

SCHEME = "research://runs"
# How the answers that carry a recommendation say why there is none.
WITHHELD = (
    "set when nothing is recommended: no_evidence, single_site, thin_evidence (the best-scoring "
    "option's evidence covers less than half of the weight) or unshared_lead (it leads only "
    "where the runner-up has no evidence)"
)
NO_RECOMMENDATION_REASON = "when nothing is recommended: why, in one sentence"
RUNS_URI = SCHEME
# Every fixed-name artifact a run may hold, in the order the pipeline writes them, and the
# owner's corrections of the reader, which the decision counts.
ARTIFACTS: tuple[str, ...] = (INDEX, *ARTIFACT_STAGES, CORRECTIONS)
_SOURCE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")

# A tool result's `status` is an Outcome value where one applies (OK; NO_HIT for nothing
# found, or a run or artifact that is not there; TIMEOUT, UNAVAILABLE, BLOCKED ... for
# "could not look"). Besides those: INVALID, a request that cannot be served as asked;
# NOT_FINISHED, a run whose report is not written yet; NOT_READY, a run that has not
# reached the stage whose output the tool needs; DAMAGED, a file of the run that no longer
# matches the checksum recorded when it was written (the message names it and the stage
# whose re-run repairs it).
DAMAGED = "DAMAGED"
INVALID = "INVALID"
NOT_FINISHED = "NOT_FINISHED"
NOT_READY = "NOT_READY"

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)


def artifact_uri(run_id: str, name: str) -> str:
    return f"{SCHEME}/{run_id}/{name}"


# The resource template of a page deep-read stored.
PAGE_TEMPLATE = artifact_uri("{run_id}", f"{PAGES_DIR}/{{source_id}}.md")


def valid_source_id(source_id: str) -> bool:
    return bool(_SOURCE_ID.fullmatch(source_id)) and ".." not in source_id


def readable(name: str) -> bool:
    """An artifact a client may read by name: the run's files, never its locks or temporaries."""
    if name in ARTIFACTS or name == LOG:
        return True
    if _SAVED.fullmatch(name):
        return True
    folder, _, file = name.partition("/")
    return (
        folder == PAGES_DIR and file.endswith(".md") and valid_source_id(file.removesuffix(".md"))
    )


# The files of a decision saved beside the run's own (research.names.saved_artifact).
_SAVED = re.compile(
    re.escape(SAVED_DIR)
    + r"/[1-9][0-9]{0,5}-(?:"
    + "|".join(re.escape(n) for n in (DECISION, REPORT, SAVED_ABOUT))
    + ")"
)


def failed(model: BaseModel, message: str) -> CallToolResult:
    """An isError result that still carries the structured status."""
    return CallToolResult(
        content=[TextContent(type="text", text=message)],
        structured_content=model.model_dump(mode="json"),
        is_error=True,
    )


def owned_run(user, run_id: str) -> Run:
    """The user's run `run_id`; LookupError for any other (a run the user does not own does
    not exist for them). Its manifest is rebuilt first when it went missing or cannot be
    read and the run's files are all sound. Synchronous: call it through sync_to_async."""
    try:
        run = selectors.run_for(user, run_id)
    except Run.DoesNotExist:
        raise LookupError(f"no run {run_id!r} among your runs") from None
    services.mend_manifest(run)
    return run


def current_stage(run: Run) -> str:
    """The stage a run is at: its first stage not finished, or the last one once all are."""
    for view in selectors.run_stages(run):
        if view.status not in FINISHED:
            return view.stage
    return STAGES[-1]


# --- telling the client how a call is going ---------------------------------------------------

LEVELS: tuple[LoggingLevel, ...] = get_args(LoggingLevel)  # least severe first
LOGGER = "verdict"


class Reporter:
    """Tells the client of one tool call how it is going: log lines (notifications/message)
    at or above `floor`, and progress (notifications/progress) when the call sent a
    progressToken. `floor` None leaves the choice to the SDK, which at 2026-07-28 sends only
    the levels the request itself asked for in its _meta.

    The tools do their work in worker threads, so `step` is called from there: it hands the
    notifications to the event loop and waits until they are sent, which keeps them in
    order and before the call's result."""

    def __init__(self, ctx: Context, floor: LoggingLevel | None) -> None:
        self._ctx = ctx
        self._floor = floor
        self._done = 0
        self._token = anyio.lowlevel.current_token()

    async def log(self, level: LoggingLevel, message: str) -> None:
        if self._floor is not None and LEVELS.index(level) < LEVELS.index(self._floor):
            return
        session = self._ctx.session
        # Deprecated at 2026-07-28 (SEP-2577) and still how every earlier client is told;
        # the warning would otherwise be written to the server's log on every line.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            sending = session.send_log_message(
                level,
                message,
                logger=LOGGER,
                related_request_id=self._ctx.request_context.request_id,
            )
        await sending

    async def advance(
        self, message: str, total: int | None = None, level: LoggingLevel = "info"
    ) -> None:
        """One more step done: progress (done of `total`, when known) and a log line."""
        self._done += 1
        await self._ctx.report_progress(self._done, total, message)
        await self.log(level, message)

    def step(self, message: str, total: int | None = None, level: LoggingLevel = "info") -> None:
        """`advance`, from the worker thread the call's work runs in."""
        anyio.from_thread.run(self.advance, message, total, level, token=self._token)


def text_part(text: str, start: int, length: int) -> tuple[str, int | None]:
    """The part of `text` from `start`, at most `length` characters, and where the next
    part starts (None at the end)."""
    part = text[start : start + length]
    end = start + len(part)
    return part, (end if end < len(text) else None)
