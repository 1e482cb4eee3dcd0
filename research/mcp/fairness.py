"""One user's heavy tool calls never crowd out another's: at most MCP_USER_CONCURRENCY of
them running per user, and every tool call's synchronous work on a thread of its own.

The heavy tools read, extract, filter, assess or re-weigh: each takes a CPU second or more at
its bounds. A user's call past the limit is answered at once with BUSY rather than queued, so
no user can pile up work however many tokens or sessions they open (the count is per user,
in this process's memory, like the rate limiter's).

sync_to_async with no context around it runs every call of the process on one shared thread:
one user's assessment would hold up every other user's calls (and their sign-in to /mcp).
Each tool call therefore runs in a ThreadSensitiveContext of its own, as Django gives each
request; under async_to_sync (the tests' in-memory client) the calls stay on the caller's
thread, as before.
"""

from __future__ import annotations

import threading
from collections import Counter

from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from mcp.server import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolRequestParams, CallToolResult, TextContent

from research.mcp.tools import ASSESS, FETCH, FILTER, KEY_POINTS

BUSY = "BUSY"
RESCORE = "rescore_run"
HEAVY = frozenset({KEY_POINTS, FETCH, FILTER, ASSESS, RESCORE})


class InFlight:
    """How many heavy calls each user has running. Taken and given back from the event loop
    of whichever server (stdio or HTTP) serves the user, hence the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: Counter[int] = Counter()

    def take(self, key: int, limit: int) -> bool:
        with self._lock:
            if self._running[key] >= limit:
                return False
            self._running[key] += 1
            return True

    def give_back(self, key: int) -> None:
        with self._lock:
            self._running[key] -= 1
            if self._running[key] <= 0:
                del self._running[key]

    def running(self, key: int) -> int:
        with self._lock:
            return self._running[key]


IN_FLIGHT = InFlight()


def install(server: MCPServer, user) -> None:
    """Serve `server`'s tools/call through the per-user limit; call after arguments.harden."""
    lowlevel = server._lowlevel_server
    entry = lowlevel.get_request_handler("tools/call")
    assert entry is not None, "install after the tools are registered"
    answer = entry.handler

    async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams):
        async with ThreadSensitiveContext():
            if params.name not in HEAVY:
                return await answer(ctx, params)
            limit = settings.MCP_USER_CONCURRENCY
            if not IN_FLIGHT.take(user.pk, limit):
                return busy(limit)
            try:
                return await answer(ctx, params)
            finally:
                IN_FLIGHT.give_back(user.pk)

    lowlevel.add_request_handler("tools/call", entry.params_type, call_tool)


def busy(limit: int) -> CallToolResult:
    calls = "heavy call" if limit == 1 else "heavy calls"
    message = f"{BUSY}: you have {limit} {calls} running; wait for one to finish, then call again."
    return CallToolResult(
        content=[TextContent(type="text", text=message)],
        structured_content={"status": BUSY, "running": limit, "limit": limit, "message": message},
        is_error=True,
    )
