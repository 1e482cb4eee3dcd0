"""Verdict's MCP server over Streamable HTTP at /mcp, on the web app's own ASGI server.

Every request passes three gates before the SDK sees it, each answered in plain words with
a JSON-RPC error body (the SDK's client shows its message) and never a stack trace:

1. Host and Origin (DNS-rebinding protection): the Host must be one of ALLOWED_HOSTS, and an
   Origin, when a browser sends one, must be this server's own or listed in
   MCP_ALLOWED_ORIGINS. Otherwise 421 (Host) or 403 (Origin).
2. A Bearer token of an active user, else 401 with `WWW-Authenticate: Bearer` and the
   address of the resource metadata, from which a client finds Verdict's own authorization
   server and signs the person in (research/oauth). The token is either a personal API token
   made on the account page (research.models.ApiToken, `vdt_...`) or an OAuth access token
   issued for /mcp.
3. Tool calls per token: at most MCP_RATE_LIMIT `tools/call` requests in any 60 s, else 429
   with Retry-After and the outcome RATE_LIMITED.

The server acts for the token's user, so each user gets their own `build_server(user)` and
StreamableHTTPSessionManager, made on that user's first request and kept for the life of the
process. A manager's `run()` opens the task group its sessions live in and can be entered
only once, so it runs as a task of a task group that the ASGI lifespan opens at start-up and
cancels at shutdown (which ends every session). Sessions are in this process's memory, like
the rate limiter's counts: a deployment that spreads /mcp over several processes needs
sticky sessions. Each session is also bound to the credential that opened it (the SDK compares
`scope["user"]` on every request), so another token, even of the same user, gets 404; for
OAuth the credential is the sign-in (user and client), so a refreshed token keeps its sessions.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import anyio
from anyio.abc import TaskGroup, TaskStatus
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http.request import split_domain_port, validate_host
from django.utils import timezone
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.streamable_http import GET_STREAM_KEY
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from mcp_types import INTERNAL_ERROR, INVALID_REQUEST
from mcp_types.version import is_version_at_least
from starlette.datastructures import Headers
from starlette.responses import JSONResponse, Response
from starlette.types import Message, Receive, Scope, Send

from research.mcp.discovery import SCOPES, endpoint_url, metadata_url
from research.mcp.replay import RETRY_MS, MemoryEventStore
from research.mcp.server import build_server
from research.models import API_TOKEN_PREFIX, ApiToken
from research.oauth.tokens import find_access_token
from research.outcomes import Outcome

logger = logging.getLogger(__name__)

PATHS = frozenset({"/mcp", "/mcp/"})
WINDOW = 60.0  # seconds over which MCP_RATE_LIMIT counts tool calls
LAST_USED_EVERY = timedelta(minutes=1)  # how stale ApiToken.last_used may get (saves writes)

# Implementation-defined JSON-RPC server errors (-32000..-32099), clear of the SDK's own.
UNAUTHORIZED_CODE = -32060
FORBIDDEN_CODE = -32061
RATE_LIMITED_CODE = -32062


def is_mcp(scope: Scope) -> bool:
    return scope["type"] == "http" and scope["path"] in PATHS


@dataclass(frozen=True)
class Principal:
    """Who a request acts for, whichever kind of token it carried."""

    user: Any
    key: str  # what its rate limit and its sessions are bound to
    label: str  # what the SDK is told the token is (never the secret)

    @property
    def user_id(self) -> int:
        return self.user.pk


class McpEndpoint:
    """The ASGI app for /mcp, plus the lifespan handler that its session managers need."""

    def __init__(self) -> None:
        self._managers: dict[int, StreamableHTTPSessionManager] = {}
        self._event_stores: dict[int, MemoryEventStore] = {}
        self._task_group: TaskGroup | None = None
        self._creating: anyio.Lock | None = None
        self.limiter = RateLimiter()

    # --- lifespan -------------------------------------------------------------------------

    async def lifespan(self, receive: Receive, send: Send) -> None:
        """ASGI lifespan: hold the task group every session manager runs in."""
        await receive()  # lifespan.startup
        async with anyio.create_task_group() as group:
            self._task_group = group
            self._creating = anyio.Lock()
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
            self._task_group = None
            self._managers.clear()
            self._event_stores.clear()
            group.cancel_scope.cancel()
        await send({"type": "lifespan.shutdown.complete"})

    # --- requests -------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._task_group is None:
            refusal = _error(
                503,
                INTERNAL_ERROR,
                "The MCP endpoint needs the ASGI lifespan: run uvicorn with `--lifespan on` "
                "(manage.py serve does).",
            )
            await refusal(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = _host_or_origin_refusal(scope, headers)
        if refusal is None:
            token, refusal = await _authenticate(headers, _base(scope, headers))
        if refusal is None:
            body, receive, refusal = await _buffer_body(scope, receive)
        if refusal is None:
            refusal = _oversized_envelope(body)
        if refusal is None:
            refusal = self._rate_limit(token, body)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        manager = await self._manager_for(token)
        if manager is None:
            message = "The MCP server could not start its sessions; the server log says why."
            await _error(503, INTERNAL_ERROR, message)(scope, receive, send)
            return
        principal = AccessToken(token=token.label, client_id=token.key, scopes=[])
        if _opens_the_get_stream(scope, headers):
            send = self._priming(token.user_id, send)
        await manager.handle_request({**scope, "user": AuthenticatedUser(principal)}, receive, send)

    def _priming(self, user_id: int, send: Send) -> Send:
        """The SDK opens a POST's stream with a priming event but not the GET stream: this
        sends one as the GET stream opens, so it too tells a client where to resume from."""
        store = self._event_stores.get(user_id)

        async def priming_send(message: Message) -> None:
            await send(message)
            opened = message["type"] == "http.response.start" and message["status"] == 200
            if opened and store is not None:
                sse = Headers(raw=message.get("headers", [])).get("content-type", "")
                if sse.startswith("text/event-stream"):
                    event_id = await store.store_event(GET_STREAM_KEY, None)
                    event = f"id: {event_id}\r\nretry: {RETRY_MS}\r\ndata: \r\n\r\n"
                    await send(
                        {"type": "http.response.body", "body": event.encode(), "more_body": True}
                    )

        return priming_send

    def _rate_limit(self, token: Principal, body: bytes) -> Response | None:
        calls = tool_calls(body)
        if not calls:
            return None
        limit = settings.MCP_RATE_LIMIT
        wait = self.limiter.take(token.key, calls, limit)
        if not wait:
            return None
        seconds = max(1, math.ceil(wait))
        message = (
            f"{Outcome.RATE_LIMITED}: this token has made {limit} tool calls in the last "
            f"minute, the most MCP_RATE_LIMIT allows. Try again in {seconds} s."
        )
        data = {"outcome": Outcome.RATE_LIMITED, "retry_after": seconds, "limit": limit}
        response = _error(429, RATE_LIMITED_CODE, message, request_id(body), data)
        response.headers["Retry-After"] = str(seconds)
        return response

    async def _manager_for(self, token: Principal) -> StreamableHTTPSessionManager | None:
        """The token's user's session manager, started on first use; None if it cannot start."""
        user_id = token.user_id
        manager = self._managers.get(user_id)
        if manager is not None:
            return manager
        assert self._creating is not None and self._task_group is not None
        async with self._creating:
            manager = self._managers.get(user_id)
            if manager is None:
                server = await sync_to_async(build_server)(token.user)
                events = self._event_stores.setdefault(user_id, MemoryEventStore())
                # Host and Origin were checked above, against this site's own settings.
                server.streamable_http_app(
                    transport_security=TransportSecuritySettings(
                        enable_dns_rebinding_protection=False
                    ),
                    # Streams open with a priming event and `retry`, and can be resumed.
                    event_store=events,
                    retry_interval=RETRY_MS,
                )
                manager = server.session_manager
                try:
                    await self._task_group.start(self._run_manager, user_id, manager)
                except Exception:
                    logger.exception("MCP over HTTP: the sessions of user %s cannot start", user_id)
                    return None
                self._managers[user_id] = manager
                logger.info("MCP over HTTP: sessions for user %s started", user_id)
        return manager

    async def _run_manager(
        self,
        user_id: int,
        manager: StreamableHTTPSessionManager,
        *,
        task_status: TaskStatus[None],
    ) -> None:
        """Run one user's manager until shutdown. Should it fail, only that user's sessions
        end (logged), and their next request starts a new manager."""
        try:
            async with manager.run():
                task_status.started()
                await anyio.sleep_forever()
        except Exception:
            if self._managers.pop(user_id, None) is None:
                raise  # it never started: _manager_for reports it
            logger.exception("MCP over HTTP: the sessions of user %s stopped", user_id)


def _opens_the_get_stream(scope: Scope, headers: Headers) -> bool:
    """A GET opening a new stream (a resumed one is primed by the SDK), from a client that
    reads an event without data: 2025-11-25 and later, as the SDK decides for POST."""
    version = headers.get("mcp-protocol-version", "")
    return (
        scope["method"] == "GET"
        and not headers.get("last-event-id")
        and is_version_at_least(version, "2025-11-25")
    )


# --- the gates ----------------------------------------------------------------------------


def _host_or_origin_refusal(scope: Scope, headers: Headers) -> Response | None:
    host = headers.get("host", "")
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return _error(
            421,
            FORBIDDEN_CODE,
            f"Host {host!r} is not one this server answers to (ALLOWED_HOSTS).",
            data={"outcome": Outcome.BLOCKED},
        )
    origin = headers.get("origin")
    if origin is None:
        return None  # not a browser, or a same-origin request that names none
    own = _origin(f"{_scheme(scope, headers)}://{host}")
    allowed = {own, *(_origin(o) for o in settings.MCP_ALLOWED_ORIGINS)}
    if _origin(origin) in allowed - {None}:
        return None
    logger.warning("MCP over HTTP: refused a request from Origin %r", origin[:200])
    return _error(
        403,
        FORBIDDEN_CODE,
        f"Requests from the web page at {origin[:200]} may not use this server: only this "
        "site's own pages and the origins in MCP_ALLOWED_ORIGINS may.",
        data={"outcome": Outcome.BLOCKED},
    )


def _allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = [".localhost", "127.0.0.1", "[::1]"]  # what Django itself allows
    return hosts


def _scheme(scope: Scope, headers: Headers) -> str:
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy:
        header = proxy[0].removeprefix("HTTP_").replace("_", "-").lower()
        if headers.get(header, "").split(",")[0].strip() == proxy[1]:
            return "https"
    return scope.get("scheme", "http")


def _origin(value: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the default port filled in, or None when it is no origin."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


def _base(scope: Scope, headers: Headers) -> str:
    return f"{_scheme(scope, headers)}://{headers.get('host', '')}"


async def _authenticate(headers: Headers, base: str) -> tuple[Any, Response | None]:
    """Who the token acts for, or a 401 whose challenge points at the resource metadata
    (RFC 9728), where a client finds the authorization server to sign in with."""
    metadata = f'resource_metadata="{metadata_url(base)}", scope="{" ".join(SCOPES)}"'
    scheme, _, secret = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        return None, _unauthorized(
            "This server needs you to sign in. An MCP client that supports OAuth opens the "
            "browser to sign you in by itself; any other sends the header "
            "`Authorization: Bearer <token>` with a token from your account page (/accounts/) "
            "or from `manage.py mcp_token --user NAME --create LABEL`.",
            f'Bearer realm="verdict", {metadata}',
        )
    principal = await sync_to_async(_principal_for)(secret.strip(), endpoint_url(base))
    if principal is None:
        return None, _unauthorized(
            "This API token is not valid: it expired, was revoked or mistyped, or its account "
            "is disabled. Sign in again from your MCP client, or create a new token on your "
            "account page (/accounts/).",
            f'Bearer realm="verdict", error="invalid_token", {metadata}',
        )
    return principal, None


def _principal_for(secret: str, resource: str) -> Principal | None:
    close_old_connections()  # as Django does per request: no connection outlives its use
    if secret.startswith(API_TOKEN_PREFIX):
        token = _token_for(secret)
        # Keyed by the digest, not the row id: a row id can come back after a delete.
        return Principal(token.user, token.digest[:32], token.prefix) if token else None
    access = find_access_token(secret, resource)
    if access is None:
        return None
    # Keyed by the sign-in, not the token, which each refresh replaces.
    key = f"oauth-{access.user_id}-{access.application_id}"
    return Principal(access.user, key, f"oauth:{access.application_id}")


def _token_for(secret: str) -> ApiToken | None:
    token = ApiToken.find(secret)
    if token is not None:
        now = timezone.now()
        if token.last_used is None or now - token.last_used > LAST_USED_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    return token


def _unauthorized(message: str, challenge: str) -> Response:
    response = _error(401, UNAUTHORIZED_CODE, message, data={"outcome": Outcome.UNAUTHORIZED})
    response.headers["WWW-Authenticate"] = challenge
    return response


async def _buffer_body(scope: Scope, receive: Receive) -> tuple[bytes, Receive, Response | None]:
    """Read a POST's body (to count its tool calls) and a `receive` that replays it."""
    if scope["method"] != "POST":
        return b"", receive, None
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"", receive, _error(400, INVALID_REQUEST, "The request ended before its body.")
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > DEFAULT_MAX_REQUEST_BODY_SIZE:
            too_large = "The request body is larger than 4 MiB."
            return b"", receive, _error(413, INVALID_REQUEST, too_large)
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()  # what follows the body: the client's disconnect
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    return body, replay, None


def _messages(body: bytes) -> list[dict[str, Any]]:
    """The one JSON-RPC message a body carries, or none. A batch (a list) counts as none:
    no protocol revision the SDK serves takes one, so it refuses it unrun."""
    try:
        parsed = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return []  # the SDK answers it with a parse error (deep nesting included)
    return [parsed] if isinstance(parsed, dict) else []


# A method name or request id longer than any this server knows or gives: the answer would
# repeat it (an unknown method's error names it; every answer carries its request's id).
METHOD_CHARS = 100
ID_CHARS = 200


def _oversized_envelope(body: bytes) -> Response | None:
    for message in _messages(body):
        for key, most in (("method", METHOD_CHARS), ("id", ID_CHARS)):
            value = message.get(key)
            if isinstance(value, str) and len(value) > most:
                text = f"The request's {key} is {len(value):,} characters long; at most {most}."
                return _error(400, INVALID_REQUEST, text)
    return None


def tool_calls(body: bytes) -> int:
    return sum(1 for m in _messages(body) if m.get("method") == "tools/call")


def request_id(body: bytes) -> str | int | None:
    messages = _messages(body)
    if len(messages) == 1 and isinstance(messages[0].get("id"), str | int):
        return messages[0]["id"]
    return None


def _error(
    status: int,
    code: int,
    message: str,
    rid: str | int | None = None,
    data: dict[str, Any] | None = None,
) -> Response:
    error: dict[str, Any] = {"code": code, "message": message}
    if data:
        error["data"] = data
    return JSONResponse({"jsonrpc": "2.0", "id": rid, "error": error}, status_code=status)


class RateLimiter:
    """Counts events per key over a sliding window, in this process's memory. It runs on the
    event loop only, with no await inside `take`, so it needs no lock."""

    def __init__(self, window: float = WINDOW, clock: Callable[[], float] = time.monotonic):
        self.window = window
        self.clock = clock
        self._events: dict[Any, deque[float]] = {}

    def take(self, key: Any, n: int, limit: int) -> float:
        """Record `n` events for `key` and return 0, or, when that would pass `limit` in the
        window, record nothing and return the seconds until there is room."""
        now = self.clock()
        events = self._events.setdefault(key, deque())
        while events and now - events[0] >= self.window:
            events.popleft()
        if len(events) + n > limit:
            if n > limit:
                return self.window
            return events[len(events) + n - limit - 1] + self.window - now
        events.extend([now] * n)
        return 0.0
