"""`python manage.py web`: the web server alone, started exactly as `manage.py serve` starts
it (uvicorn, the MCP lifespan, X-Forwarded-* believed only from FORWARDED_ALLOW_IPS), for a
deployment whose workers, beat and Redis run elsewhere (deploy/, README "Running past one
machine"). The process becomes uvicorn, so a service manager's signals reach it directly.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from research.management.commands.serve import web_argv


class Command(BaseCommand):
    help = "Start the web server alone (pages and /mcp), as `manage.py serve` starts it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--host",
            default=settings.WEB_HOST,
            help=f"address to listen on (default WEB_HOST, {settings.WEB_HOST})",
        )
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args: Any, **opts: Any) -> None:
        argv = web_argv(opts["host"], opts["port"])
        sys.stdout.flush()
        os.execv(argv[0], argv)
