"""Sessions with the operator's remote MCP servers, opened on first use and shared.

Why lazily, and per process: Celery's prefork pool forks its children from the main worker
process. A stdio server started before the fork, or an HTTP connection opened before it,
would be inherited by every child and work in none of them; and a server that is down when
the worker starts would stay unusable. So nothing connects at start-up (settings only
validate the file). Each process connects to a server on its first call, lists its tools
once per connection, keeps only the allowlisted ones, and keeps the session for later
calls: a stdio server written in Python takes about 2 s to start, longer than a search.
A forked process starts with an empty pool; an idle session closes after IDLE_SECONDS,
and every session closes when the process exits.

All sessions live on one asyncio loop in a daemon thread. Searching threads hand it calls
and wait no longer than their deadline; a server still starting up, or a stdio server
taking its time to shut down, never holds a search past its deadline. A session that
failed or timed out is not reused: calls in flight on it finish, later calls get a new one.

Failures come back as RemoteFailure with the outcome and a reason: UNAVAILABLE (cannot
start, refused, closed, protocol error), TIMEOUT, UNAUTHORIZED or RATE_LIMITED (from the HTTP
status), never as an empty answer.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import os
import threading
import time
from collections.abc import Callable, Coroutine
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from typing import Any, TypeVar

import anyio
import httpx2
import mcp_types
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, Implementation, Tool

from research.outcomes import Outcome, outcome_for_status
from research.providers.deadline import Deadline
from research.providers.mcp_sources import HttpServer, Server, StdioServer
from research.providers.mcp_wire import CappedTransport, StderrTail, answer_cap

log = logging.getLogger(__name__)

T = TypeVar("T")
IDLE_SECONDS = 300.0  # an unused session closes after this long
_LIST_PAGES = 50  # a server whose tool listing never ends is cut off here
_GRACE = 1.0  # the loop's own timeout fires first; this catches a stuck loop
_CLIENT_INFO = Implementation(name="verdict", version="0.1")


class RemoteFailure(Exception):
    """A call to a remote MCP server that did not get an answer, and why."""

    def __init__(self, outcome: Outcome, detail: str) -> None:
        super().__init__(detail)
        self.outcome = outcome
        self.detail = detail


class _Session:
    """One open connection to one server, owned by a task on the pool's loop."""

    def __init__(self, server: Server, key: str, pool: _Pool) -> None:
        self.server = server
        self.key = key
        self.label = f"MCP server {server.namespace!r} ({server.describe()})"
        self._pool = pool
        loop = asyncio.get_running_loop()
        self.ready: asyncio.Future[None] = loop.create_future()
        self.ready.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._closing = asyncio.Event()
        self.client: Client | None = None
        self.tools: dict[str, Tool] = {}
        self.in_flight = 0
        self.retired = False
        self._last_used = time.monotonic()
        self._gave_up: float | None = None
        self._http_status: int | None = None
        self._too_large: str | None = None  # why an answer was refused for its size
        self._stderr: StderrTail | None = None
        # Cancelled to give up connecting, or to close a session still connecting. An anyio
        # scope, not Task.cancel(): the SDK's transports unwind cleanly (a stdio server is
        # stopped) only when anyio itself delivers the cancellation.
        self._scope = anyio.CancelScope()
        self.task: asyncio.Task[None] | None = None

    def start(self, connect_within: Deadline) -> None:
        loop = asyncio.get_running_loop()
        self.task = loop.create_task(self._hold())
        watchdog = loop.call_later(connect_within.remaining(), self._give_up, connect_within)
        self.ready.add_done_callback(lambda _: watchdog.cancel())

    def _give_up(self, deadline: Deadline) -> None:
        if not self.ready.done():
            self._gave_up = deadline.seconds
            self._pool.forget(self)  # the next call starts afresh while this one winds down
            self._scope.cancel()

    async def _hold(self) -> None:
        error: Exception | None = None
        try:
            with self._scope:
                async with AsyncExitStack() as stack:
                    client = await stack.enter_async_context(self._client(stack))
                    self.tools = await _allowlisted(client, self.server)
                    self.client = client
                    self.ready.set_result(None)
                    await self._closing.wait()
        except Exception as exc:  # reported below, to the callers waiting or to the log
            error = exc
        finally:
            self.client = None
            self._pool.forget(self, closed=True)
        if self._stderr is not None:
            await asyncio.to_thread(self._stderr.finish, 1.0)
        if not self.ready.done():
            self.ready.set_exception(self._failure(error))
        elif error is not None and not self._closing.is_set():
            log.warning("%s: session ended: %s", self.label, self._failure(error).detail)

    def _client(self, stack: AsyncExitStack) -> Client:
        if isinstance(self.server, StdioServer):
            self._stderr = StderrTail()
            params = StdioServerParameters(
                command=self.server.command,
                args=list(self.server.args),
                env=self.server.env or None,
                cwd=self.server.cwd,
            )
            return Client(
                stdio_client(params, errlog=self._stderr.writer), client_info=_CLIENT_INFO
            )
        return Client(self._http_transport(self.server, stack), client_info=_CLIENT_INFO)

    def _http_transport(
        self, server: HttpServer, stack: AsyncExitStack
    ) -> AbstractAsyncContextManager[Any]:
        http = httpx2.AsyncClient(
            headers=dict(server.headers),
            timeout=httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT),
            transport=CappedTransport(httpx2.AsyncHTTPTransport(), answer_cap(), self._refused),
        )

        async def remember_status(response: httpx2.Response) -> None:
            # The last POST's refusal explains a failure; a later success clears it (the
            # protocol probe may be refused by an older server that then answers).
            if response.request.method == "POST":
                self._http_status = response.status_code if response.status_code >= 400 else None

        http.event_hooks = {"request": [], "response": [remember_status]}
        stack.push_async_callback(http.aclose)
        return streamable_http_client(server.url, http_client=http)

    def _refused(self, why: str) -> None:
        self._too_large = why

    def _failure(self, exc: BaseException | None) -> RemoteFailure:
        """What went wrong, in words an operator can act on."""
        if self._too_large is not None:
            return RemoteFailure(Outcome.BLOCKED, f"{self.label} {self._too_large}")
        if self._gave_up is not None:
            return RemoteFailure(
                Outcome.TIMEOUT,
                f"{self.label} did not finish connecting within the {self._gave_up:g} s deadline"
                + self._stderr_note(),
            )
        if exc is None:
            return RemoteFailure(Outcome.UNAVAILABLE, f"{self.label} was closed while connecting")
        cause = _leaf(exc)
        if self._http_status is not None:
            outcome = outcome_for_status(self._http_status)
            if outcome in (Outcome.OK, Outcome.NO_HIT):
                outcome = Outcome.UNAVAILABLE
            return RemoteFailure(outcome, f"{self.label} answered HTTP {self._http_status}")
        if isinstance(cause, httpx2.TimeoutException):
            return RemoteFailure(Outcome.TIMEOUT, f"{self.label} timed out: {cause!r}")
        if isinstance(cause, httpx2.HTTPError):
            return RemoteFailure(Outcome.UNAVAILABLE, f"{self.label} is unreachable: {cause}")
        if isinstance(cause, OSError) and not self.ready.done():
            return RemoteFailure(Outcome.UNAVAILABLE, f"{self.label} could not start: {cause}")
        if isinstance(cause, MCPError):
            return RemoteFailure(
                Outcome.UNAVAILABLE, f"{self.label}: {cause.error.message}" + self._stderr_note()
            )
        return RemoteFailure(Outcome.UNAVAILABLE, f"{self.label} failed: {cause!r}")

    def _stderr_note(self) -> str:
        said = self._stderr.text() if self._stderr is not None else ""
        return f"; it said: {said}" if said else ""

    def failure_of_call(self, exc: BaseException) -> RemoteFailure:
        failure = self._failure(exc)
        if (
            isinstance(_leaf(exc), MCPError)
            and _leaf(exc).error.code != mcp_types.CONNECTION_CLOSED
        ):
            return failure  # the server answered with an error; the session is fine
        self.retire()
        return failure

    def acquire(self) -> None:
        self.in_flight += 1

    def release(self) -> None:
        self.in_flight -= 1
        self._last_used = time.monotonic()
        if self.retired:
            self._close_if_unused()
        else:
            asyncio.get_running_loop().call_later(IDLE_SECONDS, self._close_if_idle)

    def retire(self) -> None:
        """No new calls; closes once the calls in flight are done."""
        self.retired = True
        self._pool.forget(self)
        self._close_if_unused()

    def _close_if_idle(self) -> None:
        if time.monotonic() - self._last_used >= IDLE_SECONDS - 0.01:
            self.retire()

    def _close_if_unused(self) -> None:
        if self.in_flight == 0:
            self.close()

    def close(self) -> None:
        self._closing.set()
        if not self.ready.done():
            self._scope.cancel()


def _leaf(exc: BaseException) -> BaseException:
    """The first real error inside task-group wrappers (anyio groups what its tasks raise)."""
    while isinstance(exc, BaseExceptionGroup):
        inner = [e for e in exc.exceptions if not isinstance(e, asyncio.CancelledError)]
        exc = (inner or list(exc.exceptions))[0]
    return exc


async def _allowlisted(client: Client, server: Server) -> dict[str, Tool]:
    """The server's tools that the allowlist names; the rest are dropped and never called."""
    offered: dict[str, Tool] = {}
    cursor: str | None = None
    for _ in range(_LIST_PAGES):
        page = await client.list_tools(cursor=cursor)
        offered.update((tool.name, tool) for tool in page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    return {name: tool for name, tool in offered.items() if name in server.allowlist}


class _Pool:
    """This process's sessions, by server configuration, on a loop of their own."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._sessions: dict[str, _Session] = {}  # the ones new calls use
        self._live: set[_Session] = set()  # every session not yet closed, retired ones too
        thread = threading.Thread(target=self._loop.run_forever, daemon=True, name="mcp sessions")
        thread.start()

    def run(self, work: Callable[[], Coroutine[Any, Any, T]], deadline: Deadline) -> T:
        future = asyncio.run_coroutine_threadsafe(work(), self._loop)
        try:
            return future.result(timeout=deadline.remaining() + _GRACE)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise RemoteFailure(
                Outcome.TIMEOUT, f"no answer within {deadline.describe()}"
            ) from None

    def forget(self, session: _Session, closed: bool = False) -> None:
        if self._sessions.get(session.key) is session:
            del self._sessions[session.key]
        if closed:
            self._live.discard(session)

    async def session(self, server: Server, deadline: Deadline) -> _Session:
        """An open session with `server`, started if there is none; shared while it lasts."""
        key = server.model_dump_json()
        session = self._sessions.get(key)
        if session is None:
            session = _Session(server, key, self)
            self._sessions[key] = session
            self._live.add(session)
            session.start(deadline)
        try:
            await asyncio.wait_for(asyncio.shield(session.ready), deadline.remaining())
        except TimeoutError:
            raise RemoteFailure(
                Outcome.TIMEOUT,
                f"{session.label} was still connecting when {deadline.describe()} passed",
            ) from None
        return session

    async def call(
        self,
        server: Server,
        tool: str,
        arguments: Callable[[Tool], dict[str, Any]],
        deadline: Deadline,
    ) -> CallToolResult:
        session = await self.session(server, deadline)
        listed = session.tools.get(tool)
        if listed is None:
            offered = ", ".join(sorted(session.tools)) or "none of its allowlisted tools"
            raise RemoteFailure(
                Outcome.UNAVAILABLE,
                f"{session.label} offers no tool {tool!r} (it offers {offered})",
            )
        given = arguments(listed)
        client = session.client
        if client is None:  # the session ended between connecting and this call
            raise RemoteFailure(Outcome.UNAVAILABLE, f"{session.label} closed the connection")
        session.acquire()
        try:
            call = client.call_tool(tool, given)
            return await asyncio.wait_for(call, deadline.remaining())
        except TimeoutError:
            session.retire()
            raise RemoteFailure(
                Outcome.TIMEOUT,
                f"{session.label}: {tool} did not answer within {deadline.describe()}",
            ) from None
        except Exception as exc:
            raise session.failure_of_call(exc) from None
        finally:
            session.release()

    async def close_all(self) -> None:
        sessions = list(self._live)
        self._sessions.clear()
        for session in sessions:
            session.close()
        tasks = [s.task for s in sessions if s.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=10)


_pool_lock = threading.Lock()
_pool: _Pool | None = None


def _current() -> _Pool:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = _Pool()
        return _pool


def _forget_after_fork() -> None:
    """A forked child (a Celery prefork worker) inherits the pool but not its loop thread:
    it starts with none, and a fresh lock in case the fork came while one was held."""
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


def call_tool(
    server: Server,
    tool: str,
    arguments: Callable[[Tool], dict[str, Any]],
    deadline: Deadline,
) -> CallToolResult:
    """Call an allowlisted tool; `arguments` builds the arguments from the tool's listing.

    Ends by the deadline: connecting (when needed) and the call share it.
    """
    if tool not in server.allowlist:
        raise RemoteFailure(Outcome.BLOCKED, f"{server.namespace}.{tool} is not allowlisted")
    pool = _current()
    return pool.run(lambda: pool.call(server, tool, arguments, deadline), deadline)


def allowlisted_tools(server: Server, deadline: Deadline) -> list[str]:
    """The tools this server offers that may be called, as `<namespace>.<tool>`."""
    pool = _current()

    async def listing() -> list[str]:
        session = await pool.session(server, deadline)
        return [f"{server.namespace}.{name}" for name in sorted(session.tools)]

    return pool.run(listing, deadline)


def close_all(timeout: float = 10.0) -> None:
    """Close every session of this process (stdio servers are stopped)."""
    with _pool_lock:
        pool = _pool
    if pool is not None:
        pool.run(pool.close_all, Deadline.after(timeout))


atexit.register(close_all)
