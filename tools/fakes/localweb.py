"""A local web for tests and benchmarks: a threaded HTTP server on 127.0.0.x.

Nothing here reaches beyond this machine. Routes can be slow, broken, redirecting,
oversized or hidden behind robots.txt, so the fetch and search code is exercised the way
real sites exercise it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class _Server(ThreadingHTTPServer):
    # Eight parallel fetches connect at once; the default backlog of 5 makes some wait.
    request_queue_size = 64
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # clients hang up mid-response on purpose (size caps, timeouts)


@dataclass
class Route:
    body: bytes = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before the response starts: simulated latency
    handler: Callable[[dict[str, list[str]]], tuple[int, str, bytes]] | None = None
    drop_connection: bool = False  # close the socket without answering


class LocalWeb:
    def __init__(self, host: str = "127.0.0.1") -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[str] = []
        web = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                web.requests.append(self.path)
                parts = urlsplit(self.path)
                route = web.routes.get(parts.path)
                if route is None:
                    self._send(404, "text/plain", b"not found", {})
                    return
                if route.delay:
                    time.sleep(route.delay)  # the server is slow on purpose
                if route.drop_connection:
                    self.close_connection = True
                    self.connection.close()
                    return
                if route.handler is not None:
                    status, ctype, body = route.handler(parse_qs(parts.query))
                    self._send(status, ctype, body, route.headers)
                    return
                self._send(route.status, route.content_type, route.body, route.headers)

            def _send(self, status: int, ctype: str, body: bytes, headers: dict) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(body)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = _Server((host, 0), Handler)
        self.host = host
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def url(self, path: str) -> str:
        return self.base + path

    def add(self, path: str, body: str | bytes = b"", **kwargs: object) -> str:
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.routes[path] = Route(body=data, **kwargs)  # type: ignore[arg-type]
        return self.url(path)

    def add_json(self, path: str, payload: object, **kwargs: object) -> str:
        return self.add(
            path, json.dumps(payload).encode(), content_type="application/json", **kwargs
        )

    def add_searxng(self, results_for: Callable[[str], list[dict]], delay: float = 0.0) -> str:
        """Serve a SearXNG-compatible /search endpoint, answering after `delay` seconds.
        Returns the base URL to configure."""

        def handle(query: dict[str, list[str]]) -> tuple[int, str, bytes]:
            q = query.get("q", [""])[0]
            payload = {"query": q, "results": results_for(q)}
            return 200, "application/json", json.dumps(payload).encode()

        self.routes["/search"] = Route(handler=handle, delay=delay)
        return self.base

    def start(self) -> LocalWeb:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
