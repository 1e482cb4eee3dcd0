"""A user's MCP server driven by the SDK's in-memory Client, from synchronous tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from mcp import Client
from mcp_types import CallToolResult

from research.mcp import build_server


def call(user, scenario: Callable[[Client], Awaitable[Any]], **options: Any) -> Any:
    """Run `scenario(client)` against a fresh server for `user`; ORM calls stay on this
    thread (async_to_sync + sync_to_async), inside the test's transaction. `options` go to
    the Client (mode="legacy" for the 2025-11-25 handshake; the default is 2026-07-28)."""

    async def main():
        async with Client(build_server(user), **options) as client:
            return await scenario(client)

    return async_to_sync(main)()


def call_tool(user, name: str, arguments: dict[str, Any], **options: Any) -> CallToolResult:
    async def scenario(client: Client) -> CallToolResult:
        return await client.call_tool(name, arguments)

    return call(user, scenario, **options)
