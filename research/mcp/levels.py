"""The level of the log lines a session is sent: logging/setLevel for the sessions that set
one (up to protocol 2025-11-25), the level each request names in `_meta` after that."""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary

from mcp.server import ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import (
    EmptyResult,
    LoggingLevel,
    SetLevelRequestParams,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from research.mcp import gating
from research.mcp.common import (
    Reporter,
)

# What a handshake-era session that never called logging/setLevel is sent.
DEFAULT_LOG_LEVEL: LoggingLevel = "info"


def install_logging(server: MCPServer, sessions: gating.Sessions) -> Callable[[Context], Reporter]:
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
