"""From a model's answer text to a validated pydantic object, or the reason it is not one.

Models wrap their JSON: reasoning models put `<think>...</think>` before it (some servers
drop the opening tag, and a cut-off answer never closes it), chat models put it in
```json fences or after a sentence. All of that is peeled off before the JSON is read;
nothing else about the answer is repaired here. A wrong answer goes back to the model once
(research.llm.client) and is then given up on.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)

_THINK = re.compile(r"\s*<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_CLOSE_THINK = re.compile(r"</think>", re.IGNORECASE)
_OPEN_THINK = re.compile(r"^\s*<think>", re.IGNORECASE)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
# Where to look for an object inside prose: enough for any answer a stage asks for.
_MAX_STARTS = 200


class InvalidAnswer(ValueError):
    """The answer cannot be used; the message says why, in words the model can act on."""


def unwrap(text: str) -> str:
    """The answer without reasoning blocks and code fences.

    Reasoning comes first, so only blocks at the start are thinking, and an answer that is
    a JSON object from its first character has none: tags or fences after that are inside
    its strings (a quote from a page about reasoning models or shell commands) and stay."""
    text = text.strip()
    thought = False
    while block := _THINK.match(text):
        text, thought = text[block.end() :].lstrip(), True
    if not thought and not text.startswith("{"):
        close = _CLOSE_THINK.search(text)
        if close:  # the server ate the opening tag: everything before the close is thinking
            text = text[close.end() :]
        text = _OPEN_THINK.sub("", text)  # never closed: what follows may still hold the JSON
    text = text.strip()
    fence = None if text.startswith("{") else _FENCE.search(text)
    if fence:
        text = fence.group(1)
    return text.strip()


def load_json(text: str) -> Any:
    """The JSON object in `text`: the whole text, or the object that ends it, or the first."""
    # RecursionError: a model looping on "[[[[" nests deeper than the decoder will follow.
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        error = exc
    decoder = json.JSONDecoder()
    first: Any = None
    for count, match in enumerate(re.finditer(r"\{", text)):
        if count >= _MAX_STARTS:
            break
        try:
            value, end = decoder.raw_decode(text, match.start())
        except (ValueError, RecursionError):
            continue
        if not isinstance(value, dict):
            continue
        if not text[end:].strip():
            return value
        if first is None:
            first = value
    if first is not None:
        return first
    raise InvalidAnswer(f"it is not valid JSON ({error})")


def parse_answer(text: str | None, finish_reason: str | None, schema: type[M]) -> M:
    """Validate one answer against `schema`; raises InvalidAnswer with the reason."""
    if finish_reason == "length":
        raise InvalidAnswer(
            "it was cut off at its token limit before the JSON was complete; answer shorter"
        )
    body = unwrap(text or "")
    if not body:
        raise InvalidAnswer("it held no JSON object")
    data = load_json(body)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise InvalidAnswer(f"it does not match the schema: {_errors(exc)}") from None


def _errors(exc: ValidationError, limit: int = 5) -> str:
    parts = []
    for error in exc.errors()[:limit]:
        where = ".".join(str(p) for p in error["loc"]) or "the object"
        parts.append(f"{where}: {error['msg']}")
    more = len(exc.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def strict_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema in the form strict structured outputs accept: every object
    closed (additionalProperties false) with all its properties required, and no defaults."""
    document = schema.model_json_schema()
    _close(document)
    return document


def _close(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _close(item)
        return
    if not isinstance(node, dict):
        return
    node.pop("default", None)
    properties = node.get("properties")
    if isinstance(properties, dict):
        node["additionalProperties"] = False
        node["required"] = list(properties)
        for sub in properties.values():
            _close(sub)
    for key in ("items", "anyOf", "oneOf", "allOf"):
        if key in node:
            _close(node[key])
    for sub in (node.get("$defs") or {}).values():
        _close(sub)
