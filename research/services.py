"""Writes to the database that mirror a run's manifest, for the web pages and the admin.

The files are the source of truth; these rows are a queryable copy of them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from research.artifacts import STAGES
from research.models import Run, StageRun
from research.store import RunStore


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
    store_for(run.run_id).create(run_params(run), STAGES)
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
