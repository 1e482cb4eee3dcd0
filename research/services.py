"""Writes: submitting a question, and the database rows that mirror a run's manifest.

`submit_question` is the one way in for every surface (web form, CLI, MCP). The files are
the source of truth for a run; its rows are a queryable copy of them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from research import diskspace
from research.artifacts import STAGES
from research.models import Run, StageRun
from research.questions import QuestionInvalid, clean_question
from research.store import RunStore

__all__ = ["QuestionInvalid", "create_run", "submit_question"]

logger = logging.getLogger(__name__)

NOT_QUEUED = (
    "The run could not be handed to the workers: the task queue (Redis) did not answer. "
    "Start Verdict with `make run`, then re-run this question."
)


def submit_question(
    *,
    owner,
    question: str,
    options: Iterable[str] = (),
    dimensions: Iterable[tuple[str, Any] | Mapping[str, Any]] = (),
    preset: str = "",
    sources: Iterable[str] = (),
    limits: Mapping[str, Any] | None = None,
    trusted_sources: bool = False,
    enqueue: bool = True,
) -> Run:
    """Validate a question form, create its run and queue it once the transaction commits.

    `sources` are names of configured sources (research.sources); only the operator's CLI
    passes `trusted_sources=True` to allow raw specs such as `local:DIR`. Raises
    QuestionInvalid, whose `errors` map form fields to messages; a bad preset is reported
    under "dimensions". Blank dimension weights count as 1; blank limits take the defaults.
    """
    form = clean_question(
        question=question,
        options=options,
        dimensions=dimensions,
        preset=preset,
        sources=sources,
        limits=limits,
        trusted_sources=trusted_sources,
    )
    run = create_run(
        question=form.question,
        options=form.options,
        dimensions=form.dimensions,
        preset=form.preset,
        sources=form.sources,
        limits=form.limits,
        owner=owner,
    )
    if enqueue:
        transaction.on_commit(partial(_enqueue, run.run_id))
    return run


def _enqueue(run_id: str) -> None:
    """Queue the first stage; a broker that is down fails the run visibly, not the request."""
    from research import tasks  # tasks imports this module

    try:
        tasks.start(run_id, STAGES[0])
    except Exception:
        logger.exception("could not queue run %s", run_id)
        mark_run(run_id, Run.Status.FAILED, STAGES[0], NOT_QUEUED)


FOLDER_GONE = (
    "its files on the server are gone (deleted while the run was going?), so it cannot go on. "
    "Ask the question again."
)
FOLDER_UNFINISHED = (
    "its files on the server were never completed (the server stopped while creating them), "
    "so it cannot start. Ask the question again."
)


def fail_lost_run(run_id: str, reason: str) -> bool:
    """Fail a run whose folder is gone or was never completed. Its manifest cannot record
    anything, so the rows say why it stopped. Returns whether this call failed it (an
    update gated on the run still being unfinished: of several callers, one does)."""
    run = Run.objects.filter(run_id=run_id).first()
    if run is None:
        return False
    stage = run.current_stage or STAGES[0]
    failed = Run.objects.filter(
        pk=run.pk, status__in=(Run.Status.QUEUED, Run.Status.RUNNING)
    ).update(
        status=Run.Status.FAILED,
        current_stage=stage,
        error=f"{stage}: {reason}",
        finished=timezone.now(),
        updated=timezone.now(),
    )
    if not failed:
        return False
    unfinished = StageRun.objects.filter(run=run).exclude(status__in=("done", "skipped"))
    unfinished.filter(Q(stage=stage) | Q(status__in=("queued", "running"))).update(
        status=StageRun.Status.FAILED, error=reason
    )
    return True


def wait_for_space(run_id: str, stage: str) -> bool:
    """Mark a run whose stage could not write for want of disk space as waiting for room, in
    the database alone (its files cannot be written). Returns whether it was not already
    waiting so, for a log line once rather than every pass."""
    error = f"{stage}: {diskspace.reason(stage)}"
    changed = (
        Run.objects.filter(run_id=run_id, status__in=(Run.Status.QUEUED, Run.Status.RUNNING))
        .exclude(error=error)
        .update(status=Run.Status.QUEUED, current_stage=stage, error=error, updated=timezone.now())
    )
    StageRun.objects.filter(run__run_id=run_id, stage=stage).exclude(
        status__in=("done", "skipped")
    ).update(status=StageRun.Status.QUEUED, error=diskspace.reason(stage))
    return bool(changed)


def waiting_for_space(run_id: str) -> bool:
    run = Run.objects.filter(run_id=run_id).only("error", "status").first()
    return run is not None and run.status == Run.Status.QUEUED and diskspace.is_waiting(run.error)


def create_run(
    *,
    question: str,
    options: list[str],
    dimensions: list[dict[str, Any]],
    preset: str,
    sources: list[str],
    limits: dict[str, int],
    owner=None,
) -> Run:
    """Make the Run row, its stage rows and its folder with a fresh manifest."""
    with transaction.atomic():
        run = Run.objects.create(
            owner=owner,
            question=question,
            options=options,
            dimensions=dimensions,
            preset=preset,
            sources=sources,
            limits=limits,
        )
        StageRun.objects.bulk_create(
            StageRun(run=run, stage=s, position=i) for i, s in enumerate(STAGES)
        )
    try:
        store_for(run.run_id).create(run_params(run), STAGES)
    except OSError as exc:
        # No folder, no run: the row goes too, and the person is told why, in the form.
        run.delete()
        why = (
            "no space left on the disk that holds the run folders"
            if diskspace.full(exc)
            else exc.strerror or str(exc)
        )
        logger.error("could not create the folder of a new run: %s", exc)
        raise QuestionInvalid(
            {"question": [f"The server could not store this run ({why}). Try again later."]}
        ) from exc
    return run


def run_params(run: Run) -> dict[str, Any]:
    return {
        "question": run.question,
        "options": run.options,
        "dimensions": run.dimensions,
        "preset": run.preset,
        "sources": run.sources,
        "limits": run.limits,
        "owner": run.owner.get_username() if run.owner else None,
    }


def store_for(run_id: str) -> RunStore:
    return RunStore(settings.RUNS_DIR, run_id)


def ensure_run_row(store: RunStore) -> Run:
    """Rebuild the Run row from a run folder's manifest, for runs moved between machines."""
    run = Run.objects.filter(run_id=store.run_id).first()
    if run is not None:
        return run
    params = store.index()["params"]
    run = Run.objects.create(
        run_id=store.run_id,
        question=params["question"],
        options=params["options"],
        dimensions=params["dimensions"],
        preset=params.get("preset") or "",
        sources=params["sources"],
        limits=params.get("limits") or {},
    )
    StageRun.objects.bulk_create(
        StageRun(run=run, stage=s, position=i) for i, s in enumerate(STAGES)
    )
    return run


def sync_stage(run_id: str, stage: str, entry: dict[str, Any], **extra: Any) -> None:
    """Copy one stage's manifest entry to its row, and the run's status to the Run row."""
    fields = {
        "status": entry["status"],
        "attempts": entry.get("attempts", 0),
        "started": _dt(entry.get("started")),
        "finished": _dt(entry.get("finished")),
        **extra,
    }
    StageRun.objects.filter(run__run_id=run_id, stage=stage).update(**fields)


def mark_run(run_id: str, status: str, stage: str = "", error: str = "") -> None:
    finished = timezone.now() if status in (Run.Status.DONE, Run.Status.FAILED) else None
    Run.objects.filter(run_id=run_id).update(
        status=status, current_stage=stage, error=error, finished=finished, updated=timezone.now()
    )


def _dt(value: str | None):
    return parse_datetime(value) if value else None
