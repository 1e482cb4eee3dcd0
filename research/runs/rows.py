"""The database rows that mirror a run's manifest: a queryable copy of the files.

The files are the source of truth for a run (research.store). Every stage status the
manifest records is copied to its StageRun row here, and the run's status to its Run row,
so that pages and selectors can list and filter runs without opening their folders. Some
things only the rows can say: a run whose folder is gone, or whose disk is full, cannot
write its manifest.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from research import diskspace
from research.artifacts import STAGES, Question
from research.models import Run, StageRun
from research.store import RunStore

FOLDER_GONE = (
    "its files on the server are gone (deleted while the run was going?), so it cannot go on. "
    "Ask the question again."
)
FOLDER_UNFINISHED = (
    "its files on the server were never completed (the server stopped while creating them), "
    "so it cannot start. Ask the question again."
)

CANCELLED = "Cancelled on request. Re-run it from any stage to continue."


def sync_stage(run_id: str, stage: str, entry: dict[str, Any], **extra: Any) -> None:
    """Copy one stage's manifest entry to its row."""
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


def run_params(run: Run) -> dict[str, Any]:
    """The parameters a run's manifest records (index.json `params`)."""
    return {
        "question": run.question,
        "options": run.options,
        "dimensions": run.dimensions,
        "preset": run.preset,
        "sources": run.sources,
        "limits": run.limits,
        "owner": run.owner.get_username() if run.owner else None,
    }


def question_of(params: dict[str, Any]) -> Question:
    """The question a run's manifest records (index.json `params`)."""
    return Question.model_validate(
        {**params, "preset": params.get("preset") or "", "limits": params.get("limits") or {}}
    )


def row_fields(question: Question) -> dict[str, Any]:
    """The Run row's copy of the question."""
    return {
        "question": question.question,
        "options": question.options,
        "dimensions": [d.model_dump() for d in question.dimensions],
        "preset": question.preset,
        "sources": question.sources,
        "limits": question.limits,
    }


def ensure_run_row(store: RunStore) -> Run:
    """Rebuild the Run row from a run folder's manifest, for runs moved between machines."""
    run = Run.objects.filter(run_id=store.run_id).first()
    if run is not None:
        return run
    question = question_of(store.index()["params"])
    run = Run.objects.create(run_id=store.run_id, **row_fields(question))
    add_stage_rows(run)
    return run


def add_stage_rows(run: Run) -> None:
    StageRun.objects.bulk_create(
        StageRun(run=run, stage=s, position=i) for i, s in enumerate(STAGES)
    )


def _dt(value: str | None):
    return parse_datetime(value) if value else None
