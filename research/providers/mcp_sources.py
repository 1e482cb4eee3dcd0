"""The operator's remote MCP servers (setting MCP_SOURCES_FILE, default var/mcp_sources.json).

A JSON file, because its shape is a list of nested records and the project's other machine
read files are JSON too:

    {"servers": [
      {"namespace": "kb", "command": "/opt/kb/bin/kb-mcp", "args": ["--stdio"],
       "env": {"KB_TOKEN": "${KB_TOKEN}"}, "allowlist": ["search"]},
      {"namespace": "wiki", "url": "https://wiki.example/mcp",
       "headers": {"Authorization": "Bearer ${WIKI_TOKEN}"}, "allowlist": ["search"]}
    ]}

A server is either a stdio command (command, args, env, cwd: a relative cwd, and the
default one, is the file's folder) or a Streamable HTTP URL (url, headers). Only tools
named in its `allowlist` are ever called, as `<namespace>.<tool>`; a source spec names one
of them, `mcp:kb.search`. `${NAME}` in env, headers and url is read from the environment, so
tokens stay out of the file. A missing file means no remote servers; a malformed one is
ImproperlyConfigured naming the file and the problem, at start-up (settings load it once)
and whenever it is read again after an edit.
"""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured
from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)

_NAMESPACE = re.compile(r"[a-z][a-z0-9_-]{0,31}")
ToolName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_./-]{0,127}$")]
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class McpSourceError(ValueError):
    """A `mcp:` spec that names no allowlisted tool; the message says which ones exist."""


def _expand(value: str) -> str:
    """`${NAME}` replaced from the environment; an unset variable is an error, not ''."""

    def lookup(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in os.environ:
            raise ValueError(f"environment variable {name} is not set")
        return os.environ[name]

    return _VARIABLE.sub(lookup, value)


class _Server(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    namespace: str
    allowlist: tuple[ToolName, ...] = Field(min_length=1)

    @field_validator("namespace")
    @classmethod
    def _namespace(cls, namespace: str) -> str:
        if not _NAMESPACE.fullmatch(namespace):
            raise ValueError(
                f"{namespace!r} is not a namespace: use up to 32 lower-case letters, digits, "
                "- and _, starting with a letter"
            )
        return namespace

    @field_validator("allowlist")
    @classmethod
    def _distinct(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(names))


class StdioServer(_Server):
    transport: Literal["stdio"] = "stdio"
    command: Annotated[str, StringConstraints(min_length=1)]
    args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None

    @field_validator("env")
    @classmethod
    def _expand_env(cls, env: dict[str, str]) -> dict[str, str]:
        return {key: _expand(value) for key, value in env.items()}

    def describe(self) -> str:
        return " ".join([self.command, *self.args])


class HttpServer(_Server):
    transport: Literal["http"] = "http"
    url: str
    headers: dict[str, str] = Field(default_factory=dict)

    @field_validator("url")
    @classmethod
    def _http_url(cls, url: str) -> str:
        url = _expand(url)
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{url!r} is not an http(s) URL")
        return url

    @field_validator("headers")
    @classmethod
    def _expand_headers(cls, headers: dict[str, str]) -> dict[str, str]:
        return {key: _expand(value) for key, value in headers.items()}

    def describe(self) -> str:
        return self.url  # never the headers: they carry tokens


def _transport_of(entry: Any) -> str | None:
    if isinstance(entry, _Server):
        return entry.transport
    if not isinstance(entry, dict):
        return None
    if ("command" in entry) == ("url" in entry):
        return None
    return "stdio" if "command" in entry else "http"


ServerConfig = Annotated[
    Annotated[StdioServer, Tag("stdio")] | Annotated[HttpServer, Tag("http")],
    Discriminator(
        _transport_of,
        custom_error_type="server_kind",
        custom_error_message="give either command (a stdio server) or url (Streamable HTTP)",
    ),
]


class SourcesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    servers: tuple[ServerConfig, ...] = ()

    @model_validator(mode="after")
    def _unique_namespaces(self) -> SourcesFile:
        seen: set[str] = set()
        for server in self.servers:
            if server.namespace in seen:
                raise ValueError(f"namespace {server.namespace!r} is used twice")
            seen.add(server.namespace)
        return self


Server = StdioServer | HttpServer


def load(path: Path) -> dict[str, Server]:
    """The servers in `path` by namespace ({} when there is no file); stdio cwds resolved."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ImproperlyConfigured(f"MCP_SOURCES_FILE {path}: cannot be read: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImproperlyConfigured(
            f"MCP_SOURCES_FILE {path}: not valid JSON: {exc.msg} at line {exc.lineno} "
            f"column {exc.colno}"
        ) from None
    if not isinstance(data, dict):
        raise ImproperlyConfigured(f'MCP_SOURCES_FILE {path}: expected {{"servers": [...]}}')
    try:
        parsed = SourcesFile.model_validate(data)
    except ValidationError as exc:
        raise ImproperlyConfigured(f"MCP_SOURCES_FILE {path}: {_problems(exc, data)}") from None
    return {s.namespace: _resolved(s, path.parent) for s in parsed.servers}


def _resolved(server: Server, folder: Path) -> Server:
    if not isinstance(server, StdioServer):
        return server
    cwd = (folder / server.cwd) if server.cwd else folder
    return server.model_copy(update={"cwd": str(cwd.resolve())})


def _problems(exc: ValidationError, data: Any) -> str:
    """One line per problem, each located by the server's namespace where it has one."""
    lines = []
    for error in exc.errors(include_url=False):
        where = _where(error["loc"], data)
        message = error["msg"].removeprefix("Value error, ")
        lines.append(f"{where}: {message}" if where else message)
    return "; ".join(lines)


def _where(loc: tuple[Any, ...], data: Any) -> str:
    parts: list[str] = []
    for index, part in enumerate(loc):
        if part in ("stdio", "http") and index == 2:
            continue  # the union's tag, not a key in the file
        if isinstance(part, int):
            parts[-1:] = [f"{parts[-1]}[{part}]" if parts else f"[{part}]"]
            if loc[:1] == ("servers",) and index == 1:
                parts[-1] += _namespace_of(data, part)
        else:
            parts.append(str(part))
    return ".".join(parts)


def _namespace_of(data: Any, index: int) -> str:
    try:
        namespace = data["servers"][index]["namespace"]
    except (TypeError, KeyError, IndexError):
        return ""
    return f" ({namespace})" if isinstance(namespace, str) else ""


_cache_lock = threading.Lock()
_cache: dict[tuple[str, int, int], dict[str, Server]] = {}


def configured_servers() -> dict[str, Server]:
    """The servers in settings.MCP_SOURCES_FILE, read again only when the file changes."""
    from django.conf import settings  # read at call time, so test overrides apply

    path = Path(settings.MCP_SOURCES_FILE)
    try:
        stat = path.stat()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ImproperlyConfigured(f"MCP_SOURCES_FILE {path}: cannot be read: {exc}") from None
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    with _cache_lock:
        if key not in _cache:
            _cache.clear()
            _cache[key] = load(path)
        return _cache[key]


def tool_spec(argument: str) -> tuple[Server, str]:
    """The server and tool that `mcp:<namespace>.<tool>` names, checked against the file.

    No network: the file says what may be called. Whether the server offers the tool is
    found out when it is called.
    """
    namespace, dot, tool = argument.strip().partition(".")
    if not dot or not namespace or not tool:
        raise McpSourceError("name the tool as NAMESPACE.TOOL, e.g. mcp:kb.search")
    try:
        servers = configured_servers()
    except ImproperlyConfigured as exc:
        raise McpSourceError(f"remote MCP servers are misconfigured: {exc}") from None
    server = servers.get(namespace)
    if server is None:
        known = ", ".join(sorted(servers)) or "none"
        raise McpSourceError(
            f"no MCP server has namespace {namespace!r} in MCP_SOURCES_FILE (configured: {known})"
        )
    if tool not in server.allowlist:
        allowed = ", ".join(f"{namespace}.{name}" for name in server.allowlist)
        raise McpSourceError(f"{namespace}.{tool} is not allowlisted (allowed: {allowed})")
    return server, tool
