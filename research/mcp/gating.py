"""Stage gating and subscriptions: what each client session is shown, and what it is told.

A session may follow one of the user's runs (the follow_run tool). From then on tools/list
gives it the run-level tools and only the stage tools of the stage the run is at; when the
run reaches a stage with other tools, the session gets notifications/tools/list_changed. A
session that follows no run is shown every tool. The list says what fits the stage; a
tool left off it still answers when called, so a client holding an older list never fails
mid-step.

A client subscribed to a run's resources gets notifications/resources/updated when a stage
changes them: the run's manifest (index.json) on every stage status, each artifact when the
stage that writes it finishes, and research://runs.

Both learn of a run's progress from research.events (Redis pub/sub), whichever process
or machine runs the stage. How a session is kept depends on the protocol revision:

- 2025-11-25 and earlier (the initialize handshake): a session is one connection. Its
  followed run and its resources/subscribe URIs live with the connection, and its
  notifications go out on the connection's own stream.
- 2026-07-28: every request stands alone, so there is no session to keep. The server (one
  per user and process: `manage.py mcp`, or one in-memory client) follows the run for
  all its requests, and notifications go to the subscriptions/listen streams, each of
  which passes on only the kinds and URIs its client asked for.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from asgiref.sync import sync_to_async
from django.conf import settings
from mcp.server import ServerRequestContext
from mcp.server.connection import Connection
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.subscriptions import (
    ResourcesListChanged,
    ResourceUpdated,
    SubscriptionBus,
    ToolsListChanged,
)
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    EmptyResult,
    ListToolsResult,
    PaginatedRequestParams,
    SubscribeRequestParams,
    Tool,
    UnsubscribeRequestParams,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, Field

from research import bounds, events, selectors
from research.artifacts import STAGES
from research.events import RunEvent
from research.mcp.arguments import RunId
from research.mcp.common import (
    READ_ONLY,
    RUNS_URI,
    SCHEME,
    artifact_uri,
    current_stage,
    failed,
    owned_run,
    readable,
)
from research.mcp.tools import ASSESS, FETCH, FILTER, KEY_POINTS, SEARCH
from research.names import FINISHED, artifact_stage, stage_label
from research.outcomes import Outcome
from research.store import INDEX, store_for

# The stage tools each stage shows; every other tool is a run-level tool, always shown.
STAGE_TOOLS: dict[str, frozenset[str]] = {
    "retrieve": frozenset({SEARCH}),
    "filter": frozenset({FILTER}),
    "deepread": frozenset({FETCH, KEY_POINTS}),
    "crosscheck": frozenset({ASSESS}),
    "decide": frozenset({ASSESS}),
}
assert tuple(STAGE_TOOLS) == STAGES, "every stage names its tools, in pipeline order"
GATED = frozenset().union(*STAGE_TOOLS.values())


def shown(tools: list[Tool], stage: str | None) -> list[Tool]:
    """The tools a session at `stage` is shown; all of them for a session following no run."""
    if stage is None:
        return tools
    return [t for t in tools if t.name not in GATED or t.name in STAGE_TOOLS[stage]]


@dataclass(eq=False)
class Session:
    """What one client asked for. `connection` is None for the server-wide session of
    2026-07-28 requests, whose notifications go out on subscriptions/listen streams."""

    connection: Connection | None
    run_id: str | None = None  # the run it follows
    stage: str | None = None  # the stage whose tools it was last shown
    uris: set[str] = field(default_factory=set)  # resources/subscribe (2025-11-25)

    async def tools_changed(self, bus: SubscriptionBus) -> None:
        if self.connection is None:
            await bus.publish(ToolsListChanged())
        else:
            await self.connection.send_tool_list_changed()


class Following(BaseModel):
    status: str = Field(description="OK, or NO_HIT when the run is not one of yours")
    run_id: str | None = None
    stage: str | None = Field(None, description="the stage the run is at")
    label: str | None = None
    tools: list[str] = Field(default_factory=list, description="the stage tools listed now")
    message: str = ""


class Sessions:
    """Every session of one user's server, and what each is told when a run changes."""

    def __init__(self, user: Any, bus: SubscriptionBus) -> None:
        self.user = user
        self.bus = bus
        self._sessions: dict[object, Session] = {}
        self._owned: dict[str, bool] = {}  # run id -> the user's? (an owner never changes)

    # -- sessions --

    def of(self, ctx: ServerRequestContext) -> Session:
        """The session a request belongs to, made on its first request."""
        connection = _connection(ctx)
        key: object = self if connection is None else connection
        session = self._sessions.get(key)
        if session is None:
            session = self._sessions[key] = Session(connection)
            if connection is not None:
                connection.exit_stack.callback(self._sessions.pop, connection, None)
        return session

    def stage_of(self, run_id: str) -> str:
        """The stage the user's run is at (LookupError for any other run). Synchronous."""
        return current_stage(owned_run(self.user, run_id))

    # -- protocol handlers --

    async def list_tools(
        self, server: MCPServer, ctx: ServerRequestContext, _: PaginatedRequestParams
    ) -> ListToolsResult:
        tools = await server.list_tools()
        session = self.of(ctx)
        if session.run_id is None:
            return ListToolsResult(tools=tools)
        session.stage = await sync_to_async(self.stage_of)(session.run_id)
        return ListToolsResult(tools=shown(tools, session.stage))

    async def subscribe(
        self, ctx: ServerRequestContext, params: SubscribeRequestParams
    ) -> EmptyResult:
        uri = str(params.uri)
        await sync_to_async(self._check_subscribable)(uri)
        self.of(ctx).uris.add(uri)
        return EmptyResult()

    async def unsubscribe(
        self, ctx: ServerRequestContext, params: UnsubscribeRequestParams
    ) -> EmptyResult:
        self.of(ctx).uris.discard(str(params.uri))
        return EmptyResult()

    def _check_subscribable(self, uri: str) -> None:
        """Refuse (invalid params) anything but the runs list and an artifact a client may
        read of one of the user's runs: the same rule as reading it."""
        if uri == RUNS_URI:
            return
        if not uri.startswith(f"{SCHEME}/"):
            raise MCPError(INVALID_PARAMS, f"not a run resource: {bounds.quoted(uri, 200)}")
        run_id, _, name = uri.removeprefix(f"{SCHEME}/").partition("/")
        if not readable(name):
            raise MCPError(INVALID_PARAMS, f"not a run resource: {bounds.quoted(uri, 200)}")
        try:
            owned_run(self.user, run_id)
        except LookupError as exc:
            raise MCPError(INVALID_PARAMS, str(exc)) from None

    # -- run events --

    async def on_event(self, event: RunEvent) -> None:
        """A run changed: tell the sessions that asked about it."""
        if not await self._owns(event.run_id):
            return  # another user's run: none of this server's business
        if lists_changed(event):
            await self.bus.publish(ResourcesListChanged())
            for session in list(self._sessions.values()):
                if session.connection is not None:
                    await session.connection.send_resource_list_changed()
        for uri in await sync_to_async(changed_uris)(event):
            await self.bus.publish(ResourceUpdated(uri))  # each listen stream takes its own
            for session in list(self._sessions.values()):
                if session.connection is not None and uri in session.uris:
                    await session.connection.send_resource_updated(uri)
        followers = [s for s in self._sessions.values() if s.run_id == event.run_id]
        if not followers:
            return
        stage = await sync_to_async(self.stage_of)(event.run_id)
        for session in followers:
            before, session.stage = session.stage, stage
            if before is None or STAGE_TOOLS[before] != STAGE_TOOLS[stage]:
                await session.tools_changed(self.bus)

    async def _owns(self, run_id: str) -> bool:
        if run_id not in self._owned:
            mine = selectors.runs_for(self.user).filter(run_id=run_id).exists
            self._owned[run_id] = await sync_to_async(mine)()
        return self._owned[run_id]

    @asynccontextmanager
    async def listening(self, _server: MCPServer) -> AsyncIterator[dict[str, Any]]:
        """The server's lifespan: hear run events from Redis while it serves."""
        async with anyio.create_task_group() as tasks:
            await tasks.start(events.listen, settings.REDIS_URL, self.on_event)
            yield {}
            tasks.cancel_scope.cancel()


def lists_changed(event: RunEvent) -> bool:
    """Whether resources/list gives something new after this event: a run queued for the
    first time (its manifest and log), or a stage that finished (its artifacts)."""
    first = event.stage == STAGES[0] and event.status == "queued"
    return first or event.status in FINISHED


def changed_uris(event: RunEvent) -> list[str]:
    """The resources a run event changed. Synchronous: reads the run's manifest."""
    uris = [RUNS_URI, artifact_uri(event.run_id, INDEX)]
    if event.stage is not None and event.status in FINISHED:
        names = store_for(event.run_id).artifact_names()
        uris += [artifact_uri(event.run_id, n) for n in names if artifact_stage(n) == event.stage]
    return uris


def _connection(ctx: ServerRequestContext) -> Connection | None:
    """The connection a handshake-era request came on; None for a 2026-07-28 request,
    which is a connection of its own. The SDK keeps a request's connection only on its
    session object."""
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return None
    return ctx.session._connection


def install(server: MCPServer, sessions: Sessions) -> None:
    """Serve tools/list through the gate, resources/subscribe and unsubscribe, and say so
    in the capabilities; add the follow_run and unfollow_run tools."""
    # MCPServer has no public way to replace a protocol handler; its low-level server does
    # (the SDK's own in-process transports reach it the same way).
    lowlevel = server._lowlevel_server

    async def list_tools(ctx: ServerRequestContext, params: PaginatedRequestParams):
        return await sessions.list_tools(server, ctx, params)

    lowlevel.add_request_handler("tools/list", PaginatedRequestParams, list_tools)
    lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, sessions.subscribe)
    # A session that lists resources is told when the list changes (handshake era; at
    # 2026-07-28 a client asks for that on subscriptions/listen).
    listing = lowlevel.get_request_handler("resources/list")
    assert listing is not None, "resources are registered before the gate"

    async def list_resources(ctx: ServerRequestContext, params: PaginatedRequestParams):
        sessions.of(ctx)
        return await listing.handler(ctx, params)

    lowlevel.add_request_handler("resources/list", PaginatedRequestParams, list_resources)
    lowlevel.add_request_handler(
        "resources/unsubscribe", UnsubscribeRequestParams, sessions.unsubscribe
    )
    # listChanged is declared for the lists this server does tell about (tools as a run
    # moves on, resources as runs gain artifacts) and not for prompts, which never change.
    # The SDK takes it from options every transport leaves at their default up to
    # 2025-11-25, and sets all three at 2026-07-28; both ask get_capabilities.
    capabilities = lowlevel.get_capabilities

    def declared(*args, **kwargs):
        found = capabilities(*args, **kwargs)
        if found.tools is not None:
            found.tools.list_changed = True
        if found.resources is not None:
            found.resources.list_changed = True
        if found.prompts is not None:
            found.prompts.list_changed = False
        return found

    lowlevel.get_capabilities = declared
    _add_follow_tools(server, sessions)


def _tools_by_stage() -> str:
    return "; ".join(f"{stage_label(s)}: {', '.join(sorted(t))}" for s, t in STAGE_TOOLS.items())


def _add_follow_tools(server: MCPServer, sessions: Sessions) -> None:
    @server.tool(
        name="follow_run",
        title="Work through a run stage by stage",
        description=(
            "Call this when you are about to work through one run's stages yourself. From "
            "then on the tool list shows the run-level tools and only the tools of the stage "
            f"the run is at ({_tools_by_stage()}), and you are told (tools/list_changed) when "
            "the run moves on. Call unfollow_run to see every tool again."
        ),
        annotations=READ_ONLY,
    )
    async def follow_run(run_id: RunId, ctx: Context) -> Following:
        session = sessions.of(ctx.request_context)
        try:
            stage = await sync_to_async(sessions.stage_of)(run_id)
        except LookupError as exc:
            return failed(
                Following(status=Outcome.NO_HIT, run_id=run_id, message=str(exc)), str(exc)
            )
        session.run_id, session.stage = run_id, stage
        await session.tools_changed(sessions.bus)
        tools = sorted(STAGE_TOOLS[stage])
        return Following(
            status=Outcome.OK,
            run_id=run_id,
            stage=stage,
            label=stage_label(stage),
            tools=tools,
            message=f"run {run_id} is at its {stage_label(stage)} stage: {', '.join(tools)}",
        )

    @server.tool(
        name="unfollow_run",
        title="Stop following a run",
        description=(
            "Call this when you stop working through the run you follow (see follow_run), to "
            "have every tool listed again."
        ),
        annotations=READ_ONLY,
    )
    async def unfollow_run(ctx: Context) -> Following:
        session = sessions.of(ctx.request_context)
        session.run_id = session.stage = None
        await session.tools_changed(sessions.bus)
        return Following(status=Outcome.OK, message="following no run: every tool is listed")
