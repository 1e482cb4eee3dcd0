"""The settings `manage.py mcp_config` prints work as pasted: the stdio server starts from
`/`, as Claude Desktop starts it, with a .env whose paths are relative to the project; the
HTTP blocks reach /mcp with their bearer header."""

from __future__ import annotations

import json
import os
import shlex
from io import StringIO
from pathlib import Path

import anyio
import pytest
from django.conf import settings
from django.core.management import call_command
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from research.env import in_project, local_in_project
from research.models import ApiToken
from tests.research.mcp.test_http import serve, url  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[3]
CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode"]


def printed(*args: str) -> str:
    out = StringIO()
    call_command("mcp_config", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def stdio_command(client: str, text: str) -> list[str]:
    """The command line a client would run, read from what it was given to paste."""
    if client == "claude-code":
        words = shlex.split(text)
        assert words[:3] == ["claude", "mcp", "add"] and "--transport" in words
        return words[words.index("--") + 1 :]
    block = json.loads(text)
    servers = block["servers"] if client == "vscode" else block["mcpServers"]
    entry = servers["verdict"]
    assert "cwd" not in entry  # Claude Code ignores it; nothing may depend on it
    if client == "vscode":
        assert entry["type"] == "stdio"
    return [entry["command"], *entry["args"]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("client", CLIENTS)
def test_the_printed_stdio_server_starts_from_the_root_folder_and_lists_tools(
    client, ada, runs_dir
):
    command = stdio_command(client, printed("--client", client, "--user", "ada"))
    assert all(Path(part).is_absolute() for part in command[:2])
    database = Path(settings.DATABASES["default"]["NAME"])
    env = {
        **os.environ,
        # As a .env copied from .env.example names them: relative to the project.
        "DATABASE_URL": f"sqlite:///{os.path.relpath(database, ROOT)}",
        "RUNS_DIR": os.path.relpath(runs_dir, ROOT),
    }
    params = StdioServerParameters(command=command[0], args=command[1:], cwd="/", env=env)

    async def main():
        async with Client(params, mode="legacy") as session:
            tools = {t.name for t in (await session.list_tools()).tools}
            runs = await session.read_resource("research://runs")
            return tools, json.loads(runs.contents[0].text)

    tools, runs = anyio.run(main)
    assert {"start_research", "get_report", "list_sources"} <= tools
    assert runs == {"runs": []}  # ada's runs, read from the project's database


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("client", ["claude-code", "cursor", "vscode"])
def test_the_printed_http_settings_reach_the_endpoint_with_the_token(client, url, ada):  # noqa: F811
    _, secret = ApiToken.issue(ada, "laptop")
    text = printed("--client", client, "--http", "--url", f"{url}/mcp", "--token", secret)
    if client == "claude-code":
        words = shlex.split(text)
        assert words[:6] == ["claude", "mcp", "add", "--scope", "user", "--transport"]
        address = words[words.index("verdict") + 1]
        name, _, value = words[words.index("--header") + 1].partition(": ")
        headers = {name: value}
    else:
        block = json.loads(text)
        entry = (block["servers"] if client == "vscode" else block["mcpServers"])["verdict"]
        assert entry.get("type", "http") == "http"
        address, headers = entry["url"], entry["headers"]

    async def main():
        http = create_mcp_http_client(headers=headers)
        async with Client(streamable_http_client(address, http_client=http), mode="legacy") as c:
            return {t.name for t in (await c.list_tools()).tools}

    assert "start_research" in anyio.run(main)


@pytest.mark.parametrize("client", CLIENTS)
def test_without_a_token_the_printed_http_settings_carry_none(client):
    """A client that signs in through the browser needs only the address."""
    out, err = StringIO(), StringIO()
    call_command("mcp_config", "--client", client, "--http", stdout=out, stderr=err)
    text = out.getvalue()
    assert "Bearer" not in text and "Authorization" not in text and "<" not in text
    assert "http://127.0.0.1:8000/mcp" in text
    assert "opens your browser to sign you in" in err.getvalue()
    if client == "claude-code":
        assert shlex.split(text)[-2:] == ["verdict", "http://127.0.0.1:8000/mcp"]
    elif client == "claude-desktop":
        entry = json.loads(text)["mcpServers"]["verdict"]
        assert entry == {
            "command": "npx",
            "args": ["-y", "mcp-remote", "http://127.0.0.1:8000/mcp"],
        }
    else:
        block = json.loads(text)
        entry = (block["servers"] if client == "vscode" else block["mcpServers"])["verdict"]
        assert entry["url"] == "http://127.0.0.1:8000/mcp" and "headers" not in entry


def test_claude_desktop_over_http_gets_an_mcp_remote_bridge():
    block = json.loads(printed("--client", "claude-desktop", "--http", "--token", "vdt_abc"))
    entry = block["mcpServers"]["verdict"]
    assert entry["command"] == "npx" and "mcp-remote" in entry["args"]
    assert "http://127.0.0.1:8000/mcp" in entry["args"]
    assert entry["env"] == {"AUTH_HEADER": "Bearer vdt_abc"}
    assert "type" not in entry and "url" not in entry  # its config file takes stdio only


def test_vscode_names_its_servers_under_servers():
    assert set(json.loads(printed("--client", "vscode"))) == {"servers"}
    assert set(json.loads(printed("--client", "cursor"))) == {"mcpServers"}


def test_an_unknown_client_is_refused_with_the_choices():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="claude-desktop"):
        printed("--client", "emacs")


# --- relative paths in settings -------------------------------------------------------------


def test_a_relative_sqlite_database_is_a_file_of_the_project(tmp_path):
    project = tmp_path / "verdict"
    parsed = in_project({"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}, project)
    assert parsed["NAME"] == str(project / "db.sqlite3")
    absolute = {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/db.sqlite3"}
    assert in_project(dict(absolute), project)["NAME"] == "/srv/db.sqlite3"
    memory = {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}
    assert in_project(dict(memory), project)["NAME"] == ":memory:"
    postgres = {"ENGINE": "django.db.backends.postgresql", "NAME": "verdict"}
    assert in_project(dict(postgres), project)["NAME"] == "verdict"


def test_a_relative_local_source_is_a_folder_of_the_project(tmp_path):
    assert local_in_project("local:corpus/notes", tmp_path) == f"local:{tmp_path}/corpus/notes"
    assert local_in_project("local:/srv/docs", tmp_path) == "local:/srv/docs"
    assert local_in_project("ddgs", tmp_path) == "ddgs"
    assert local_in_project("notes", tmp_path) == "notes"
