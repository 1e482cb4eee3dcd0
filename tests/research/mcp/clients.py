"""A user's MCP server driven by the SDK's in-memory Client, from synchronous tests."""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import anyio
from asgiref.sync import async_to_sync
from mcp import Client
from mcp.client.subscriptions import ResourceUpdated, ToolsListChanged
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import (
    CallToolResult,
    ResourceListChangedNotification,
    ResourceUpdatedNotification,
    ServerNotification,
    ToolListChangedNotification,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

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


class Told:
    """The notifications a handshake-era client receives (its message_handler), in order."""

    def __init__(self) -> None:
        self._send, self._received = anyio.create_memory_object_stream[ServerNotification](256)

    async def __call__(self, message: ServerNotification | Exception) -> None:
        if isinstance(message, Exception):
            raise message
        await self._send.send(message)

    async def next(self, timeout: float = 10) -> ServerNotification:
        with anyio.fail_after(timeout):
            return await self._received.receive()


Change = tuple[str, str | None]  # ("tools", None) or ("updated", uri)


@asynccontextmanager
async def changes(
    client: Client, told: Told, *, tools: bool = False, uris: Sequence[str] = ()
) -> AsyncIterator[Callable[[], Awaitable[Change]]]:
    """Ask the server to tell this client of tool list changes and updates to `uris`, the
    way its protocol revision does it (subscriptions/listen at 2026-07-28, else
    resources/subscribe), and yield a function that waits for the next change."""
    if client.protocol_version in MODERN_PROTOCOL_VERSIONS:
        async with client.listen(tools_list_changed=tools, resource_subscriptions=uris) as sub:

            async def next_event() -> Change:
                with anyio.fail_after(10):
                    event = await anext(sub)
                if isinstance(event, ResourceUpdated):
                    return ("updated", event.uri)
                return ("tools", None) if isinstance(event, ToolsListChanged) else ("other", None)

            yield next_event
        return
    with warnings.catch_warnings():  # deprecated at 2026-07-28, the way to ask before it
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        for uri in uris:
            await client.subscribe_resource(uri)

    async def next_notification() -> Change:
        notification = await told.next()
        while isinstance(notification, ResourceListChangedNotification):  # not asked about
            notification = await told.next()
        if isinstance(notification, ResourceUpdatedNotification):
            return ("updated", str(notification.params.uri))
        if isinstance(notification, ToolListChangedNotification):
            return ("tools", None)
        return ("other", notification.method)

    yield next_notification


def session(user, scenario: Callable[[Client, Told], Awaitable[Any]], mode: str) -> Any:
    """Run `scenario(client, told)` with a client connecting in `mode` ("legacy": the
    2025-11-25 handshake; "auto": discovery, which settles on 2026-07-28)."""

    async def main():
        told = Told()
        async with Client(build_server(user), mode=mode, message_handler=told) as client:
            return await scenario(client, told)

    return async_to_sync(main)()
