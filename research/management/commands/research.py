"""`python manage.py research "QUESTION" --option A --option B --source local:DIR ...`

Only the arguments are read here; the run itself (research.management.research_run) is
imported when one starts. From a terminal the process ends as soon as its output is flushed
and its database connections closed, without waiting for the interpreter's teardown.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.names import STAGES, UnknownStage, stage_id, stage_label
from research.stages.plan.rules import PRESETS


def _stage(value: str) -> str:
    try:
        return stage_id(value)
    except UnknownStage as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


class Command(BaseCommand):
    help = "Research a decision question and write its report."
    # The system checks import every page's view to check the URLs; a run needs none of them.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("question", nargs="?", help="the decision question")
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME",
            help="an option to weigh (repeat); found in the question if absent",
        )
        parser.add_argument(
            "--dimension",
            action="append",
            default=[],
            metavar="NAME[:WEIGHT]",
            help='a dimension with its weight, e.g. "cost:0.5" (repeat)',
        )
        parser.add_argument("--preset", choices=sorted(PRESETS), help="a preset of dimensions")
        parser.add_argument(
            "--source",
            action="append",
            default=[],
            metavar="SPEC",
            help="local:DIR, searxng:URL, ddgs, mcp:NAMESPACE.TOOL or a name from SOURCES (repeat)",
        )
        parser.add_argument("--out", metavar="FILE", help="write the report to FILE")
        parser.add_argument(
            "--queue",
            action="store_true",
            help="hand the run to the Celery workers instead of running here",
        )
        parser.add_argument(
            "--wait",
            type=float,
            default=1800.0,
            metavar="SECONDS",
            help="with --queue --out: how long to wait for the workers (default 1800)",
        )
        parser.add_argument("--resume", metavar="RUN_ID", help="resume a run from its files")
        parser.add_argument(
            "--from-stage",
            type=_stage,
            metavar="STAGE",
            help="with --resume: run this stage and every later one again "
            f"({', '.join(stage_label(s) for s in STAGES)})",
        )
        parser.add_argument(
            "--user", help="the username that owns the run (default: the first superuser)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["from_stage"] and not opts["resume"]:
            raise CommandError("--from-stage needs --resume RUN_ID")
        opts["dimension"] = [_split_dimension(d) for d in opts["dimension"]]
        from research.management.research_run import ResearchRun

        ResearchRun(self).handle(opts)

    def run_from_argv(self, argv: list[str]) -> None:
        """From the terminal only (call_command never comes here): once the command has
        said everything, end the process at once."""
        try:
            super().run_from_argv(argv)
        except SystemExit as exc:  # a CommandError, already printed, or argparse's exit
            if isinstance(exc.code, str):
                sys.stderr.write(exc.code + "\n")
            _exit_now(exc.code if isinstance(exc.code, int) else int(exc.code is not None))
        _exit_now(0)


def _exit_now(code: int) -> None:
    # What teardown would do that matters: the database closed, every line out. What it
    # would also do (collect every module, join idle pool threads) takes most of a second.
    from django.db import connections

    connections.close_all()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed or broken pipe
            stream.flush()
    os._exit(code)


def _split_dimension(spec: str) -> tuple[str, str]:
    """ "cost:0.5", "cost=50%" or "licence risk" (weight 1); the service checks the weight."""
    text = " ".join(spec.replace("：", ":").split())
    for separator in (":", "="):
        name, found, weight = text.rpartition(separator)
        if found:
            return name.strip(), weight.strip()
    return text, ""
