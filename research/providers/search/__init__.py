"""Search providers, built from source specs: `local:DIR`, `searxng:URL`, `ddgs` and
`mcp:NAMESPACE.TOOL` (a tool of a remote MCP server named in MCP_SOURCES_FILE).

A `primary:NAME` spec (`primary:github`) names a primary source: it is checked here like
the others, but the plan asks it per option (research.stages.plan.primary), not per query,
so it builds no search provider."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from research.providers.base import SearchProvider
from research.providers.mcp_sources import McpSourceError, Server, tool_spec

KINDS = ("local", "searxng", "ddgs", "mcp", "primary")
_USAGE = "use local:DIR, searxng:URL, ddgs, mcp:NAMESPACE.TOOL or primary:NAME"


class SourceSpecError(ValueError):
    """A source spec that names no usable provider; the message says how to fix it."""


def parse_source(spec: str) -> tuple[str, str]:
    """Validate one spec and return (kind, argument), the argument normalised."""
    kind, _, argument = spec.strip().partition(":")
    kind, argument = kind.strip().lower(), argument.strip()
    if kind == "local":
        return kind, _local_folder(argument, spec)
    if kind == "searxng":
        return kind, _searxng_url(argument, spec)
    if kind == "ddgs":
        if argument:
            raise SourceSpecError(f"source {spec!r}: ddgs takes no argument, write just 'ddgs'")
        return kind, ""
    if kind == "mcp":
        server, tool = _remote_tool(argument, spec)
        return kind, f"{server.namespace}.{tool}"
    if kind == "primary":
        from research.providers.primary.registry import UnknownPrimarySource
        from research.providers.primary.registry import parse_spec as parse_primary

        try:
            return kind, parse_primary(spec)
        except UnknownPrimarySource as exc:
            raise SourceSpecError(f"source {exc}") from None
    raise SourceSpecError(f"source {spec!r}: unknown kind {kind!r}; {_USAGE}")


def is_primary(spec: str) -> bool:
    return spec.strip().partition(":")[0].strip().lower() == "primary"


def parse_sources(specs: list[str]) -> list[str]:
    """Validate specs; returns them normalised ("local:/abs/dir") and deduplicated."""
    normalised: list[str] = []
    for spec in specs:
        kind, argument = parse_source(spec)
        text = f"{kind}:{argument}" if argument else kind
        if text not in normalised:
            normalised.append(text)
    if not normalised:
        raise SourceSpecError(f"no sources given; {_USAGE}")
    return normalised


def build_provider(
    spec: str,
    *,
    timeout: float | None = None,
    tries: int | None = None,
    base_delay: float | None = None,
    name: str | None = None,
) -> SearchProvider:
    """The provider a spec names. Network settings default to the Django settings. A local
    folder's documents are addressed as `local://<name>/<file>` (name: the source's name,
    else the folder's own), never by their path on the server."""
    from django.conf import settings  # read at call time, so test overrides apply

    kind, argument = parse_source(spec)
    if kind == "primary":
        raise SourceSpecError(f"source {spec!r} is asked per option by the plan, not searched")
    deadline = settings.SEARCH_DEADLINE
    # Each provider's module is imported when a run uses it: the MCP client alone takes half
    # a second to import, and a run from the command line pays every import it makes.
    if kind == "local":
        from research.providers.search.local import LocalCorpus

        return LocalCorpus(
            argument,
            name=name or Path(argument).name,
            index_dir=settings.LOCAL_INDEX_DIR,
            max_bytes=settings.LOCAL_MAX_BYTES,
            deadline=deadline,
        )
    timeout, tries, base_delay = _network_settings(timeout, tries, base_delay)
    if kind == "mcp":
        from research.providers.search.mcp_remote import McpSearchProvider

        server, tool = _remote_tool(argument, spec)
        return McpSearchProvider(
            server, tool, tries=tries, base_delay=base_delay, deadline=deadline
        )
    if kind == "searxng":
        from research.providers.search.searxng import SearxngProvider

        return SearxngProvider(
            argument,
            timeout,
            tries,
            base_delay,
            user_agent=settings.FETCH_USER_AGENT,
            deadline=deadline,
            allowed_networks=settings.FETCH_ALLOWED_NETWORKS,
            max_bytes=settings.SEARCH_MAX_BYTES,
        )
    from research.providers.search.ddgs_provider import DdgsProvider

    return DdgsProvider(timeout, tries, base_delay, deadline=deadline)


def _local_folder(argument: str, spec: str) -> str:
    if not argument:
        raise SourceSpecError(f"source {spec!r}: name the folder, e.g. local:./corpus")
    folder = Path(argument).expanduser().resolve()
    if not folder.exists():
        raise SourceSpecError(f"source {spec!r}: folder {folder} does not exist")
    if not folder.is_dir():
        raise SourceSpecError(f"source {spec!r}: {folder} is a file, not a folder")
    return str(folder)


def _searxng_url(argument: str, spec: str) -> str:
    if not argument:
        raise SourceSpecError(
            f"source {spec!r}: give the instance URL, e.g. searxng:http://localhost:8888"
        )
    parts = urlsplit(argument)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SourceSpecError(
            f"source {spec!r}: {argument!r} is not an http(s) URL, e.g. searxng:http://localhost:8888"
        )
    return argument.rstrip("/")


def _remote_tool(argument: str, spec: str) -> tuple[Server, str]:
    try:
        return tool_spec(argument)
    except McpSourceError as exc:
        raise SourceSpecError(f"source {spec!r}: {exc}") from None


def _network_settings(
    timeout: float | None, tries: int | None, base_delay: float | None
) -> tuple[float, int, float]:
    from django.conf import settings  # read at call time, so test overrides apply

    return (
        settings.SEARCH_TIMEOUT if timeout is None else timeout,
        settings.RETRY_TRIES if tries is None else tries,
        settings.RETRY_BASE_DELAY if base_delay is None else base_delay,
    )
