"""Finds runs a dead worker left mid-stage and resumes them from their files.

A stage marked running whose run lock is free has no live process behind it: the lock is a
kernel file lock, released the moment its holder dies. Without this, such a run would wait
for Redis to redeliver its task after the visibility timeout.
"""

from __future__ import annotations

import logging

from django.conf import settings

from research import pipeline
from research.store import RunStore, StoreError

logger = logging.getLogger(__name__)


def orphaned_runs() -> list[tuple[str, str]]:
    """(run_id, stage) for every run with a stage marked running and nobody working on it."""
    found = []
    root = settings.RUNS_DIR
    if not root.is_dir():
        return found
    for folder in sorted(root.iterdir()):
        stage = _running_stage(root, folder.name)
        if stage is not None:
            found.append((folder.name, stage))
    return found


def _running_stage(root, run_id: str) -> str | None:
    try:
        store = RunStore(root, run_id)
        if not store.exists():
            return None
        stages = store.index()["stages"]
        running = [s for s, entry in stages.items() if entry["status"] == "running"]
    except (StoreError, OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # not a run folder, or a damaged one: never let it stop the scan
    if not running or store.is_locked():
        return None
    return running[0]


def recover_orphaned_runs() -> list[str]:
    from research.tasks import STAGE_TASKS

    resumed = []
    for run_id, stage in orphaned_runs():
        store = RunStore(settings.RUNS_DIR, run_id)
        store.log("run_recovered", stage=stage, reason="stage was running with no live worker")
        pipeline.mark_stage(store, stage, status="queued")
        STAGE_TASKS[stage].delay(run_id)
        resumed.append(run_id)
    return resumed
