"""Real answers of the services, recorded by other public projects, served again on
127.0.0.1 under each service's path prefix, as PRIMARY_URLS expects.

The recordings live beside the project, in ../shared/api-recordings (SOURCES.md there says
where each came from); they are read at test time, never copied into the repository, and
the tests that need them are skipped, saying why, where that folder is absent.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest
from django.conf import settings

RECORDINGS = Path(settings.BASE_DIR).parent / "shared" / "api-recordings"

needs_recordings = pytest.mark.skipif(
    not RECORDINGS.is_dir(),
    reason=f"the services' recorded answers are not here ({RECORDINGS}); see SOURCES.md",
)

JSON = "application/json; charset=utf-8"
ATOM = "application/atom+xml; charset=utf-8"
NOT_FOUND = (404, JSON, b'{"message": "Not Found"}')


def recording(service: str, name: str) -> bytes:
    return (RECORDINGS / service / name).read_bytes()


@dataclass(frozen=True)
class Asked:
    service: str
    path: str  # below the service's prefix, percent-decoded
    query: dict[str, str]


# What one request gets: (status, content type, body), or with headers as a fourth part.
Reply = tuple[int, str, bytes] | tuple[int, str, bytes, dict[str, str]]
Route = Callable[[Asked], Reply | None]


def file_route(service: str, files: dict[str, str], status: int = 200) -> Route:
    """Serve `files[path]` (a recording's file name) for each path it names."""

    def route(asked: Asked) -> Reply | None:
        name = files.get(asked.path)
        return (status, JSON, recording(service, name)) if name else None

    return route


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass


@dataclass
class RecordedServices:
    """One local server answering with recordings; a request no route takes gets 404."""

    routes: dict[str, list[Route]] = field(default_factory=dict)
    asked: list[Asked] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._server = _Server(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,))
        self._thread.daemon = True

    def route(self, service: str, route: Route) -> RecordedServices:
        self.routes.setdefault(service, []).append(route)
        return self

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def urls(self) -> dict[str, str]:
        services = (
            "github pypi npm crates wikipedia-en wikipedia-zh wikidata arxiv europepmc "
            "clinicaltrials"
        ).split()
        return {service: f"{self.base}/{service}" for service in services}

    def start(self) -> RecordedServices:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, asked: Asked) -> Reply:
        self.asked.append(asked)
        for route in self.routes.get(asked.service, []):
            reply = route(asked)
            if reply is not None:
                return reply
        return NOT_FOUND

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        services = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                service, _, rest = parts.path.lstrip("/").partition("/")
                query = dict(parse_qsl(parts.query, keep_blank_values=True))
                status, content_type, body, *more = services.answer(
                    Asked(service, "/" + unquote(rest), query)
                )
                self.send_response(status)
                for name, value in (more[0] if more else {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler


# --- the package indexes, as recorded -----------------------------------------------------

PYPI = {
    "/pypi/luigi/json": "pypi_response_luigi.json",
    "/pypi/pendulum/json": "pypi_response_pendulum.json",
    "/pypi/celery/json": "pypi_response_extras.json",  # celery 4.4.0, recorded 2019-12-19
    "/pypi/psycopg2/json": "pypi_response_no_source.json",
}


def pypi_route() -> Route:
    return file_route("pypi", PYPI)


def wrapped_route(service: str, pick: Callable[[Asked], str | None], content_type: str) -> Route:
    """Recordings stored as {url, status_code, body}: served with their own status."""

    def route(asked: Asked) -> Reply | None:
        name = pick(asked)
        if name is None:
            return None
        wrapped = json.loads(recording(service, name))
        return wrapped["status_code"], content_type, wrapped["body"].encode("utf-8")

    return route
