"""Serve Verdict over MCP on stdio, acting for one user: `manage.py mcp [--user NAME]`.

stdout carries the protocol and nothing else; every log line goes to stderr.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Serve your runs, the research tools and the stage prompts over MCP (stdio)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--user",
            default="",
            help="the account the server acts for (default: the first superuser)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        _logs_to_stderr()
        user = _user(opts["user"])
        from research.mcp import build_server

        logging.getLogger(__name__).info("MCP on stdio for %s", user.get_username())
        build_server(user).run("stdio")


def _user(name: str):
    users = get_user_model()
    if name:
        try:
            return users.objects.get(**{users.USERNAME_FIELD: name}, is_active=True)
        except users.DoesNotExist:
            raise CommandError(f"no active user {name!r}") from None
    first = users.objects.filter(is_superuser=True, is_active=True).order_by("pk").first()
    if first is None:
        raise CommandError(
            "no superuser to act for: pass --user NAME, or create one with `manage.py ensure_admin`"
        )
    return first


def _logs_to_stderr() -> None:
    """Point every handler that writes to stdout at stderr instead."""
    for logger in [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]:
        for handler in getattr(logger, "handlers", []):
            if isinstance(handler, logging.StreamHandler) and handler.stream is sys.stdout:
                handler.setStream(sys.stderr)
