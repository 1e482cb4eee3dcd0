"""Search through a tool on a remote MCP server: the source spec `mcp:<namespace>.<tool>`.

The tool is called with the query as its `query` argument (or `q`, or the one required
string argument its input schema names) and, when its schema has one, the number of
results wanted as `max_results`, `limit` or `top_k`. It answers with a list of results,
each `{title, url, snippet}` (`text`, `content` or `summary` stand in for `snippet`;
`published` or `date` give the date), under `results` in its structured content, or as the
same JSON in its text content (a bare list works too).

Outcomes: results with http(s) URLs are OK (a URL with a user name or password, spaces,
a broken host or port, or over MAX_URL characters is no usable URL, and long titles and
snippets are cut short); an empty list is NO_HIT; a server that cannot
be reached, a tool error, or an answer that is not such a list is UNAVAILABLE (or TIMEOUT,
UNAUTHORIZED, RATE_LIMITED) with the reason. Results the tool sends without a usable URL
are not "found nothing" either: they are UNAVAILABLE, saying so.
"""

from __future__ import annotations

import functools
import itertools
import json
import time
from collections.abc import Callable
from typing import Any

from mcp_types import CallToolResult, TextContent, Tool

from research.outcomes import Outcome
from research.providers.base import SearchHit, SearchResult, TimeoutBreaker, with_retries
from research.providers.deadline import Deadline
from research.providers.documents import iso_date
from research.providers.mcp_client import RemoteFailure, call_tool
from research.providers.mcp_sources import Server
from research.providers.urls import web_address

QUERY_ARGUMENTS = ("query", "q")
LIMIT_ARGUMENTS = ("max_results", "limit", "top_k")
RESULT_KEYS = ("results", "result", "hits", "items")
MAX_TITLE = 300
MAX_SNIPPET = 2_000


class McpSearchProvider:
    name = "mcp"

    def __init__(
        self,
        server: Server,
        tool: str,
        *,
        tries: int = 3,
        base_delay: float = 0.5,
        deadline: float = 15.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.server = server
        self.tool = tool
        self.label = f"{server.namespace}.{tool}"
        self.tries = tries
        self.base_delay = base_delay
        self.deadline = deadline
        self._sleep = sleep
        self._breaker = TimeoutBreaker(self.label)

    def search(self, query: str, limit: int) -> SearchResult:
        refused = self._breaker.refusal()
        if refused is not None:
            return refused
        deadline = Deadline.after(self.deadline)
        attempt = functools.partial(self._search_once, query, limit, deadline)
        result = with_retries(attempt, self.tries, self.base_delay, self._sleep, deadline)
        return self._breaker.record(result)

    def _search_once(self, query: str, limit: int, deadline: Deadline) -> SearchResult:
        if deadline.expired:
            return SearchResult(
                Outcome.TIMEOUT, detail=f"{self.label}: {deadline.describe()} passed"
            )
        arguments = functools.partial(_arguments, query=query, limit=limit, label=self.label)
        try:
            answer = call_tool(self.server, self.tool, arguments, deadline)
        except RemoteFailure as failure:
            return SearchResult(failure.outcome, detail=failure.detail)
        return _parse(answer, limit, self.label)


def _arguments(tool: Tool, *, query: str, limit: int, label: str) -> dict[str, Any]:
    """The tool's arguments, named the way its input schema names them."""
    schema = tool.input_schema or {}
    properties: dict[str, Any] = schema.get("properties") or {}
    name = next((n for n in QUERY_ARGUMENTS if n in properties), None)
    if name is None:
        required = [
            n
            for n in schema.get("required") or []
            if (properties.get(n) or {}).get("type") == "string"
        ]
        name = required[0] if len(required) == 1 else None
    if name is None:
        raise RemoteFailure(
            Outcome.UNAVAILABLE,
            f"{label} takes no query argument (its arguments: {', '.join(properties) or 'none'}); "
            "a search tool needs a `query` string argument",
        )
    arguments: dict[str, Any] = {name: query}
    size = next((n for n in LIMIT_ARGUMENTS if n in properties), None)
    if size is not None:
        arguments[size] = limit
    return arguments


def _parse(answer: CallToolResult, limit: int, label: str) -> SearchResult:
    text = " ".join(c.text for c in answer.content if isinstance(c, TextContent)).strip()
    if answer.is_error:
        reason = " ".join(text.split())[:300] or "no reason given"
        return SearchResult(Outcome.UNAVAILABLE, detail=f"{label} reported an error: {reason}")
    items = _items(answer.structured_content)
    if items is None and text:
        try:
            items = _items(json.loads(text))
        except ValueError:
            items = None
    if items is None:
        return SearchResult(
            Outcome.UNAVAILABLE,
            detail=f"{label} answered without a list of results ({{title, url, snippet}})",
        )
    if not items:
        return SearchResult(Outcome.NO_HIT, detail=f"{label} returned no results")
    hits = list(itertools.islice(filter(None, map(_hit, items)), limit))
    if not hits:
        return SearchResult(
            Outcome.UNAVAILABLE,
            detail=f"{label} returned {len(items)} results, none with an http(s) url",
        )
    return SearchResult(Outcome.OK, hits)


def _items(payload: Any) -> list[Any] | None:
    if isinstance(payload, list):
        return payload
    if isinstance(payload, dict):
        for key in RESULT_KEYS:
            if isinstance(payload.get(key), list):
                return payload[key]
    return None


def _hit(item: Any) -> SearchHit | None:
    if not isinstance(item, dict) or not web_address(item.get("url")):
        return None
    url = item["url"]
    snippet = next(
        (
            _text(item[k], MAX_SNIPPET)
            for k in ("snippet", "text", "content", "summary")
            if k in item
        ),
        "",
    )
    date = next((_text(item[k], MAX_TITLE) for k in ("published", "date") if k in item), "")
    return SearchHit(
        url=url,
        title=_text(item.get("title"), MAX_TITLE) or url,
        snippet=snippet,
        published=iso_date(date),
    )


def _text(value: Any, limit: int) -> str:
    return " ".join(value.split())[:limit] if isinstance(value, str) else ""
