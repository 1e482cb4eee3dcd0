"""`python manage.py research "QUESTION" --option A --option B --source local:DIR ...`"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from research import pipeline, services, tasks
from research.artifacts import STAGES
from research.providers.search import SourceSpecError, build_provider
from research.stages.plan import PRESETS, PlanError, build_plan, parse_dimension
from research.steps import limits_from
from research.store import StoreError

LABELS = {
    "retrieve": "retrieve",
    "filter": "filter",
    "deepread": "deep-read",
    "crosscheck": "cross-validate",
    "decide": "decide",
}


class Command(BaseCommand):
    help = "Research a decision question and write its report."

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
            help="local:DIR, searxng:URL or ddgs (repeat)",
        )
        parser.add_argument("--out", metavar="FILE", help="write the report to FILE")
        parser.add_argument(
            "--queue",
            action="store_true",
            help="hand the run to the Celery workers instead of running here",
        )
        parser.add_argument("--resume", metavar="RUN_ID", help="resume a run from its files")
        parser.add_argument(
            "--from-stage",
            choices=STAGES,
            help="with --resume: run this stage and every later one again",
        )
        parser.add_argument("--user", help="the username that owns the run")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["from_stage"] and not opts["resume"]:
            raise CommandError("--from-stage needs --resume RUN_ID")
        run_id = self._resume(opts) if opts["resume"] else self._create(opts)
        folder = services.store_for(run_id).path
        self.stdout.write(f"Run {run_id}: {folder}")
        if opts["queue"]:
            tasks.start(
                run_id, opts["from_stage"] or pipeline.first_unfinished(run_id) or STAGES[0]
            )
            self.stdout.write("Queued for the workers. Follow it in the run folder's index.json.")
            return
        self._run_here(run_id, opts["from_stage"])
        self._finish(run_id, opts.get("out"))

    # --- input --------------------------------------------------------------------------

    def _create(self, opts: dict[str, Any]) -> str:
        question = (opts["question"] or "").strip()
        sources = opts["source"] or settings.DEFAULT_SOURCES
        if not sources:
            raise CommandError("name at least one --source: local:DIR, searxng:URL or ddgs")
        try:
            for spec in sources:
                build_provider(spec)
            dimensions = [parse_dimension(d) for d in opts["dimension"]]
            params = {
                "question": question,
                "options": opts["option"],
                "dimensions": [{"name": n, "weight": w} for n, w in dimensions],
                "preset": opts["preset"] or "",
                "sources": sources,
            }
            build_plan(
                question,
                opts["option"],
                dimensions or None,
                opts["preset"],
                sources,
                limits_from(params),
            )
        except (PlanError, SourceSpecError) as exc:
            raise CommandError(str(exc)) from exc
        run = services.create_run(**params, limits={}, owner=self._owner(opts.get("user")))
        return run.run_id

    def _owner(self, username: str | None):
        if not username:
            return None
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        return user

    def _resume(self, opts: dict[str, Any]) -> str:
        try:
            store = services.store_for(opts["resume"])
        except StoreError as exc:
            raise CommandError(str(exc)) from exc
        if not store.exists():
            raise CommandError(f"no run folder at {store.path}")
        services.ensure_run_row(store)
        if opts["from_stage"]:
            pipeline.reset_from(store.run_id, opts["from_stage"])
        return store.run_id

    # --- running ------------------------------------------------------------------------

    def _run_here(self, run_id: str, from_stage: str | None) -> None:
        stage = from_stage or pipeline.first_unfinished(run_id)
        total = len(pipeline.active_stages())
        if stage is None:
            self.stdout.write("Every stage already has valid output; nothing to run.")
            return
        while stage is not None:
            position = pipeline.active_stages().index(stage) + 1
            self._progress(f"[{position}/{total}] {LABELS[stage]}: running")
            started = time.monotonic()
            try:
                result = pipeline.execute_stage(
                    run_id, stage, force=stage == from_stage, lock_wait=2.0
                )
            except pipeline.StageError as exc:
                raise CommandError(f"{LABELS[stage]} failed: {exc}") from exc
            except Exception as exc:
                raise CommandError(
                    f"{LABELS[stage]} failed: {exc.__class__.__name__}; the run log has details"
                ) from exc
            if result.status == "locked":
                raise CommandError(f"run {run_id} is being worked on by another process")
            self._progress(
                f"[{position}/{total}] {LABELS[stage]}: {result.status} "
                f"in {time.monotonic() - started:.1f}s {_summary(result.counts)}",
                done=True,
            )
            last, stage = stage, pipeline.next_stage(stage)
        pipeline.finish_run(run_id, last)

    def _progress(self, line: str, done: bool = False) -> None:
        """On a terminal the running line is overwritten by its result; in a log, both stay."""
        if not self.stdout.isatty():
            self.stdout.write(line)
            return
        self.stdout.write("\r\033[K" + line, ending="\n" if done else "")
        self.stdout.flush()

    def _finish(self, run_id: str, out: str | None) -> None:
        store = services.store_for(run_id)
        report = store.read_text("report.md")
        decision = store.read_json("round_5_decision.json")
        if out:
            _write_out(out, report)
            self.stdout.write(f"Report written to {out}")
        self.stdout.write(f"Report: {store.artifact_path('report.md')}")
        option = decision["recommendation"]["option"]
        confidence = decision["assessment"]["confidence"]
        low = confidence < decision["threshold"]
        if option is None:
            self.stdout.write(
                self.style.WARNING(
                    "No recommendation: the evidence needed for one could not be found or reached."
                )
            )
        else:
            label = "Provisional recommendation" if low else "Recommendation"
            self.stdout.write(self.style.SUCCESS(f"{label}: {option}"))
        style = self.style.WARNING if low else self.style.SUCCESS
        self.stdout.write(
            style(
                f"Confidence: {confidence:.0f}/100"
                + (" (low: not fit for direct decision use)" if low else "")
            )
        )


def _summary(counts: dict[str, Any]) -> str:
    parts = [f"{k}={v}" for k, v in counts.items() if not isinstance(v, dict)]
    outcomes = counts.get("outcomes") or {}
    if outcomes:
        parts.append("outcomes " + ", ".join(f"{k}:{v}" for k, v in sorted(outcomes.items())))
    return f"({'; '.join(parts)})" if parts else ""


def _write_out(path: str, text: str) -> None:
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror}") from exc
