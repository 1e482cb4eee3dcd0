"""Print an MCP client's settings for this Verdict, ready to paste:
`manage.py mcp_config --client claude-desktop|claude-code|cursor|vscode [--http]`.

Over stdio the block names this project's python and manage.py by absolute path, so it works
whatever folder the client starts the server in. With --http it points at /mcp, and the
client signs in through the browser the first time (OAuth); with --token it sends that
personal token instead. A client that takes only stdio servers (Claude Desktop) gets an
`npx mcp-remote` bridge.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from research.mcp.client_configs import CLIENTS, config, http_url


class Command(BaseCommand):
    help = "Print the settings an MCP client needs to use this server, with absolute paths."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--client", required=True, choices=sorted(CLIENTS))
        parser.add_argument(
            "--http",
            action="store_true",
            help="connect over Streamable HTTP to a running `make run` instead of stdio",
        )
        parser.add_argument(
            "--user", default="", help="stdio: the account it acts for (default: first superuser)"
        )
        parser.add_argument(
            "--url",
            default="",
            help=f"--http: the MCP endpoint (default {http_url(settings.WEB_HOST)})",
        )
        parser.add_argument(
            "--token",
            default="",
            help="--http: send this API token instead of signing in through the browser "
            "(make one on your account page or with mcp_token)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        client = CLIENTS[opts["client"]]
        url = opts["url"] or http_url(settings.WEB_HOST)
        self.stdout.write(
            config(client.key, http=opts["http"], user=opts["user"], url=url, token=opts["token"])
        )
        self.stderr.write(f"{client.label}: {client.where}.")
        if opts["http"] and not opts["token"]:
            self.stderr.write(
                "The first time it connects, the client opens your browser to sign you in to "
                "Verdict and asks you to allow it. A client that cannot sign in itself takes "
                "--token TOKEN (make one on your account page, /accounts/, or with "
                "`manage.py mcp_token --user NAME --create LABEL`)."
            )
