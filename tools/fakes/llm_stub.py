"""An OpenAI-compatible chat-completions endpoint on 127.0.0.1, for tests and `manage.py
bench --llm`.

Each request takes the next scripted Reply (or the default one): an answer, an error
status, a delay, a cut-off answer, an answer without `usage`. The stub records every
request, counts the tokens it reports (research.llm.budget's estimate: about four
characters a token, one per CJK character) and the most requests it ever had in flight at
once. Nothing leaves the machine.

`schema_answer` makes a generic answer for any request: valid for the request's JSON
Schema and built from its data (ids, options and quotes echoed back), so every stage's
call succeeds without the stub knowing the stage. The benchmark uses it to measure what a
whole run costs in tokens.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from research.llm.budget import estimate_tokens

Body = dict[str, Any]


@dataclass
class Reply:
    content: str | Callable[[Body], str] | None = None  # the answer, or made from the request
    status: int = 200
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering
    usage: bool = True  # report prompt and completion tokens
    error: str = "scripted error"  # the message of a non-200 reply
    # The whole 200 body as sent, instead of a completion made from `content`: for answers
    # shaped unlike OpenAI's (content parts, reasoning_content, no choices). Counts no tokens.
    raw: Any = None


def answer(payload: Any, **options: Any) -> Reply:
    """A reply whose content is `payload` as JSON."""
    return Reply(content=json.dumps(payload, ensure_ascii=False), **options)


@dataclass
class Received:
    body: Body
    headers: dict[str, str]  # names lower-cased
    at: float  # time.monotonic() when it arrived

    @property
    def messages(self) -> list[dict[str, str]]:
        return self.body["messages"]

    @property
    def format(self) -> str:
        return (self.body.get("response_format") or {}).get("type", "")

    @property
    def user(self) -> Body:
        """The first user message, parsed as JSON."""
        return json.loads(next(m["content"] for m in self.messages if m["role"] == "user"))


def count_tokens(text: str) -> int:
    return estimate_tokens(text)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients hang up on purpose (timeouts)


class LLMStub:
    __test__ = False

    def __init__(self, *, reject_json_schema: bool = False) -> None:
        self.replies: deque[Reply] = deque()
        self.default: Reply | None = None
        self.reject_json_schema = reject_json_schema
        self.requests: list[Received] = []
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.max_in_flight = 0
        self._in_flight = 0
        self._lock = threading.Lock()
        self._server: _Server | None = None

    def script(self, *replies: Reply) -> LLMStub:
        self.replies.extend(replies)
        return self

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start the stub first"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def start(self) -> LLMStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, extra, payload = stub._answer(self.path, body, headers)
                data = json.dumps(payload).encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in extra.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _answer(self, path: str, body: Body, headers: dict[str, str]) -> tuple[int, dict, Any]:
        with self._lock:
            self.requests.append(Received(body, headers, time.monotonic()))
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            return self._reply(path, body)
        finally:
            with self._lock:
                self._in_flight -= 1

    def _reply(self, path: str, body: Body) -> tuple[int, dict, Any]:
        if path != "/v1/chat/completions":
            return 404, {}, {"error": {"message": f"no route {path}"}}
        response_format = (body.get("response_format") or {}).get("type")
        if self.reject_json_schema and response_format == "json_schema":
            return 400, {}, {"error": {"message": "response_format json_schema is unsupported"}}
        with self._lock:
            reply = self.replies.popleft() if self.replies else self.default
        if reply is None:
            return 500, {}, {"error": {"message": "the stub has no reply scripted"}}
        if reply.delay:
            time.sleep(reply.delay)
        if reply.status != 200:
            return reply.status, reply.headers, {"error": {"message": reply.error}}
        if reply.raw is not None:
            return 200, reply.headers, reply.raw
        content = reply.content(body) if callable(reply.content) else reply.content
        completion = {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "model": body.get("model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": reply.finish_reason,
                }
            ],
        }
        if reply.usage:
            prompt = sum(count_tokens(m.get("content") or "") for m in body["messages"])
            made = count_tokens(content or "")
            with self._lock:
                self.prompt_tokens += prompt
                self.completion_tokens += made
            completion["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": made,
                "total_tokens": prompt + made,
            }
        return 200, reply.headers, completion


# --- a generic answer for any request ---------------------------------------------------------

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
