"""Tool arguments an agent can get right the first time: every tool refuses arguments it does
not take, and a call whose arguments do not fit is answered in plain words, with the status
INVALID_ARGUMENT and the field each message is about, never a pydantic dump.

`harden(server)` makes every registered tool's argument model refuse extra arguments (the
schema then says `additionalProperties: false`), checks that every argument has a
description and a bound (maxLength, maxItems, maxProperties: a client then refuses an
oversized argument before sending it, and the server refuses it before reading it), and
serves tools/call through a check that words the refusals. No error answer is over
research.bounds.ANSWER_BYTES, whatever was sent: refusals quote short prefixes of names and
list a few problems, and any other error answer is cut to fit.
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools.base import Tool
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolRequestParams, CallToolResult, TextContent
from pydantic import ConfigDict, Field, ValidationError

from research import bounds

INVALID_ARGUMENT = "INVALID_ARGUMENT"

# Arguments several tools share, described once.
RunId = Annotated[
    str,
    Field(
        max_length=bounds.RUN_ID_CHARS,
        description="The run's id, as start_research or research returned it, or as listed "
        "in the research://runs resource.",
    ),
]
Name = Annotated[str, Field(max_length=bounds.NAME_CHARS)]
Names = Annotated[list[Name], Field(max_length=bounds.NAMES)]
QuestionText = Annotated[str, Field(max_length=bounds.QUESTION_CHARS)]
StartIndex = Annotated[
    int,
    Field(
        ge=0,
        description="The character to start from: 0 for the beginning, or the next_index of "
        "the previous call to read on.",
    ),
]


def harden(server: MCPServer) -> None:
    """Refuse unknown arguments, and word argument errors plainly, for every tool."""
    for tool in server._tool_manager.list_tools():
        _forbid_extra(tool)
        undescribed = _undescribed(tool.parameters)
        if undescribed:
            raise TypeError(f"tool {tool.name}: no description for {', '.join(undescribed)}")
        unbounded = _unbounded(tool.parameters)
        if unbounded:
            raise TypeError(f"tool {tool.name}: no bound on the size of {', '.join(unbounded)}")
    lowlevel = server._lowlevel_server
    # MCPServer has no public way to wrap a protocol handler; its low-level server does.
    answer = server._handle_call_tool

    async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams):
        tool = server._tool_manager.get_tool(params.name)
        if tool is None:
            message = f"{INVALID_ARGUMENT}: no tool is named {bounds.quoted(params.name)}."
            return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)
        try:
            tool.fn_metadata.validate_arguments(params.arguments or {})
        except ValidationError as exc:
            return refusal(tool, exc)
        return fitted(await answer(ctx, params))

    lowlevel.add_request_handler("tools/call", CallToolRequestParams, call_tool)
    for method in ("resources/read", "resources/subscribe", "resources/unsubscribe", "prompts/get"):
        _bound_request(lowlevel, method)


def _bound_request(lowlevel: Any, method: str) -> None:
    """Refuse a request whose resource address, prompt name or prompt argument is over its
    bound before its handler reads it, or any error of its quotes it back in full."""
    entry = lowlevel.get_request_handler(method)
    if entry is None:
        return
    handler = entry.handler

    async def bounded(ctx: ServerRequestContext, params: Any):
        uri, name = getattr(params, "uri", None), getattr(params, "name", None)
        values = dict(getattr(params, "arguments", None) or {})
        problem = (
            _too_long("uri", uri, bounds.URI_CHARS)
            or _too_long("name", name, bounds.NAME_CHARS)
            or _too_many("arguments", values, bounds.NAMES)
            or next(
                (p for k, v in values.items() if (p := _too_long(k, v, bounds.QUESTION_CHARS))),
                None,
            )
        )
        if problem:
            raise MCPError(INVALID_PARAMS, problem)
        return await handler(ctx, params)

    lowlevel.add_request_handler(method, entry.params_type, bounded)


def _too_long(field: Any, value: Any, most: int) -> str | None:
    if not isinstance(value, str) or len(value) <= most:
        return None
    return f"{_part(field)} is {len(value):,} characters long; at most {most:,} are read"


def _too_many(field: str, values: dict[str, Any], most: int) -> str | None:
    return f"{field}: at most {most} items, not {len(values):,}" if len(values) > most else None


def _forbid_extra(tool: Tool) -> None:
    model = tool.fn_metadata.arg_model
    strict = type(model.__name__, (model,), {"model_config": ConfigDict(extra="forbid")})
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)


def _unbounded(schema: dict[str, Any]) -> list[str]:
    """Strings, lists and maps anywhere in the schema with no bound on their size."""
    found: list[str] = []
    needs = {"string": "maxLength", "array": "maxItems"}

    def visit(node: Any, where: str) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item, where)
            return
        if not isinstance(node, dict):
            return
        kind = node.get("type")
        if kind in needs and needs[kind] not in node:
            found.append(where or "arguments")
        is_map = kind == "object" and isinstance(node.get("additionalProperties"), dict)
        keys_bounded = "maxLength" in node.get("propertyNames", {})
        if is_map and not ("maxProperties" in node and keys_bounded):
            found.append(where)
        for key, value in node.items():
            if key == "properties":
                for name, prop in value.items():
                    visit(prop, f"{where}.{name}".lstrip("."))
            elif key in ("items", "anyOf", "additionalProperties"):
                visit(value, where)
            elif key == "$defs":
                for name, definition in value.items():
                    visit(definition, name)

    visit(schema, "")
    return sorted(set(found))


def _undescribed(schema: dict[str, Any]) -> list[str]:
    """Properties of the schema, nested objects' included, that have no description."""
    missing = []
    objects = [("", schema), *((f"{n}.", d) for n, d in schema.get("$defs", {}).items())]
    for prefix, obj in objects:
        for name, prop in obj.get("properties", {}).items():
            if not prop.get("description"):
                missing.append(prefix + name)
    return missing


def refusal(tool: Tool, error: ValidationError) -> CallToolResult:
    """The argument errors in words: a few, with short names, however many were made (a
    map's keys are names the caller chose, and show in where each error is)."""
    errors: dict[str, list[str]] = {}
    problems = error.errors(include_url=False, include_context=True, include_input=False)
    for item in problems:
        field = ".".join(_part(part) for part in item["loc"]) or "arguments"
        if field in errors or len(errors) < bounds.PROBLEMS:
            errors.setdefault(field, []).append(_plain(item, tool))
    errors = {field: bounds.listed(messages) for field, messages in errors.items()}
    lines = [f"{field}: {message}" for field, messages in errors.items() for message in messages]
    shown = sum(len(m) for m in errors.values())
    if len(problems) > shown:
        lines.append(f"and {len(problems) - shown:,} more problems")
    message = f"{INVALID_ARGUMENT}: " + "; ".join(lines)
    return CallToolResult(
        content=[TextContent(type="text", text=message)],
        structured_content={"status": INVALID_ARGUMENT, "errors": errors, "message": message},
        is_error=True,
    )


def _part(part: Any) -> str:
    text = str(part)
    return text if len(text) <= bounds.QUOTE_CHARS else bounds.quoted(text)


def fitted(result: Any) -> Any:
    """An error answer cut to research.bounds.ANSWER_BYTES, should a tool's own message have
    quoted more than it should: the text shortened, and the structured answer's long strings
    and long lists with it."""
    if not isinstance(result, CallToolResult) or not result.is_error:
        return result
    if len(result.model_dump_json(by_alias=True, exclude_none=True)) <= bounds.ANSWER_BYTES:
        return result
    content = [
        TextContent(type="text", text=bounds.shortened(c.text, 1_000))
        for c in result.content
        if isinstance(c, TextContent)
    ][:1]
    structured = _trimmed(result.structured_content) if result.structured_content else None
    return CallToolResult(content=content, structured_content=structured, is_error=True)


def _trimmed(value: Any) -> Any:
    if isinstance(value, str):
        return bounds.shortened(value, 200)
    if isinstance(value, list):
        return [_trimmed(v) for v in value[: bounds.PROBLEMS]]
    if isinstance(value, dict):
        items = list(value.items())[: bounds.PROBLEMS * 3]
        return {bounds.shortened(str(k), bounds.QUOTE_CHARS): _trimmed(v) for k, v in items}
    return value


def _plain(item: Any, tool: Tool) -> str:
    """One validation error in words, with the bounds the schema gives."""
    kind, ctx = item["type"], item.get("ctx") or {}
    if kind == "extra_forbidden":
        return f"{tool.name} takes no such argument; it takes {_argument_names(tool)}"
    if kind == "missing":
        return "required"
    low, high = _bounds(tool.parameters, item["loc"])
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        if low is not None and high is not None:
            return f"must be a number between {low} and {high}"
        if kind.startswith("greater"):
            return f"must be a number {'above' if kind == 'greater_than' else 'at least'} {low}"
        return f"must be a number {'below' if kind == 'less_than' else 'at most'} {high}"
    words = {
        "int_parsing": "must be a whole number",
        "int_type": "must be a whole number",
        "int_from_float": "must be a whole number",
        "float_parsing": "must be a number",
        "float_type": "must be a number",
        "finite_number": "must be a finite number",
        "string_type": "must be text",
        "bool_type": "must be true or false",
        "bool_parsing": "must be true or false",
        "list_type": "must be a list",
        "model_type": "must be an object",
        "dict_type": "must be an object",
        "model_attributes_type": "must be an object",
    }
    if kind in words:
        return words[kind]
    if kind == "too_long":
        return f"at most {ctx.get('max_length')} items"
    if kind == "string_too_long":
        return f"at most {ctx.get('max_length')} characters"
    if kind == "string_too_short":
        return "must not be empty" if ctx.get("min_length") == 1 else item["msg"].lower()
    return str(item["msg"])


def _argument_names(tool: Tool) -> str:
    return ", ".join(tool.parameters.get("properties", {})) or "no arguments"


def _bounds(schema: dict[str, Any], loc: tuple[Any, ...]) -> tuple[Any, Any]:
    """The minimum and maximum the schema sets for the field at `loc`, where it says."""
    node: dict[str, Any] = schema
    for part in loc:
        if isinstance(part, int):
            node = node.get("items", {})
        else:
            node = node.get("properties", {}).get(part, {})
        node = _resolved(schema, node)
    low = node.get("minimum", node.get("exclusiveMinimum"))
    high = node.get("maximum", node.get("exclusiveMaximum"))
    return low, high


def _resolved(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """`node` with a $ref followed, and an optional's non-null branch taken."""
    if "$ref" in node:
        node = schema.get("$defs", {}).get(node["$ref"].rsplit("/", 1)[-1], {})
    for branch in node.get("anyOf", []):
        if branch.get("type") != "null":
            return _resolved(schema, branch)
    return node
