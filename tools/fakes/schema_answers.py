"""A generic answer for any request the stub is sent: JSON that validates against the
request's schema (sent as response_format, or written into the prompt), filled from the
request's own data, so that every stage gets a usable answer whatever it asks."""

from __future__ import annotations

import json
from typing import Any

Body = dict[str, Any]


_SCHEMA_IN_PROMPT = "It must match this JSON Schema:\n"
_FILLER = "generic answer"
_SHORT = 40  # characters: strings this short are names and ids, joined into free text


def schema_answer(body: Body) -> str:
    """A JSON answer that validates against the request's schema, built from its data.

    The schema is the request's `response_format.json_schema`, or the one a json_object
    request carries at the end of its system message. Every field is filled from the first
    user message (parsed as JSON), matched by name:

    - a list of objects gets one item per object in the data list of the same name, or else
      in the data's first list of objects (an answer's `judgements` for the `candidates`
      sent), each item filled from its object (its `id` echoed); without any, one item per
      entry of the data's first list of names (an answer's `queries` for the `options`);
    - a field the data has is echoed; `option` takes the i-th of the data's `options`;
      `quote` takes the object's `quote`, `text` or `sentence`; a list of ids takes the ids of
      the first two objects in the data's list of objects;
    - other text joins the item's short strings ("Quillsync licence"); a number is the
      middle of its bounds (0 without), a boolean true, an enum its first value.
    """
    schema = request_schema(body)
    if schema is None:
        return "{}"
    return json.dumps(_Filler(schema).fill(schema, _user_data(body), None, 0), ensure_ascii=False)


def request_schema(body: Body) -> Body | None:
    response_format = body.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        return (response_format.get("json_schema") or {}).get("schema")
    system = next((m.get("content") or "" for m in body.get("messages", [])), "")
    if _SCHEMA_IN_PROMPT not in system:
        return None
    try:
        return json.loads(system.rsplit(_SCHEMA_IN_PROMPT, 1)[1])
    except ValueError:
        return None


def _user_data(body: Body) -> Body:
    text = next((m.get("content") or "" for m in body["messages"] if m["role"] == "user"), "")
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {"items": data}


class _Free:
    """A text field nothing in the data names: filled once the item's other fields are."""


_FREE = _Free()


class _Filler:
    def __init__(self, schema: Body) -> None:
        self.defs: Body = schema.get("$defs") or {}

    def resolve(self, node: Body) -> Body:
        while "$ref" in node:
            node = self.defs[node["$ref"].rsplit("/", 1)[-1]]
        return node

    def fill(self, node: Body, data: Body, name: str | None, i: int) -> Any:
        node = self.resolve(node)
        if "anyOf" in node:
            branches = [self.resolve(b) for b in node["anyOf"]]
            nullable = any(b.get("type") == "null" for b in branches)
            if nullable and name is not None and name in data and data[name] is None:
                return None
            usable = [b for b in branches if b.get("type") != "null"]
            return self.fill(usable[0], data, name, i) if usable else None
        if "const" in node:
            return node["const"]
        if "enum" in node:
            echoed = data.get(name) if name else None
            return echoed if echoed in node["enum"] else node["enum"][0]
        kind = node.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind == "object":
            return self._object(node, data, i)
        if kind == "array":
            return self._array(node, data, name)
        if kind in ("integer", "number"):
            return self._number(node, data, name, kind)
        if kind == "boolean":
            echoed = data.get(name) if name else None
            return echoed if isinstance(echoed, bool) else True
        if kind == "string":
            found = _text_from(data, name, i)
            return _FILLER if found is None else found
        return None

    def _object(self, node: Body, data: Body, i: int) -> Body:
        properties: Body = node.get("properties") or {}
        out: Body = {}
        for key, sub in properties.items():
            resolved = self.resolve(sub)
            if resolved.get("type") == "string" and _text_from(data, key, i) is None:
                out[key] = _FREE
            else:
                out[key] = self.fill(sub, data, key, i)
        names = [v for v in out.values() if isinstance(v, str) and 0 < len(v) <= _SHORT]
        free = " ".join(names) or _FILLER
        return {key: free if value is _FREE else value for key, value in out.items()}

    def _array(self, node: Body, data: Body, name: str | None) -> list[Any]:
        items = self.resolve(node.get("items") or {})
        most = node.get("maxItems")
        kind = items.get("type")
        echoed = data.get(name) if name else None
        if kind == "object" or "properties" in items:
            rows = _rows(data, name)
            if rows:
                made = [self.fill(items, row, None, j) for j, row in enumerate(rows)]
            else:
                count = max(1, len(_first_names(data)))
                made = [self.fill(items, data, None, j) for j in range(count)]
        elif isinstance(echoed, list) and all(_scalar_of(kind, v) for v in echoed):
            made = list(echoed)
        elif kind == "integer" or (kind == "string" and (name or "").lower().endswith("ids")):
            made = [v for v in _row_ids(data) if _scalar_of(kind, v)][:2]
        else:
            made = []
        least = node.get("minItems") or 0
        while len(made) < least:
            made.append(self.fill(items, data, None, len(made)))
        return made[:most] if most is not None else made

    def _number(self, node: Body, data: Body, name: str | None, kind: str) -> float | int:
        echoed = data.get(name) if name else None
        low = node.get("minimum", node.get("exclusiveMinimum"))
        high = node.get("maximum", node.get("exclusiveMaximum"))
        above = low is None or (_scalar_of(kind, echoed) and echoed >= low)
        below = high is None or (_scalar_of(kind, echoed) and echoed <= high)
        if _scalar_of(kind, echoed) and above and below:
            return echoed
        if low is not None and high is not None:
            middle = (low + high) / 2
        else:
            middle = low if low is not None else min(0, high if high is not None else 0)
        return int(middle) if kind == "integer" else float(middle)


def _scalar_of(kind: str | None, value: Any) -> bool:
    if isinstance(value, bool):
        return kind == "boolean"
    if kind == "integer":
        return isinstance(value, int)
    if kind == "number":
        return isinstance(value, int | float)
    if kind == "string":
        return isinstance(value, str)
    return False


def _text_from(data: Body, name: str | None, i: int) -> str | None:
    """The data's own text for field `name` of the i-th item, or None."""
    if name is None:
        return None
    value = data.get(name)
    if isinstance(value, str):
        return value
    for plural in (f"{name}s", f"{name}es"):
        values = [v for v in data.get(plural) or [] if isinstance(v, str)]
        if values:
            return values[i % len(values)]
    if name == "quote":
        return next((data[k] for k in ("text", "sentence") if isinstance(data.get(k), str)), None)
    return None


def _rows(data: Body, name: str | None) -> list[Body]:
    """The data's objects an answer list is made of: the list of its own name, or the first."""
    own = data.get(name) if name else None
    if _objects(own):
        return own
    return next((v for v in data.values() if _objects(v)), [])


def _objects(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _first_names(data: Body) -> list[str]:
    return next(
        (v for v in data.values() if isinstance(v, list) and v and isinstance(v[0], str)), []
    )


def _row_ids(data: Body) -> list[Any]:
    """The ids of the data's first list of objects: its `id`, `n` or `index` fields."""
    ids = []
    for row in _rows(data, None):
        key = next((k for k in ("id", "n", "index") if k in row), None)
        if key is not None:
            ids.append(row[key])
    return ids
