"""Oversized arguments, whatever tool they are sent to: every string and list an agent can send
is bounded in the tool's schema, so a client refuses it before sending, and the server refuses
it in a short answer that quotes at most a prefix of it.

The tools are read from the server itself, so a tool added later is covered too.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

from research import bounds
from research.mcp import build_server
from research.mcp.arguments import _unbounded
from tests.research.mcp.clients import call

pytestmark = pytest.mark.django_db

MEGABYTE = "x" * 1_000_000
MANY = 10_000


def schemas(user) -> dict[str, dict[str, Any]]:
    return {t.name: t.parameters for t in build_server(user)._tool_manager.list_tools()}


def resolved(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    branches = [b for b in node.get("anyOf", []) if b.get("type") != "null"]
    return resolved(schema, branches[0]) if branches else node


def fitting(schema: dict[str, Any], node: dict[str, Any]) -> Any:
    """A small value the schema takes at `node`."""
    node = resolved(schema, node)
    kind = node.get("type")
    if kind == "string":
        return "x"
    if kind in ("integer", "number"):
        return node.get("minimum", node.get("exclusiveMinimum", 0) + 1)
    if kind == "boolean":
        return False
    if kind == "array":
        return [fitting(schema, node["items"])]
    if kind == "object" and "properties" in node:
        return {
            name: fitting(schema, node["properties"][name]) for name in node.get("required", [])
        }
    return {"x": fitting(schema, node.get("additionalProperties") or {"type": "number"})}


def hostile(schema: dict[str, Any], node: dict[str, Any]) -> list[tuple[str, Any]]:
    """Oversized values for `node`: a megabyte for text, ten thousand items for a list or a
    map, and a list or map whose one item or key is oversized."""
    node = resolved(schema, node)
    kind = node.get("type")
    if kind == "string":
        return [("a megabyte", MEGABYTE)]
    if kind == "array":
        item = fitting(schema, node["items"])
        found = [(f"{MANY:,} items", [item] * MANY)]
        found += [
            (f"an item with {what}", [value]) for what, value in hostile(schema, node["items"])
        ]
        return found
    if kind == "object" and "properties" in node:
        base = fitting(schema, node)
        return [
            (f"{name} with {what}", {**base, name: value})
            for name, prop in node["properties"].items()
            for what, value in hostile(schema, prop)
        ]
    if kind == "object":
        value = fitting(schema, node.get("additionalProperties") or {"type": "number"})
        return [
            (f"{MANY:,} keys", {f"k{i}": value for i in range(MANY)}),
            ("a megabyte key", {MEGABYTE: value}),
        ]
    return []


def cases(user) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for tool, schema in schemas(user).items():
        base = {n: fitting(schema, schema["properties"][n]) for n in schema.get("required", [])}
        for name, prop in schema.get("properties", {}).items():
            for what, value in hostile(schema, prop):
                found.append((f"{tool}: {name} with {what}", tool, {**base, name: value}))
    found.append(("a megabyte tool name", MEGABYTE, {}))
    found.append(("a megabyte argument name", "get_run_status", {"run_id": "x", MEGABYTE: 1}))
    return found


def answers(user, calls: list[tuple[str, str, dict[str, Any]]]) -> list[CallToolResult]:
    async def scenario(client: Client) -> list[CallToolResult]:
        return [await client.call_tool(tool, arguments) for _, tool, arguments in calls]

    return call(user, scenario)


def size(result: CallToolResult) -> int:
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode())


def test_every_string_list_and_map_a_tool_takes_has_a_bound_in_its_schema(ada):
    assert {tool: _unbounded(schema) for tool, schema in schemas(ada).items()} == {
        tool: [] for tool in schemas(ada)
    }
    assert schemas(ada)["start_research"]["properties"]["question"]["maxLength"] == 8_000


def test_every_oversized_argument_of_every_tool_is_refused_in_under_4_kb(ada):
    calls = cases(ada)
    assert len(calls) > 40  # every tool's arguments, not a few
    results = answers(ada, calls)
    for (case, _, _), result in zip(calls, results, strict=True):
        assert result.is_error, case
        assert size(result) < bounds.ANSWER_BYTES, (case, size(result))
        assert "x" * 100 not in result.content[0].text, case  # a prefix at most


def test_a_refusal_says_the_bound_and_quotes_a_short_prefix(ada):
    long_name, many_names, long_key = answers(
        ada,
        [
            ("", "start_research", {"question": MEGABYTE}),
            ("", "start_research", {"question": "A vs B", "options": ["A"] * MANY}),
            ("", "rescore_run", {"run_id": "x", "weights": {MEGABYTE: 1}}),
        ],
    )
    assert long_name.content[0].text == "INVALID_ARGUMENT: question: at most 8000 characters"
    assert many_names.content[0].text == "INVALID_ARGUMENT: options: at most 50 items"
    assert long_key.content[0].text == (
        f"INVALID_ARGUMENT: weights.{'x' * 40!r}….[key]: at most 200 characters"
    )


def test_a_question_within_the_schema_bound_but_too_long_is_refused_unread(ada):
    question = "A vs B " + "x " * 3_996  # 7,998 characters once trimmed: past the 2,000 a run takes
    (result,) = answers(ada, [("", "start_research", {"question": question})])
    assert result.structured_content["status"] == "INVALID"
    assert result.structured_content["errors"]["question"] == [
        "The question is 7,998 characters long; keep it to 2,000 or fewer and leave "
        "background to the sources."
    ]
    assert size(result) < bounds.ANSWER_BYTES


def test_an_error_answer_to_the_largest_arguments_a_tool_takes_is_under_4_kb(ada):
    """At the bounds, the tool itself answers: what its message quotes must still fit."""
    calls = []
    for tool, schema in schemas(ada).items():
        base = {n: fitting(schema, schema["properties"][n]) for n in schema.get("required", [])}
        for name, prop in schema.get("properties", {}).items():
            node = resolved(schema, prop)
            if node.get("type") == "string":
                calls.append((name, tool, {**base, name: "é" * node["maxLength"]}))
            elif node.get("type") == "array":
                item = resolved(schema, node["items"])
                one = "é" * item["maxLength"] if item.get("type") == "string" else None
                value = one if one is not None else fitting(schema, node["items"])
                calls.append((name, tool, {**base, name: [value] * node["maxItems"]}))
    results = answers(ada, calls)
    assert sum(r.is_error for r in results) > 20
    for (name, tool, _), result in zip(calls, results, strict=True):
        assert not result.is_error or size(result) < bounds.ANSWER_BYTES, (tool, name)


def test_a_megabyte_resource_address_or_prompt_argument_is_refused_in_a_short_error(ada):
    async def scenario(client: Client) -> list[str]:
        refused = []
        for request in (
            client.read_resource(f"research://runs/{MEGABYTE}/report.md"),
            client.subscribe_resource(f"research://runs/{MEGABYTE}/report.md"),
            client.get_prompt("retrieve", {"question": MEGABYTE}),
            client.get_prompt(MEGABYTE, {}),
        ):
            try:
                await request
            except MCPError as exc:
                refused.append(json.dumps(exc.error.model_dump(mode="json")))
        return refused

    refused = call(ada, scenario)
    assert len(refused) == 4
    assert all(len(error) < bounds.ANSWER_BYTES for error in refused), [len(e) for e in refused]
    assert "uri is 1,000,026 characters long; at most 1,000 are read" in refused[0]
    assert "question is 1,000,000 characters long; at most 8,000 are read" in refused[2]
