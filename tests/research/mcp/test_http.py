"""MCP over Streamable HTTP at /mcp: the real ASGI app under uvicorn on 127.0.0.1, driven by
the SDK's streamable HTTP client and by plain HTTP requests."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

import anyio
import httpx
import pytest
from asgiref.sync import sync_to_async
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from research import services
from research.artifacts import Question
from research.models import ApiToken, token_digest
from research.store import store_for
from tests.processes import ThreadedServer
from tools.bench.question_reading import shaped

pytestmark = pytest.mark.django_db(transaction=True)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
ACCEPT = "application/json, text/event-stream"


@pytest.fixture
def serve() -> Iterator[Callable[..., str]]:
    """Start research.asgi:application under uvicorn in a thread; returns its base URL."""
    from research.asgi import application

    servers: list[ThreadedServer] = []

    def start(lifespan: str = "on") -> str:
        servers.append(ThreadedServer(application, lifespan=lifespan))
        return servers[-1].start()

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def url(serve) -> str:
    return serve()


def make_run(owner, question: str, report: str | None = None):
    run = services.create_run(
        Question(question=question, options=["Quillsync", "Loamdb"], sources=[]), owner=owner
    )
    if report is not None:
        store_for(run.run_id).write_text("report.md", report)
    return run


def client(url: str, secret: str, mode: str = "legacy", **headers: str) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {secret}", **headers})
    return Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode)


def post(url: str, message: dict, secret: str | None = None, **headers: str) -> httpx.Response:
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    headers = {"Accept": ACCEPT, "Content-Type": "application/json", **headers}
    return httpx.post(f"{url}/mcp", json=message, headers=headers, timeout=15)


def sse_messages(response: httpx.Response) -> list[dict]:
    if response.headers["content-type"].startswith("application/json"):
        return [response.json()]
    return [
        json.loads(line.removeprefix("data:"))
        for line in response.text.splitlines()
        if line.startswith("data:") and line.strip() != "data:"
    ]


def mcp_error(exc: BaseException) -> MCPError | None:
    """The MCPError in `exc`, which the SDK's task groups may have wrapped in groups."""
    if isinstance(exc, MCPError):
        return exc
    for inner in getattr(exc, "exceptions", ()):
        if found := mcp_error(inner):
            return found
    return None


def call_tool(name: str, arguments: dict, rid: int = 7) -> dict:
    return {
        "jsonrpc": "2.0",
        "id": rid,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


# --- what a client with a token can do ----------------------------------------------------


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_token_acts_for_its_user_over_http(url, ada, bob, mode):
    mine = make_run(ada, "Quillsync vs Loamdb", report="# Report\n\nChoose Quillsync.\n")
    theirs = make_run(bob, "Theirs vs ours")
    token, secret = ApiToken.issue(ada, "laptop")
    assert token.last_used is None

    async def main():
        async with client(url, secret, mode=mode) as session:
            tools = {t.name for t in (await session.list_tools()).tools}
            templates = await session.list_resource_templates()
            runs = json.loads((await session.read_resource("research://runs")).contents[0].text)
            own = await session.call_tool("get_run_status", {"run_id": mine.run_id})
            foreign = await session.call_tool("get_run_status", {"run_id": theirs.run_id})
            report = await session.read_resource(f"research://runs/{mine.run_id}/report.md")
            return tools, templates, runs, own, foreign, report

    tools, templates, runs, own, foreign, report = anyio.run(main)
    assert {"start_research", "get_run_status", "get_report", "read_dataset"} <= tools
    assert any(t.uri_template.endswith("/report.md") for t in templates.resource_templates)
    assert [r["run_id"] for r in runs["runs"]] == [mine.run_id]
    assert not own.is_error
    assert own.structured_content["question"] == "Quillsync vs Loamdb"
    assert foreign.is_error
    assert foreign.structured_content["status"] == "NO_HIT"
    assert "Theirs" not in json.dumps(foreign.structured_content)
    assert "Choose Quillsync" in report.contents[0].text
    token.refresh_from_db()
    assert token.last_used is not None


def test_the_web_pages_are_served_by_the_same_server(url):
    response = httpx.get(f"{url}/accounts/login/", timeout=15)
    assert response.status_code == 200
    assert 'name="username"' in response.text


# --- who may not ----------------------------------------------------------------------------


def test_a_request_without_a_token_gets_401_with_a_bearer_challenge(url, ada):
    response = post(url, INITIALIZE)
    assert response.status_code == 401
    metadata = f"{url}/.well-known/oauth-protected-resource/mcp"
    assert response.headers["www-authenticate"] == (
        f'Bearer realm="verdict", resource_metadata="{metadata}", scope="mcp"'
    )
    error = response.json()["error"]
    assert "Authorization: Bearer" in error["message"]
    assert error["data"]["outcome"] == "UNAUTHORIZED"
    assert "Traceback" not in response.text
    basic = post(url, INITIALIZE, Authorization="Basic YWRhOnBhc3N3b3Jk")
    assert basic.status_code == 401


def test_a_wrong_token_gets_401_and_the_client_says_why(url, ada):
    ApiToken.issue(ada, "laptop")
    response = post(url, INITIALIZE, secret="vdt_" + "x" * 43)
    assert response.status_code == 401
    assert 'error="invalid_token"' in response.headers["www-authenticate"]
    assert "not valid" in response.json()["error"]["message"]

    async def main():
        with pytest.raises((MCPError, ExceptionGroup)) as caught:
            async with client(url, "vdt_wrong"):
                pass
        return mcp_error(caught.value)

    assert "This API token is not valid" in str(anyio.run(main))


def test_a_disabled_account_s_token_no_longer_works(url, ada):
    _, secret = ApiToken.issue(ada, "laptop")
    assert post(url, INITIALIZE, secret=secret).status_code == 200
    ada.is_active = False
    ada.save()
    assert post(url, INITIALIZE, secret=secret).status_code == 401


def test_a_revoked_token_stops_working_at_once(url, ada):
    run = make_run(ada, "Quillsync vs Loamdb")
    token, secret = ApiToken.issue(ada, "laptop")

    async def main():
        async with client(url, secret, mode="legacy") as session:
            before = await session.call_tool("get_run_status", {"run_id": run.run_id})
            await sync_to_async(token.delete)()
            with pytest.raises(MCPError) as caught:
                await session.call_tool("get_run_status", {"run_id": run.run_id})
            return before, caught.value

    before, error = anyio.run(main)
    assert not before.is_error
    assert "not valid" in str(error)
    assert post(url, INITIALIZE, secret=secret).status_code == 401


def test_a_page_on_another_origin_gets_403(url, ada, settings):
    _, secret = ApiToken.issue(ada, "laptop")
    foreign = post(url, INITIALIZE, secret=secret, Origin="http://evil.example")
    assert foreign.status_code == 403
    assert "MCP_ALLOWED_ORIGINS" in foreign.json()["error"]["message"]
    assert "Traceback" not in foreign.text
    # A foreign origin is refused before the token is even looked at.
    assert post(url, INITIALIZE, Origin="http://evil.example").status_code == 403
    assert post(url, INITIALIZE, secret=secret, Origin=url).status_code == 200
    # Same host, other port: another origin.
    other_port = url.rsplit(":", 1)[0] + ":1"
    assert post(url, INITIALIZE, secret=secret, Origin=other_port).status_code == 403
    assert post(url, INITIALIZE, secret=secret, Origin="null").status_code == 403
    settings.MCP_ALLOWED_ORIGINS = ["https://tools.example.com"]
    listed = post(url, INITIALIZE, secret=secret, Origin="https://tools.example.com")
    assert listed.status_code == 200


def test_a_host_this_server_does_not_answer_to_is_refused(url, ada):
    """DNS rebinding: a page on evil.example whose name now points at 127.0.0.1 sends Host
    evil.example and Origin http://evil.example, which would look like the server's own."""
    _, secret = ApiToken.issue(ada, "laptop")
    response = post(
        url, INITIALIZE, secret=secret, Host="evil.example", Origin="http://evil.example"
    )
    assert response.status_code == 421
    assert "ALLOWED_HOSTS" in response.json()["error"]["message"]


# --- the rate limit -----------------------------------------------------------------------


def test_tool_calls_past_the_rate_limit_are_refused_with_rate_limited(url, ada, settings):
    settings.MCP_RATE_LIMIT = 3
    run = make_run(ada, "Quillsync vs Loamdb")
    _, secret = ApiToken.issue(ada, "laptop")
    _, other = ApiToken.issue(ada, "desktop")

    async def main():
        async with client(url, secret) as session:
            results = [
                await session.call_tool("get_run_status", {"run_id": run.run_id}) for _ in range(3)
            ]
            with pytest.raises(MCPError) as caught:
                await session.call_tool("get_run_status", {"run_id": run.run_id})
            listed = await session.list_tools()  # not a tool call: still answered
        async with client(url, other) as session:
            elsewhere = await session.call_tool("get_run_status", {"run_id": run.run_id})
        return results, caught.value, listed, elsewhere

    results, error, listed, elsewhere = anyio.run(main)
    assert not any(r.is_error for r in results)
    assert "RATE_LIMITED" in str(error)
    assert "3 tool calls in the last minute" in str(error)
    assert listed.tools
    assert not elsewhere.is_error  # the limit is per token

    refused = post(url, call_tool("get_run_status", {"run_id": run.run_id}), secret=secret)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    body = refused.json()
    assert body["id"] == 7
    assert body["error"]["data"]["outcome"] == "RATE_LIMITED"
    assert f"Try again in {refused.headers['retry-after']} s" in body["error"]["message"]


def test_a_batch_the_server_refuses_uses_none_of_the_rate_limit(url, ada, settings):
    settings.MCP_RATE_LIMIT = 3
    run = make_run(ada, "Quillsync vs Loamdb")
    _, secret = ApiToken.issue(ada, "laptop")
    batch = [call_tool("get_run_status", {"run_id": run.run_id}, rid=n) for n in range(5)]
    headers = {"Authorization": f"Bearer {secret}", "Accept": ACCEPT}
    refused = httpx.post(f"{url}/mcp", json=batch, headers=headers, timeout=15)
    assert refused.status_code == 400  # no revision takes batches: nothing was run

    async def main():
        async with client(url, secret) as session:
            return [
                await session.call_tool("get_run_status", {"run_id": run.run_id}) for _ in range(3)
            ]

    assert not any(result.is_error for result in anyio.run(main))


def test_a_deeply_nested_body_is_a_parse_error_not_a_server_error(url, ada):
    _, secret = ApiToken.issue(ada, "laptop")
    headers = {
        "Authorization": f"Bearer {secret}",
        "Accept": ACCEPT,
        "Content-Type": "application/json",
    }
    body = "[" * 200_000 + "]" * 200_000
    response = httpx.post(f"{url}/mcp", content=body, headers=headers, timeout=15)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == -32700  # parse error


# --- sessions -------------------------------------------------------------------------------


def test_a_session_is_kept_streamed_with_get_and_ended_with_delete(url, ada, bob):
    _, secret = ApiToken.issue(ada, "laptop")
    _, second = ApiToken.issue(ada, "desktop")
    _, bobs = ApiToken.issue(bob, "bob's")
    opened = post(url, INITIALIZE, secret=secret)
    assert opened.status_code == 200
    session = opened.headers["mcp-session-id"]
    assert sse_messages(opened)[0]["result"]["serverInfo"]["name"] == "verdict"
    in_session = {"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert post(url, initialized, secret=secret, **in_session).status_code == 202

    listed = post(url, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, secret, **in_session)
    assert listed.status_code == 200
    assert any(t["name"] == "get_report" for t in sse_messages(listed)[0]["result"]["tools"])

    stream_headers = {"Authorization": f"Bearer {secret}", "Accept": "text/event-stream"}
    with httpx.stream("GET", f"{url}/mcp", headers={**stream_headers, **in_session}) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")

    # The session belongs to the token that opened it: not to another, even of the same user.
    tools_list = {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}
    assert post(url, tools_list, secret=second, **in_session).status_code == 404
    assert post(url, tools_list, secret=bobs, **in_session).status_code == 404

    ended = httpx.delete(
        f"{url}/mcp", headers={"Authorization": f"Bearer {secret}", **in_session}, timeout=15
    )
    assert ended.status_code == 200
    assert post(url, tools_list, secret=secret, **in_session).status_code == 404


def test_without_the_lifespan_the_endpoint_says_how_to_run_it(serve, ada):
    url = serve(lifespan="off")
    _, secret = ApiToken.issue(ada, "laptop")
    response = post(url, INITIALIZE, secret=secret)
    assert response.status_code == 503
    assert "--lifespan on" in response.json()["error"]["message"]


def test_only_the_token_s_fingerprint_is_stored(ada):
    token, secret = ApiToken.issue(ada, "laptop")
    token.refresh_from_db()
    stored = [str(v) for v in ApiToken.objects.filter(pk=token.pk).values().get().values()]
    assert secret not in stored
    assert token.digest == token_digest(secret)
    assert secret.startswith(token.prefix)
    assert len(secret) >= 40
    assert ApiToken.find(secret) == token
    assert ApiToken.find(secret[:-1]) is None


def test_a_user_whose_sessions_cannot_start_gets_503_and_others_carry_on(
    url, ada, bob, monkeypatch
):
    from contextlib import asynccontextmanager

    from mcp.server.mcpserver import MCPServer

    from research.mcp import http

    @asynccontextmanager
    async def broken(_server):
        raise RuntimeError("the event listener cannot start")
        yield {}

    real = http.build_server
    monkeypatch.setattr(
        http,
        "build_server",
        lambda user: MCPServer(name="broken", lifespan=broken) if user == bob else real(user),
    )
    _, bobs = ApiToken.issue(bob, "laptop")
    _, adas = ApiToken.issue(ada, "laptop")
    refused = post(url, INITIALIZE, secret=bobs)
    assert refused.status_code == 503
    assert "could not start its sessions" in refused.json()["error"]["message"]
    assert "RuntimeError" not in refused.text
    assert post(url, INITIALIZE, secret=adas).status_code == 200


def test_a_body_over_4_mib_is_refused_before_it_is_read_whole(url, ada):
    _, secret = ApiToken.issue(ada, "laptop")
    huge = call_tool("get_run_status", {"run_id": "x" * (5 * 1024 * 1024)})
    response = post(url, huge, secret=secret)
    assert response.status_code == 413
    assert "larger than 4 MiB" in response.json()["error"]["message"]


def test_a_stream_opens_with_a_priming_event_and_the_retry_interval(url, ada):
    _, secret = ApiToken.issue(ada, "laptop")
    initialize = {**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": "2025-11-25"}}
    response = post(url, initialize, secret)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [e for e in response.text.replace("\r\n", "\n").split("\n\n") if e.strip()]
    priming = dict(
        line.split(": ", 1) if ": " in line else (line.rstrip(":"), "")
        for line in events[0].splitlines()
    )
    assert priming["retry"] == "3000" and priming["id"] and priming.get("data", "") == ""
    answer = [e for e in events if '"serverInfo"' in e]
    assert answer and "id: " in answer[0]  # the answer has an event id to resume after


def first_event(lines) -> dict[str, str]:
    """The fields of the first event of an SSE stream (a comment line, a ping, is no field)."""
    fields: dict[str, str] = {}
    for line in lines:
        if not line:
            if fields:
                return fields
            continue
        if not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
    return fields


@pytest.mark.parametrize("version, primed", [("2025-11-25", True), ("2025-06-18", False)])
def test_the_get_stream_opens_with_a_priming_event_too(url, ada, version, primed):
    _, secret = ApiToken.issue(ada, "laptop")
    initialize = {**INITIALIZE, "params": {**INITIALIZE["params"], "protocolVersion": version}}
    opened = post(url, initialize, secret)
    in_session = {
        "Mcp-Session-Id": opened.headers["mcp-session-id"],
        "Mcp-Protocol-Version": version,
    }
    post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, secret, **in_session)
    headers = {"Authorization": f"Bearer {secret}", "Accept": "text/event-stream", **in_session}
    # Without a priming event nothing comes for a while: the read gives up and the test fails.
    with httpx.stream("GET", f"{url}/mcp", headers=headers, timeout=5) as stream:
        assert stream.status_code == 200
        if not primed:  # a client before 2025-11-25 cannot read an event without data
            return
        event = first_event(stream.iter_lines())
    assert event["retry"] == "3000" and event["id"] and event.get("data", "") == ""

    # A client whose stream broke picks it up again from that id.
    resumed = {**headers, "Last-Event-ID": event["id"]}
    with httpx.stream("GET", f"{url}/mcp", headers=resumed, timeout=5) as again:
        assert again.status_code == 200
        assert first_event(again.iter_lines())["id"]


@pytest.mark.serial  # it times itself
def test_a_megabyte_question_is_refused_at_once_in_a_short_answer(url, ada):
    _, secret = ApiToken.issue(ada, "laptop")
    question = shaped("one clause", 1_000_000)  # read from every character, it took minutes

    async def main():
        async with client(url, secret) as session:
            start = time.perf_counter()
            result = await session.call_tool("start_research", {"question": question})
            return result, time.perf_counter() - start

    result, seconds = anyio.run(main)
    assert seconds < 1.0
    assert result.is_error
    assert result.structured_content["status"] == "INVALID_ARGUMENT"
    assert result.structured_content["errors"] == {"question": ["at most 8000 characters"]}
    assert len(result.model_dump_json()) < 4096


@pytest.mark.parametrize(
    ("message", "refusal"),
    [
        (
            {"jsonrpc": "2.0", "id": 7, "method": "x" * 1_000_000, "params": {}},
            "The request's method is 1,000,000 characters long; at most 100.",
        ),
        (
            {"jsonrpc": "2.0", "id": "x" * 1_000_000, "method": "tools/list", "params": {}},
            "The request's id is 1,000,000 characters long; at most 200.",
        ),
    ],
    ids=["method", "id"],
)
def test_a_megabyte_method_or_request_id_is_refused_without_being_sent_back(
    url, ada, message, refusal
):
    _, secret = ApiToken.issue(ada, "laptop")
    session = post(url, INITIALIZE, secret=secret).headers["mcp-session-id"]
    headers = {"Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-06-18"}
    response = post(url, message, secret=secret, **headers)
    assert response.status_code == 400
    assert response.json()["error"]["message"] == refusal
    assert len(response.content) < 4096
