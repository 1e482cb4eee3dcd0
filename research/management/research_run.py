"""The work of `manage.py research`, once its arguments are read: create or resume a run,
run its stages here (or queue them for the workers), and write the report.

A module of its own, imported only when a run starts: `manage.py research --help` and a
mistyped argument answer without loading the run engine.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor

from decisions.withhold import GAPS
from reports.export import absolute_page_links, location_urls
from research import services
from research.artifacts import STAGES
from research.diskspace import DiskFull
from research.models import Run
from research.names import REPORT, stage_label
from research.runs import flow
from research.runs.execute import execute_stage
from research.runs.manifest import first_unfinished
from research.runs.registry import active_stages
from research.runs.runners import import_runners
from research.runs.spec import StageError
from research.selectors import verdict_of
from research.store import StoreError, readers, store_for

MIGRATE_HINT = "run `make migrate` (or `.venv/bin/python manage.py migrate`) first"


class ResearchRun:
    """One invocation of the command; it writes through the command's stdout and style."""

    def __init__(self, command: BaseCommand) -> None:
        self.stdout = command.stdout
        self.style = command.style

    def handle(self, opts: dict[str, Any]) -> None:
        self._ensure_migrated()
        run_id = self._resume(opts) if opts["resume"] else self._create(opts)
        self.stdout.write(f"Run {run_id}: {store_for(run_id).location}")
        if opts["queue"]:
            self._queue(run_id, opts)
            return
        self._run_here(run_id, opts["from_stage"])
        self._finish(run_id, opts.get("out"))

    # --- the database ---------------------------------------------------------------------

    def _ensure_migrated(self) -> None:
        """A new database is set up here; one that needs an upgrade is left to the operator."""
        try:
            executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
            pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
        except DatabaseError as exc:
            raise CommandError(f"cannot open the database: {exc}") from exc
        if not pending:
            return
        if executor.loader.applied_migrations:
            count = f"{len(pending)} migration{'s' if len(pending) > 1 else ''}"
            raise CommandError(f"the database needs {count}: {MIGRATE_HINT}")
        self.stdout.write("Setting up a new database (manage.py migrate)...")
        call_command("migrate", interactive=False, verbosity=0)

    # --- input --------------------------------------------------------------------------

    def _create(self, opts: dict[str, Any]) -> str:
        owner = self._owner(opts.get("user"))
        try:
            form = services.Submission(
                question=opts["question"] or "",
                options=opts["option"],
                dimensions=opts["dimension"],
                preset=opts["preset"] or "",
                sources=opts["source"],
            )
            run = services.submit_question(
                owner,
                form,
                trusted_sources=True,  # the operator, on the server
                enqueue=False,  # this command starts the first stage itself
            )
        except services.QuestionInvalid as exc:
            raise CommandError(str(exc)) from exc
        return run.run_id

    def _owner(self, username: str | None):
        users = get_user_model()
        if username:
            user = users.objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"no user named {username!r}")
            return user
        first = users.objects.filter(is_superuser=True).order_by("pk").first()
        if first is None:
            raise CommandError(
                "a run needs an owner and there is no account yet: create one with "
                "`.venv/bin/python manage.py createsuperuser` (or start `make run` once), "
                "or name one with --user"
            )
        return first

    def _resume(self, opts: dict[str, Any]) -> str:
        try:
            store = store_for(opts["resume"])
        except StoreError as exc:
            raise CommandError(str(exc)) from exc
        if not store.found():
            raise CommandError(f"no run folder at {store.location}")
        try:
            said = services.prepare_resume(store, opts["from_stage"])
        except StoreError as exc:
            raise CommandError(str(exc)) from exc
        for line in said:
            self.stdout.write(line)
        return store.run_id

    # --- queued -------------------------------------------------------------------------

    def _queue(self, run_id: str, opts: dict[str, Any]) -> None:
        stage = opts["from_stage"] or first_unfinished(run_id) or STAGES[0]
        said = "Queued for the workers"
        try:
            if opts["resume"]:
                # Whatever state the run was left in (a stage stuck queued or running with
                # no worker, failed, or never queued): say what was done about it.
                said = services.resume_run(run_id, stage).rstrip(".")
            else:
                services.queue_run(run_id, stage)
        except Exception as exc:
            raise CommandError(services.NOT_QUEUED) from exc
        if not opts.get("out"):
            self.stdout.write(f"{said}. Follow it in the run folder's index.json.")
            return
        self.stdout.write(f"{said}; waiting up to {opts['wait']:.0f}s for it.")
        self._wait_for(run_id, opts["wait"])
        self._finish(run_id, opts["out"])

    def _wait_for(self, run_id: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            run = Run.objects.get(run_id=run_id)
            if run.status == Run.Status.DONE:
                return
            if run.status == Run.Status.FAILED:
                raise CommandError(f"the run failed: {run.error}")
            if time.monotonic() >= deadline:
                report = store_for(run_id).location_of(REPORT)
                raise CommandError(
                    f"the run is still going after {timeout:.0f}s, so no report was written "
                    f"to the --out file; the workers carry on, and the report will be at {report}"
                )
            time.sleep(min(0.5, max(deadline - time.monotonic(), 0.01)))

    # --- running ------------------------------------------------------------------------

    def _run_here(self, run_id: str, from_stage: str | None) -> None:
        stage = from_stage or first_unfinished(run_id)
        total = len(active_stages())
        if stage is None:
            self.stdout.write("Every stage already has valid output; nothing to run.")
            return
        # The later stages' code and page extraction's one-off costs, paid while the
        # stages before them wait on the network.
        reads_pages = STAGES.index(stage) <= STAGES.index("deepread")
        threading.Thread(target=_warm_up, args=(reads_pages,), name="warm-up", daemon=True).start()
        while stage is not None:
            label = stage_label(stage)
            position = active_stages().index(stage) + 1
            self._progress(f"[{position}/{total}] {label}: running")
            started = time.monotonic()
            result = self._execute(run_id, stage, force=stage == from_stage)
            if result.status == "locked":
                raise CommandError(f"run {run_id} is being worked on by another process")
            if result.status == "cancelled":
                raise CommandError(f"run {run_id} was cancelled; re-run it to continue")
            self._progress(
                f"[{position}/{total}] {label}: {result.status} "
                f"in {time.monotonic() - started:.1f}s {_summary(result.counts)}",
                done=True,
            )
            handover = flow.hand_over(run_id, stage)
            if handover.cancelled:
                raise CommandError(f"run {run_id} was cancelled; re-run it to continue")
            stage = handover.next

    def _execute(self, run_id: str, stage: str, force: bool):
        label = stage_label(stage)
        try:
            return execute_stage(run_id, stage, force=force, lock_wait=2.0)
        except DiskFull as exc:
            runs = store_for(run_id).location.rsplit("/", 1)[0]
            raise CommandError(
                f"{label} stopped: no space left on the disk that holds "
                f"{runs}. Free some space, then continue "
                f"with `manage.py research --resume {run_id}`."
            ) from exc
        except (StageError, StoreError) as exc:
            raise CommandError(f"{label} failed: {exc}") from exc
        except Exception as exc:
            raise CommandError(
                f"{label} failed: {exc.__class__.__name__}; the run log has details"
            ) from exc

    def _progress(self, line: str, done: bool = False) -> None:
        """On a terminal the running line is overwritten by its result; in a log, both stay."""
        if not self.stdout.isatty():
            self.stdout.write(line)
            return
        self.stdout.write("\r\033[K" + line, ending="\n" if done else "")
        self.stdout.flush()

    def _finish(self, run_id: str, out: str | None) -> None:
        store = store_for(run_id)
        report = readers.report(store)
        verdict = verdict_of(readers.decision(store))
        if out:
            # A copy outside the run folder links each stored extract by its full path.
            _write_out(out, absolute_page_links(report, location_urls(store.location)))
            self.stdout.write(f"Report written to {out}")
        self.stdout.write(f"Report: {store.location_of(REPORT)}")
        option, confidence, low = verdict.option, verdict.confidence, verdict.low
        if option is None and verdict.single_site:
            self.stdout.write(
                self.style.WARNING(
                    f"No recommendation: {verdict.leader} scores best, but all of its evidence "
                    f"comes from one site ({verdict.single_site}); a recommendation needs two or "
                    "more independent sites."
                )
            )
        elif option is None and verdict.no_recommendation_reason and verdict.withheld in GAPS:
            said = f"No recommendation: {verdict.no_recommendation_reason}"
            if verdict.would_settle:
                said += f" {verdict.would_settle}"
            self.stdout.write(self.style.WARNING(said))
        elif option is None:
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
        if _nothing_answered(store):
            raise CommandError(
                "no source could be reached (every search failed), so the report above has no "
                "evidence; check the sources and the network, then run it again"
            )


def _nothing_answered(store) -> bool:
    """True when every search of every source failed: could not look, not found nothing."""
    calls = readers.candidates(store).provider_calls
    return bool(calls) and not any(call.outcome.looked for call in calls)


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


def _warm_up(reads_pages: bool) -> None:
    # What the stages need, in the order they need it: the extraction processes (which
    # start on another core) and deep-read's code while retrieve searches, cross-validate's
    # while deep-read fetches.
    if reads_pages:
        from research.providers import extract_pool

        extract_pool.start()
    import_runners(("filter", "deepread"))
    if reads_pages:
        from research.providers.extract import warm_up

        warm_up()  # for pages extracted here, when there are no extraction processes
    import_runners()
