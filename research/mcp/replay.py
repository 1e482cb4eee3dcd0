"""The events of MCP's Streamable HTTP streams, kept in memory so that a client whose stream
broke can pick it up again (Last-Event-ID) instead of losing what was sent meanwhile.

With an event store the SDK opens each SSE stream with a priming event (an event id and no
data) and the `retry` interval, so a client knows where to resume and how soon to try.
The store keeps the last MAX_EVENTS events of one user's sessions; older ones are gone, and
resuming from them starts afresh. Event ids are random, so one stream's id tells nothing
about another's.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict

from mcp.server.streamable_http import (
    EventCallback,
    EventId,
    EventMessage,
    EventStore,
    StreamId,
)
from mcp_types import JSONRPCMessage

MAX_EVENTS = 1_000
RETRY_MS = 3_000  # how long a client waits before reconnecting a broken stream


class MemoryEventStore(EventStore):
    def __init__(self, max_events: int = MAX_EVENTS) -> None:
        self._max = max_events
        self._events: OrderedDict[EventId, tuple[StreamId, JSONRPCMessage | None]] = OrderedDict()

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        event_id = secrets.token_urlsafe(12)
        self._events[event_id] = (stream_id, message)
        while len(self._events) > self._max:
            self._events.popitem(last=False)
        return event_id

    async def replay_events_after(
        self, last_event_id: EventId, send_callback: EventCallback
    ) -> StreamId | None:
        found = self._events.get(last_event_id)
        if found is None:
            return None
        stream_id, after = found[0], False
        for event_id, (stream, message) in list(self._events.items()):
            if after and stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
            after = after or event_id == last_event_id
        return stream_id
