"""What `make run` says about the sources before it starts: the ones the question form will
offer, and a warning when every one of them is a web search and this server cannot resolve
its search engine's name (no network, or no DNS), since every question would then find
nothing to read."""

from __future__ import annotations

import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as Late
from ipaddress import ip_address
from urllib.parse import urlsplit

from research.sources import SourceChoice, configured_sources, kind_of

# The host a web search's engine answers on: DuckDuckGo's, or the SearXNG instance's own.
DDG_HOST = "html.duckduckgo.com"
WEB_SEARCH = ("ddgs", "searxng")
DNS_SECONDS = 3.0

Resolve = Callable[[str], object]


def search_host(spec: str) -> str:
    """The name a web search source must resolve; "" for an address or for another kind."""
    kind = kind_of(spec)
    if kind == "ddgs":
        return DDG_HOST
    if kind != "searxng":
        return ""
    host = urlsplit(spec.partition(":")[2]).hostname or ""
    try:
        ip_address(host)
    except ValueError:
        return "" if host == "localhost" else host
    return ""


def offered_lines(choices: list[SourceChoice]) -> list[str]:
    if not choices:
        return [
            "The question form offers no sources: set SOURCES (or DEFAULT_SOURCES) in .env, "
            "e.g. SOURCES=notes=local:/srv/notes,ddg=ddgs"
        ]
    return ["The question form offers these sources:"] + [
        f"  {c.name}: {c.label.partition(' · ')[2] or c.spec}" for c in choices
    ]


def dns_warning(choices: list[SourceChoice], resolve: Resolve = socket.getaddrinfo) -> str:
    """A warning when every source is a web search and none of their hosts resolves."""
    if not choices or any(kind_of(c.spec) not in WEB_SEARCH for c in choices):
        return ""
    names = {search_host(c.spec) for c in choices}
    if "" in names:
        return ""  # a search engine on this machine, or at an address, needs no name
    hosts = sorted(names)
    failures = [why for host in hosts if (why := _unresolved(host, resolve))]
    if len(failures) < len(hosts):
        return ""
    return (
        "Warning: the only sources are web searches, and this server cannot resolve "
        f"{', '.join(hosts)} ({failures[0]}): every question would find nothing to read. "
        "Check the network and DNS, or add a local folder to SOURCES."
    )


def _unresolved(host: str, resolve: Resolve) -> str:
    """Why `host` does not resolve within DNS_SECONDS; "" when it does."""
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        pool.submit(resolve, host, 443).result(timeout=DNS_SECONDS)
    except Late:
        return f"no answer from DNS within {DNS_SECONDS:g} s"
    except OSError as exc:
        return str(exc) or type(exc).__name__
    finally:
        pool.shutdown(wait=False)
    return ""


def sources_report(resolve: Resolve = socket.getaddrinfo) -> list[str]:
    """The lines `make run` prints about the sources."""
    choices = configured_sources()
    warning = dns_warning(choices, resolve)
    return [*offered_lines(choices), *([warning] if warning else [])]
