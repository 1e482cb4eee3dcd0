"""Ready-to-paste settings for the MCP clients people use, with absolute paths.

A client starts a stdio server in a folder of its own choosing (Claude Desktop in `/`;
Claude Code ignores `cwd`), so a stdio block names the virtualenv's python and manage.py by
absolute path. Over HTTP each client has its own shape: Claude Code, Cursor and VS Code take
a URL, and headers when a token is given (without one they sign in through the browser);
Claude Desktop's config file takes stdio servers only, so it reaches the HTTP endpoint
through `npx mcp-remote`, which bridges stdio to Streamable HTTP. VS Code names its servers
under `servers`, the others under `mcpServers`.

`manage.py mcp_config` prints these and the account page shows them.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext_lazy

SERVER_NAME = "verdict"


@dataclass(frozen=True)
class Client:
    key: str  # what `mcp_config --client` takes
    label: str
    where: Any  # where the block goes (lazily in the page's language)
    takes_http: bool  # whether the client itself speaks Streamable HTTP


CLIENTS: dict[str, Client] = {
    c.key: c
    for c in (
        Client(
            "claude-desktop",
            "Claude Desktop",
            gettext_lazy(
                "claude_desktop_config.json (Settings › Developer › Edit Config); restart Claude "
                "Desktop after saving"
            ),
            takes_http=False,
        ),
        Client("claude-code", "Claude Code", gettext_lazy("run it in a terminal"), takes_http=True),
        Client(
            "cursor",
            "Cursor",
            gettext_lazy("~/.cursor/mcp.json, or .cursor/mcp.json in a project"),
            True,
        ),
        Client(
            "vscode",
            "VS Code",
            gettext_lazy(".vscode/mcp.json in a workspace (or: MCP: Open User Configuration)"),
            True,
        ),
    )
}


def python_path() -> str:
    """The virtualenv's python when there is one (not the interpreter it links to, which
    lacks the project's packages)."""
    venv = Path(settings.BASE_DIR) / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def stdio_command(user: str = "") -> list[str]:
    """The command line of the stdio server, every path absolute."""
    command = [python_path(), str(Path(settings.BASE_DIR) / "manage.py"), "mcp"]
    return [*command, "--user", user] if user else command


def http_url(host: str = "127.0.0.1", port: int = 8000) -> str:
    return f"http://{host}:{port}/mcp"


def config(
    client: str, *, http: bool = False, user: str = "", url: str = "", token: str = ""
) -> str:
    """The text to paste for `client`: JSON for a config file, or a command line. Over HTTP
    without a token the client signs the person in through the browser (OAuth) by itself."""
    spec = CLIENTS[client]
    if http:
        return _http(spec, url or http_url(), token)
    return _stdio(spec, stdio_command(user))


def _stdio(client: Client, command: list[str]) -> str:
    if client.key == "claude-code":
        line = ["claude", "mcp", "add", "--scope", "user", "--transport", "stdio", SERVER_NAME]
        return shlex.join([*line, "--", *command])
    entry: dict[str, object] = {"command": command[0], "args": command[1:]}
    if client.key == "vscode":
        return _json({"servers": {SERVER_NAME: {"type": "stdio", **entry}}})
    return _json({"mcpServers": {SERVER_NAME: entry}})


def _http(client: Client, url: str, token: str) -> str:
    header = f"Bearer {token}" if token else ""
    if client.key == "claude-code":
        line = ["claude", "mcp", "add", "--scope", "user", "--transport", "http", SERVER_NAME, url]
        return shlex.join([*line, "--header", f"Authorization: {header}"] if header else line)
    if not client.takes_http:
        return _json({"mcpServers": {SERVER_NAME: mcp_remote(url, header)}})
    entry: dict[str, object] = {"url": url}
    if header:
        entry["headers"] = {"Authorization": header}
    if client.key == "vscode":
        return _json({"servers": {SERVER_NAME: {"type": "http", **entry}}})
    return _json({"mcpServers": {SERVER_NAME: entry}})


def mcp_remote(url: str, header: str = "") -> dict[str, object]:
    """A stdio entry that bridges to the HTTP endpoint; without a header, mcp-remote signs
    in through the browser. The header travels in an environment variable because some
    clients split arguments at spaces; mcp-remote wants --allow-http for plain http to
    anything but this machine."""
    args = ["-y", "mcp-remote", url]
    if header:
        args += ["--header", "Authorization:${AUTH_HEADER}"]
    if urlsplit(url).scheme == "http" and urlsplit(url).hostname not in ("127.0.0.1", "localhost"):
        args.append("--allow-http")
    entry: dict[str, object] = {"command": "npx", "args": args}
    if header:
        entry["env"] = {"AUTH_HEADER": header}
    return entry


def http_configs(url: str, token: str = "") -> list[tuple[Client, str]]:
    """Each client's HTTP settings, for the account page."""
    return [(c, config(c.key, http=True, url=url, token=token)) for c in CLIENTS.values()]


def _json(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)
