"""The one guarded HTTP client (DESIGN sections 3 and 4).

Two promises hold for every connection it opens:

- It goes to an address that was checked. httpx would resolve a host name again when it
  connects, after any check of ours, so a name that answers with a public address for the
  check and a private one for the connect (DNS rebinding) would slip past. Here a host is
  resolved once per call, every address is checked with netguard, and the socket is opened
  to that checked address. httpx still sees the host name, so the Host header, TLS SNI and
  certificate verification all use it.
- Every step ends by the call's deadline: DNS, connect, TLS, each read and write, on every
  redirect hop and retry. A server that drip-feeds a byte a second cannot hold a call.

The hook for both is httpcore's network backend, which httpx 0.28 does not let a client
set: GuardedTransport builds its connection pool with one.
"""

from __future__ import annotations

import functools
import ssl
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NoReturn

import httpcore
import httpx

from research.outcomes import Outcome
from research.providers.deadline import Deadline, DeadlinePassed, within
from research.providers.netguard import (
    IPAddress,
    IPNetwork,
    Refusal,
    Resolver,
    addresses_for,
    check_addresses,
    resolve,
)

_current: ContextVar[Call | None] = ContextVar("verdict_http_call", default=None)


class Call:
    """One provider call: its deadline, and what each host resolved to during it.

    A host is asked of the resolver once per call: the check before a request, the
    connection itself and any retry all use that one answer.
    """

    def __init__(self, deadline: Deadline, resolver: Resolver = resolve) -> None:
        self.deadline = deadline
        self._resolver = resolver
        self._answers: dict[str, list[str]] = {}
        self._lock = threading.Lock()
        self.refusal: Refusal | None = None  # why the guard last refused to connect

    @classmethod
    def within_seconds(cls, seconds: float, resolver: Resolver = resolve) -> Call:
        return cls(Deadline.after(seconds), resolver)

    def resolve(self, host: str) -> list[str]:
        """The addresses `host` resolves to (raises OSError, like socket.getaddrinfo)."""
        with self._lock:
            if host in self._answers:
                return list(self._answers[host])
        try:
            answer = within(self.deadline, lambda: self._resolver(host), f"resolve {host}")
        except DeadlinePassed as exc:
            raise TimeoutError(f"resolving {host}: {exc}") from None
        with self._lock:
            # Two threads of one call may race here; the first answer is the one kept.
            return list(self._answers.setdefault(host, list(answer)))

    @contextmanager
    def active(self) -> Iterator[Call]:
        """Make this the call that connections opened in this thread belong to."""
        token = _current.set(self)
        try:
            yield self
        finally:
            _current.reset(token)

    def failure(self, exc: httpx.HTTPError) -> tuple[Outcome, str]:
        """The outcome and reason for an httpx error raised during this call."""
        refusal, self.refusal = self.refusal, None
        if refusal is not None and isinstance(exc, httpx.ConnectError):
            return refusal.outcome, refusal.reason
        if isinstance(exc, httpx.TimeoutException):
            if self.deadline.expired:
                return Outcome.TIMEOUT, f"no complete answer within {self.deadline.describe()}"
            return Outcome.TIMEOUT, f"timed out ({describe(exc)})"
        return Outcome.UNAVAILABLE, describe(exc)


def describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class GuardedBackend(httpcore.NetworkBackend):
    """Opens sockets only to checked addresses, and only within the active call.

    `exempt_hosts` are hosts the operator configured (a SearXNG instance on the intranet):
    they are resolved once and connected to without the address check.
    """

    def __init__(
        self, allowed_networks: Iterable[IPNetwork] = (), exempt_hosts: Iterable[str] = ()
    ) -> None:
        self._allowed = list(allowed_networks)
        self._exempt = frozenset(host.lower() for host in exempt_hosts)
        self._sockets = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        call = _current.get()
        if call is None:  # fail closed: a connection nobody checked is never opened
            raise httpcore.ConnectError(f"refused to connect to {host}: no guarded call")
        last: Exception = httpcore.ConnectError(f"{host} has no addresses")
        for address in self._checked(call, host):
            left = _time_left(call, httpcore.ConnectTimeout, f"connecting to {host}")
            try:
                stream = self._sockets.connect_tcp(
                    str(address), port, _shorter(timeout, left), local_address, socket_options
                )
            except httpcore.ConnectError as exc:  # try the host's next checked address
                last = exc
                continue
            return DeadlineStream(stream)
        raise last

    def _checked(self, call: Call, host: str) -> list[IPAddress]:
        found = addresses_for(host, call.resolve)
        if isinstance(found, Refusal):
            self._refuse(call, host, found)
        elif host.lower() not in self._exempt:
            refusal = check_addresses(host, found, self._allowed)
            if refusal is not None:
                self._refuse(call, host, refusal)
        return found

    @staticmethod
    def _refuse(call: Call, host: str, refusal: Refusal) -> NoReturn:
        _time_left(call, httpcore.ConnectTimeout, f"resolving {host}")  # out of time: TIMEOUT
        call.refusal = refusal
        raise httpcore.ConnectError(refusal.reason)

    def sleep(self, seconds: float) -> None:
        self._sockets.sleep(seconds)


class DeadlineStream(httpcore.NetworkStream):
    """A socket whose every read, write and TLS handshake ends by the call's deadline.

    The call is looked up at each operation, not when the socket was opened: a pooled
    connection may serve several calls, each with its own deadline.
    """

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        with _bounded(httpcore.ReadTimeout, "reading", timeout) as bounded:
            return self._stream.read(max_bytes, bounded)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        with _bounded(httpcore.WriteTimeout, "writing", timeout) as bounded:
            self._stream.write(buffer, bounded)

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        with _bounded(httpcore.ConnectTimeout, "the TLS handshake", timeout) as bounded:
            return DeadlineStream(self._stream.start_tls(ssl_context, server_hostname, bounded))

    def close(self) -> None:
        self._stream.close()

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


@contextmanager
def _bounded(error: type[Exception], step: str, timeout: float | None) -> Iterator[float | None]:
    call = _current.get()
    if call is None:  # a pooled connection closing outside any call
        yield timeout
        return
    left = _time_left(call, error, step)
    try:
        yield _shorter(timeout, left)
    except error:
        if call.deadline.expired:  # say which limit it was, not just "timed out"
            raise error(f"{step}: {call.deadline.describe()} passed") from None
        raise


def _time_left(call: Call, error: type[Exception], step: str) -> float:
    """Seconds left, always more than zero (a zero socket timeout means non-blocking)."""
    left = call.deadline.remaining()
    if left <= 0:
        raise error(f"{step}: {call.deadline.describe()} passed")
    return left


def _shorter(timeout: float | None, left: float) -> float:
    return left if timeout is None else min(timeout, left)


class GuardedTransport(httpx.HTTPTransport):
    """httpx's own transport, with a connection pool that dials through GuardedBackend."""

    def __init__(
        self, backend: GuardedBackend, ssl_context: ssl.SSLContext, limits: httpx.Limits
    ) -> None:
        super().__init__(verify=ssl_context, trust_env=False, limits=limits)
        self._pool = httpcore.ConnectionPool(
            ssl_context=ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=backend,
        )


def guarded_client(
    *,
    timeout: float,
    headers: dict[str, str],
    allowed_networks: Iterable[IPNetwork] = (),
    exempt_hosts: Iterable[str] = (),
    ssl_context: ssl.SSLContext | None = None,
    follow_redirects: bool = False,
    limits: httpx.Limits | None = None,
) -> httpx.Client:
    """An httpx client whose requests must run inside `Call.active()`."""
    backend = GuardedBackend(allowed_networks, exempt_hosts)
    transport = GuardedTransport(
        backend, ssl_context or shared_ssl_context(), limits or httpx.Limits()
    )
    # trust_env=False: a proxy from the environment would connect on our behalf to
    # addresses the guard never saw.
    return httpx.Client(
        transport=transport,
        timeout=timeout,
        headers=headers,
        follow_redirects=follow_redirects,
        trust_env=False,
    )


def declared_length(response: httpx.Response) -> int | None:
    """The Content-Length the server announced, if it announced a usable one."""
    try:
        return int(response.headers.get("content-length", ""))
    except ValueError:
        return None


def read_capped(
    response: httpx.Response, max_bytes: int, deadline: Deadline | None = None
) -> bytes | None:
    """A streamed response's decoded body, or None once it grows past `max_bytes`: the
    rest is never read, so an endless or enormous answer costs `max_bytes` of memory."""
    declared = declared_length(response)
    if declared is not None and declared > max_bytes:
        return None
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > max_bytes:
            return None
        if deadline is not None and deadline.expired:  # each read is bounded; this too
            raise httpx.ReadTimeout(f"reading the body: {deadline.describe()} passed")
        chunks.append(chunk)
    return b"".join(chunks)


async def aread_capped(response: httpx.Response, max_bytes: int) -> bytes | None:
    """read_capped for an httpx.AsyncClient's streamed response."""
    declared = declared_length(response)
    if declared is not None and declared > max_bytes:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > max_bytes:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


@functools.cache
def shared_ssl_context() -> ssl.SSLContext:
    # Loading the CA bundle takes ~50 ms; one context per process serves every client
    # (SSLContext is safe to share between threads).
    return httpx.create_ssl_context()
