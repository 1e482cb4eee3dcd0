"""The wire to a remote MCP server: an HTTP transport that caps every answer as it streams
(SEARCH_MAX_BYTES), and the last lines a stdio server wrote to stderr, to say why it
failed."""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, TextIO

import httpx2


class StderrTail:
    """The last lines a stdio server wrote to stderr, for the reason it would not start.

    A pipe read by a daemon thread: a temporary file would grow for as long as a chatty
    server lives.
    """

    def __init__(self, lines: int = 20) -> None:
        read_fd, write_fd = os.pipe()
        self.writer: TextIO = os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")
        self._lines: deque[str] = deque(maxlen=lines)
        reader = os.fdopen(read_fd, "r", encoding="utf-8", errors="replace")
        self._thread = threading.Thread(
            target=self._read, args=(reader,), daemon=True, name="mcp stderr"
        )
        self._thread.start()

    def _read(self, reader: TextIO) -> None:
        with reader:
            for line in reader:
                if line.strip():
                    self._lines.append(" ".join(line.split()))

    def text(self) -> str:
        return " | ".join(list(self._lines)[-3:])

    def finish(self, timeout: float) -> None:
        """Stop writing and wait briefly for the reader to catch up with the last lines."""
        self.close()
        self._thread.join(timeout)

    def close(self) -> None:
        if not self.writer.closed:
            self.writer.close()


class AnswerTooLarge(httpx2.ReadError):
    """A server's answer grew past the cap while it streamed."""


class CappedTransport(httpx2.AsyncBaseTransport):
    """Caps the body of every answer to a POST (a tool call's result, JSON or its SSE
    stream) as it streams: past `cap` bytes the read fails and `refused` hears why. The
    long-lived GET stream of server notifications is left as it is."""

    def __init__(
        self, inner: httpx2.AsyncBaseTransport, cap: int, refused: Callable[[str], None]
    ) -> None:
        self._inner, self._cap, self._refused = inner, cap, refused

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        if request.method == "POST":
            response.stream = _CappedStream(response.stream, self._cap, self._refused, request)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class _CappedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, cap: int, refused: Callable[[str], None], request: Any):
        self._inner, self._cap, self._refused, self._request = inner, cap, refused, request

    async def __aiter__(self):
        size = 0
        async for chunk in self._inner:
            size += len(chunk)
            if size > self._cap:
                why = f"answered with more than {self._cap:,} bytes (SEARCH_MAX_BYTES); refused"
                self._refused(why)
                raise AnswerTooLarge(why, request=self._request)
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


def answer_cap() -> int:
    try:
        from django.conf import settings

        return int(settings.SEARCH_MAX_BYTES)
    except Exception:  # used as a library, outside Django
        return 2_000_000
