"""Remote MCP servers as sources: `mcp:kb.search` against a knowledge base the test starts.

The server (tests/fixtures/mcp_kb_server.py) runs as a stdio subprocess, or in this process
over Streamable HTTP on 127.0.0.1. Besides the allowlisted `search` it offers
`delete_everything`, which must never be reachable.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from research import sources
from research.outcomes import Outcome
from research.providers import mcp_client
from research.providers.deadline import Deadline
from research.providers.mcp_client import RemoteFailure, allowlisted_tools, call_tool
from research.providers.mcp_sources import configured_servers, load
from research.providers.search import SourceSpecError, build_provider
from research.store import store_for
from tests.fixtures.mcp_kb_server import DEFAULT_CORPUS, Calls, build_server
from tests.processes import ThreadedServer
from tests.testweb import TestWeb

KB_SCRIPT = Path(__file__).resolve().parents[2] / "fixtures" / "mcp_kb_server.py"
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"


def stdio(namespace: str = "kb", mode: str = "ok", **extra: Any) -> dict[str, Any]:
    env = {"KB_MODE": mode, **extra.pop("env", {})}
    return {
        "namespace": namespace,
        "command": sys.executable,
        "args": [str(KB_SCRIPT)],
        "env": env,
        "allowlist": ["search"],
        **extra,
    }


@pytest.fixture
def configure(tmp_path: Path, settings) -> Callable[..., Path]:
    """Write an MCP sources file with these servers and point MCP_SOURCES_FILE at it."""
    path = tmp_path / "mcp_sources.json"

    def write(*servers: dict[str, Any]) -> Path:
        path.write_text(json.dumps({"servers": list(servers)}), encoding="utf-8")
        settings.MCP_SOURCES_FILE = path
        return path

    return write


@pytest.fixture(autouse=True)
def close_sessions() -> Iterator[None]:
    """Stop the stdio servers a test started, so none outlives it."""
    yield
    mcp_client.close_all()


class HttpKb:
    """The knowledge base over Streamable HTTP, in a thread, behind a Bearer token."""

    def __init__(self, mode: str = "ok", token: str = "s3cret") -> None:
        self.calls = Calls()
        app = build_server(mode=mode, calls=self.calls).streamable_http_app()
        self._server = ThreadedServer(_bearer_required(app, token))

    def start(self) -> HttpKb:
        self.url = f"{self._server.start(timeout=10)}/mcp"
        return self

    def stop(self) -> None:
        mcp_client.close_all()  # end our sessions before the server goes
        self._server.stop(timeout=10)


def _bearer_required(app: Any, token: str) -> Any:
    expected = f"Bearer {token}".encode()

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and dict(scope["headers"]).get(b"authorization") != expected:
            await send({"type": "http.response.start", "status": 401, "headers": []})
            await send({"type": "http.response.body", "body": b"unauthorized"})
            return
        await app(scope, receive, send)

    return guarded


@pytest.fixture
def http_kb() -> Iterator[Callable[..., HttpKb]]:
    started: list[HttpKb] = []

    def start(mode: str = "ok") -> HttpKb:
        kb = HttpKb(mode).start()
        started.append(kb)
        return kb

    yield start
    for kb in started:
        kb.stop()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- hits -----------------------------------------------------------------------------------


def test_a_stdio_knowledge_base_answers_a_search_with_hits(configure):
    configure(stdio())
    result = build_provider("mcp:kb.search").search("Loamdb licence change", 4)
    assert result.outcome is Outcome.OK, result.detail
    assert 1 <= len(result.hits) <= 4
    urls = [hit.url for hit in result.hits]
    assert (
        "https://forum.localfirst.community/t/loamdb-licence-change-should-we-be-worried/1842"
        in urls
    )
    assert all(hit.title and hit.title != hit.url for hit in result.hits)


def test_a_knowledge_base_over_streamable_http_is_searched_with_the_operators_token(
    configure, http_kb, monkeypatch
):
    kb = http_kb()
    monkeypatch.setenv("KB_TEST_TOKEN", "s3cret")
    configure(
        {
            "namespace": "kb",
            "url": kb.url,
            "headers": {"Authorization": "Bearer ${KB_TEST_TOKEN}"},
            "allowlist": ["search"],
        }
    )
    result = build_provider("mcp:kb.search").search("Tessera archived", 5)
    assert result.outcome is Outcome.OK, result.detail
    assert any("tessera" in hit.url for hit in result.hits)
    assert kb.calls.search == ["Tessera archived"]


def test_a_tool_with_other_argument_names_gets_the_query_and_the_limit(configure, http_kb):
    kb = http_kb()
    configure(
        {
            "namespace": "kb",
            "url": kb.url,
            "headers": {"Authorization": "Bearer s3cret"},
            "allowlist": ["search", "find"],
        }
    )
    result = build_provider("mcp:kb.find").search("Loamdb licence", 2)
    assert result.outcome is Outcome.OK, result.detail
    assert len(result.hits) == 2
    assert kb.calls.find == [("Loamdb licence", 2)]


def test_results_sent_as_json_text_are_read_like_structured_ones(configure):
    configure(stdio(mode="text"))
    result = build_provider("mcp:kb.search").search("Quillsync release", 3)
    assert result.outcome is Outcome.OK, result.detail
    assert any("quillsync" in hit.url.lower() for hit in result.hits)


def test_one_connection_serves_every_search_and_a_forked_process_opens_its_own(configure, tmp_path):
    starts = tmp_path / "starts.txt"
    configure(stdio(env={"KB_STARTS": str(starts)}))
    provider = build_provider("mcp:kb.search")
    for query in ("Loamdb licence", "Tessera maintenance", "Quillsync cost"):
        assert provider.search(query, 3).outcome is Outcome.OK
    assert len(starts.read_text().splitlines()) == 1

    # A Celery prefork child inherits the pool of its parent; it must not use it.
    with multiprocessing.get_context("fork").Pool(1) as children:
        outcome = children.apply(_search_in_child, ("Loamdb licence",))
    assert outcome == Outcome.OK.value
    assert len(starts.read_text().splitlines()) == 2


def _search_in_child(query: str) -> str:
    result = build_provider("mcp:kb.search").search(query, 3)
    mcp_client.close_all()
    return result.outcome.value


# --- the allowlist --------------------------------------------------------------------------


def test_tools_off_the_allowlist_are_not_listed_and_never_called(configure, http_kb):
    kb = http_kb()
    configure(
        {
            "namespace": "kb",
            "url": kb.url,
            "headers": {"Authorization": "Bearer s3cret"},
            "allowlist": ["search"],
        }
    )
    server = configured_servers()["kb"]
    assert allowlisted_tools(server, Deadline.after(10)) == ["kb.search"]

    with pytest.raises(SourceSpecError, match=r"kb\.delete_everything is not allowlisted"):
        build_provider("mcp:kb.delete_everything")
    with pytest.raises(RemoteFailure) as refused:
        call_tool(server, "delete_everything", lambda tool: {}, Deadline.after(10))
    assert refused.value.outcome is Outcome.BLOCKED
    assert kb.calls.delete_everything == 0


def test_an_allowlisted_tool_the_server_does_not_offer_is_unavailable(configure):
    configure({**stdio(), "allowlist": ["search", "search_v2"]})
    result = build_provider("mcp:kb.search_v2").search("Loamdb", 3)
    assert result.outcome is Outcome.UNAVAILABLE
    assert "offers no tool 'search_v2'" in result.detail


# --- outcomes -------------------------------------------------------------------------------


def test_a_server_that_cannot_start_is_unavailable_with_the_reason(configure):
    configure(
        {"namespace": "gone", "command": "/nonexistent/kb-server", "allowlist": ["search"]},
        {
            "namespace": "dies",
            "command": sys.executable,
            "args": ["-c", "import sys; sys.exit('kb: index folder /srv/kb is missing')"],
            "allowlist": ["search"],
        },
    )
    gone = build_provider("mcp:gone.search").search("Loamdb", 3)
    assert gone.outcome is Outcome.UNAVAILABLE
    assert "could not start" in gone.detail and "/nonexistent/kb-server" in gone.detail
    dies = build_provider("mcp:dies.search").search("Loamdb", 3)
    assert dies.outcome is Outcome.UNAVAILABLE
    assert "index folder /srv/kb is missing" in dies.detail


def test_a_refused_connection_and_a_wrong_token_are_reported_as_such(configure, http_kb):
    kb = http_kb()
    refused_url = f"http://127.0.0.1:{closed_port()}/mcp"
    configure(
        {"namespace": "down", "url": refused_url, "allowlist": ["search"]},
        {
            "namespace": "kb",
            "url": kb.url,
            "headers": {"Authorization": "Bearer wrong"},
            "allowlist": ["search"],
        },
    )
    down = build_provider("mcp:down.search").search("Loamdb", 3)
    assert down.outcome is Outcome.UNAVAILABLE
    assert "unreachable" in down.detail and refused_url in down.detail
    denied = build_provider("mcp:kb.search").search("Loamdb", 3)
    assert denied.outcome is Outcome.UNAUTHORIZED
    assert "HTTP 401" in denied.detail
    assert kb.calls.search == []


def test_a_server_whose_answer_never_ends_is_refused_at_the_cap(configure, settings):
    from tests.research.providers.servers import EndlessServer

    settings.SEARCH_MAX_BYTES = 100_000
    endless = EndlessServer(prefix=b'{"jsonrpc": "2.0", "id": 0, "result": {"x": "').start()
    configure({"namespace": "flood", "url": f"{endless.base}/mcp", "allowlist": ["search"]})
    try:
        started = time.monotonic()
        result = build_provider("mcp:flood.search").search("Loamdb", 3)
        took = time.monotonic() - started
    finally:
        mcp_client.close_all()
        endless.stop()

    assert result.outcome is Outcome.BLOCKED, result.detail
    assert "answered with more than 100,000 bytes (SEARCH_MAX_BYTES); refused" in result.detail
    assert took < settings.SEARCH_DEADLINE
    assert endless.sent < 20_000_000


def test_a_hanging_tool_and_a_mute_server_time_out_within_the_deadline(configure, settings):
    # Long enough for the test server to start on a busy machine, so that the hanging tool,
    # not the start, is what runs out of time.
    settings.SEARCH_DEADLINE = 8.0
    configure(
        stdio(mode="hang"),
        {"namespace": "mute", "command": "sleep", "args": ["60"], "allowlist": ["search"]},
    )
    for spec, expected in (
        ("mcp:kb.search", "search did not answer within the 8 s deadline"),
        ("mcp:mute.search", "connecting"),
    ):
        started = time.monotonic()
        result = build_provider(spec).search("Loamdb", 3)
        elapsed = time.monotonic() - started
        assert result.outcome is Outcome.TIMEOUT, result.detail
        assert expected in result.detail
        assert 7.9 <= elapsed < 10.0, elapsed  # the deadline, and not much past it


def test_no_results_is_no_hit_and_a_tool_error_is_not(configure):
    configure(stdio("empty", mode="empty"), stdio("broken", mode="error"))
    empty = build_provider("mcp:empty.search").search("Loamdb", 3)
    assert empty.outcome is Outcome.NO_HIT
    assert empty.hits == []
    broken = build_provider("mcp:broken.search").search("Loamdb", 3)
    assert broken.outcome is Outcome.UNAVAILABLE
    assert "reported an error" in broken.detail


# --- configuration --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"servers": [{"namespace": "kb",, }]}', "not valid JSON: .* line 1 column 33"),
        (
            '{"servers": [{"namespace": "kb", "command": "x", "url": "http://a", '
            '"allowlist": ["search"]}]}',
            r"servers\[0\] \(kb\): give either command .* or url",
        ),
        (
            '{"servers": [{"namespace": "kb", "url": "http://a", "allowlist": []}]}',
            r"servers\[0\] \(kb\)\.allowlist: .*at least 1 item",
        ),
        (
            '{"servers": [{"namespace": "kb", "url": "http://a/${KB_UNSET_VAR}", '
            '"allowlist": ["search"]}]}',
            "environment variable KB_UNSET_VAR is not set",
        ),
        (
            '{"servers": [{"namespace": "kb", "command": "a", "allowlist": ["s"]}, '
            '{"namespace": "kb", "command": "b", "allowlist": ["s"]}]}',
            "namespace 'kb' is used twice",
        ),
    ],
)
def test_a_malformed_sources_file_names_the_file_and_the_problem(tmp_path, text, problem):
    path = tmp_path / "mcp_sources.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ImproperlyConfigured, match=rf"^MCP_SOURCES_FILE {re.escape(str(path))}: "):
        load(path)
    with pytest.raises(ImproperlyConfigured, match=problem):
        load(path)


def test_a_malformed_sources_file_stops_start_up(tmp_path):
    path = tmp_path / "mcp_sources.json"
    path.write_text('{"servers": [{"namespace": "kb", "allowlist": ["search"]}]}')
    env = {**os.environ, "MCP_SOURCES_FILE": str(path), "VAR_DIR": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=Path(__file__).resolve().parents[3],
        env={**env, "DJANGO_SETTINGS_MODULE": "research.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last == (
        f"django.core.exceptions.ImproperlyConfigured: MCP_SOURCES_FILE {path}: "
        "servers[0] (kb): give either command (a stdio server) or url (Streamable HTTP)"
    )


def test_a_spec_must_name_a_configured_namespace_and_tool(configure):
    configure(stdio())
    with pytest.raises(SourceSpecError, match=r"no MCP server has namespace 'wiki'.*kb"):
        build_provider("mcp:wiki.search")
    with pytest.raises(SourceSpecError, match=r"NAMESPACE\.TOOL"):
        build_provider("mcp:kb")


def test_operators_name_a_remote_tool_in_sources_and_users_pick_the_name(configure, settings):
    configure(stdio())
    settings.SOURCES = {"kb": "mcp:kb.search"}
    choice = sources.configured_sources()[0]
    assert (choice.name, choice.label) == ("kb", "kb · knowledge base (MCP)")
    assert sources.resolve(["kb"]) == ["mcp:kb.search"]

    settings.SOURCES = {"wipe": "mcp:kb.delete_everything"}
    with pytest.raises(ImproperlyConfigured, match=r"SOURCES: wipe=.*not allowlisted"):
        sources.configured_sources()


# --- end to end -----------------------------------------------------------------------------


@pytest.fixture
def corpus_web(testweb: TestWeb, allow_loopback) -> TestWeb:
    """The knowledge base's pages, served where its results link to."""
    for page in DEFAULT_CORPUS.glob("*.html"):
        testweb.add(f"/{page.name}", page.read_bytes())
    return testweb


@pytest.mark.django_db
def test_a_research_run_from_the_command_line_reads_the_remote_knowledge_base(
    configure, corpus_web, tmp_path, django_user_model
):
    django_user_model.objects.create_superuser("root", password="x" * 12)
    starts = tmp_path / "starts.txt"
    configure(stdio(env={"KB_BASE_URL": corpus_web.base, "KB_STARTS": str(starts)}))

    out = io.StringIO()
    call_command("research", QUESTION, "--source", "mcp:kb.search", stdout=out, no_color=True)
    output = out.getvalue()

    run_id = re.search(r"^Run (\w+): ", output, re.MULTILINE).group(1)  # type: ignore[union-attr]
    store = store_for(run_id)
    candidates = store.read_json("round_1_candidates.json")
    assert candidates["candidates"], output
    assert {c["provider"] for c in candidates["candidates"]} == {"mcp:kb.search"}
    assert all(c["url"].startswith(corpus_web.base) for c in candidates["candidates"])
    assert set(store.index()["provider_outcomes"]["retrieve"]["mcp:kb.search"]) == {"OK"}
    notes = store.read_json("round_3_notes.json")
    read = [s for s in notes["sources"] if s["status"] == "OK"]
    assert read and all(s["url"].startswith(corpus_web.base) for s in read)
    # Every page comes from the one local test host, which is one site: the run reads and
    # scores them, and says it will not recommend on a single site's word.
    assert re.search(r"^No recommendation: \w+ scores best, but all of its evidence", output, re.M)
    decision = store.read_json("round_5_decision.json")
    assert decision["ranking"][0]["total"] is not None
    assert len(starts.read_text().splitlines()) == 1  # one server for every search


# --- what a remote tool sends back ------------------------------------------------------------


def _answer(results: Any) -> Any:
    from mcp_types import CallToolResult, TextContent

    return CallToolResult(content=[TextContent(type="text", text="")], structured_content=results)


def test_results_without_a_readable_web_address_never_become_candidates():
    from research.providers.search.mcp_remote import _parse

    good = {"url": "https://kb.example/loamdb-licence", "title": "Loamdb licence"}
    junk = [
        {"url": "javascript:alert(1)", "title": "click"},
        {"url": "http://[::1", "title": "broken IPv6"},
        {"url": "https://kb.example:99999/", "title": "port out of range"},
        {"url": "https://user:secret@kb.example/", "title": "credentials"},
        {"url": "http://", "title": "no host"},
        {"url": "https://kb.example/a b\n", "title": "whitespace inside"},
        {"url": "https://kb.example/" + "a" * 5000, "title": "too long"},
        {"url": ["https://kb.example/"], "title": "nested"},
        "https://kb.example/bare-string",
    ]
    result = _parse(_answer({"results": [*junk, good]}), 10, "kb.search")
    assert result.outcome is Outcome.OK
    assert [h.url for h in result.hits] == [good["url"]]

    only_junk = _parse(_answer({"results": junk}), 10, "kb.search")
    assert only_junk.outcome is Outcome.UNAVAILABLE and only_junk.hits == []


def test_a_remote_result_upper_case_scheme_is_read_and_its_text_kept_short():
    from research.providers.search.mcp_remote import _parse

    item = {"url": "HTTPS://kb.example/x", "title": "t" * 10_000, "snippet": "s" * 100_000}
    result = _parse(_answer([item]), 10, "kb.search")
    assert result.outcome is Outcome.OK
    (hit,) = result.hits
    assert hit.url == "HTTPS://kb.example/x"
    assert len(hit.title) <= 300 and len(hit.snippet) <= 2_000
