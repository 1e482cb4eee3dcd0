"""An OpenAI-compatible chat-completions endpoint on 127.0.0.1, for tests and `manage.py
bench --llm`.

Each request takes the next scripted Reply (or the default one): an answer, an error
status, a delay, a cut-off answer, an answer without `usage`. The stub records every
request, counts the tokens it reports (research.llm.budget's estimate: about four
characters a token, one per CJK character) and the most requests it ever had in flight at
once. Nothing leaves the machine.

`schema_answer` (tools.fakes.schema_answers) makes a generic answer for any request: valid
for the request's JSON Schema and built from its data (ids, options and quotes echoed back),
so every stage's call succeeds without the stub knowing the stage. The benchmark uses it to
measure what a whole run costs in tokens.
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
from tools.fakes.schema_answers import Body


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
