"""A deep-read spread over workers: the engine's side of a Celery chord of parts.

A run whose deep-read reads more than DEEPREAD_SPLIT_PAGES pages is split into parts
(research.runs.runners.parts). The stage's own task starts it (`start`): holding the run's
lock, it marks the stage running and records the parts in the manifest; research.runs.tasks
then sends a chord of one task per part not yet done (`run_part`), with the merge as its
callback (`merge`), which writes the pages and notes and marks the stage done.

Locks. A part holds the run's lock shared, so parts run side by side on several workers
while anything that takes the lock exclusively (a whole stage, the merge, a recovery pass)
waits or sees the run as worked on; and it holds its own part's lock exclusively, so two
workers never run one part: the second finds the lock held, or the part done, and returns.

Recovery. Each running part beats the stage's heartbeat. A worker that dies mid-part leaves
the stage running, the lock free and the heartbeat going stale, and a recovery pass sends the
stage's task again (research.runs.recovery): it keeps the parts already done, sends a chord
of the missing ones only, and the merge after them; a merge whose worker died is sent again
alone. A part or merge that arrives twice (its chord sent again) finds its work done, or
another worker on it, and does nothing.
"""

from __future__ import annotations

import os
from typing import NoReturn

from research.context import StageContext
from research.names import FINISHED
from research.runs import rows
from research.runs.execute import (
    Heartbeat,
    StageResult,
    TimeLimit,
    begin_locked,
    disk_watched,
    finish_locked,
    heartbeat_interval,
    lost,
    pause_point,
    stage_failed,
)
from research.runs.manifest import cancelled, transition
from research.runs.runners import deepread, parts
from research.stages.deepread import note_chosen
from research.store import RunLocked, RunStore, StoreError, store_for

STAGE = parts.STAGE
# A part waits this long for the run's lock (held exclusively only for moments: while the
# stage starts, and while the merge writes).
PART_LOCK_WAIT = 30.0


def splits(run_id: str) -> bool:
    """Whether the run's deep-read is read in parts. A run whose inputs cannot be read is
    not: the stage itself then says what is wrong with them."""
    try:
        store = store_for(run_id)
        return store.exists() and parts.split(store) > 1
    except (StoreError, OSError, ValueError):
        return False


def start(run_id: str, time_limit: TimeLimit | None = None) -> tuple[StageResult, list[int]]:
    """Start a split deep-read: the stage marked running (unless the run was cancelled or
    its output is already sound) and its parts recorded. Returns the result and the parts
    still to read: the chord to send ("split"), or nothing to send."""
    store = store_for(run_id)
    if not store.exists():
        raise lost(store)
    try:
        with disk_watched(store, STAGE), store.lock(wait=5.0):
            return _start_locked(store, time_limit)
    except RunLocked:
        store.log("stage_deferred", stage=STAGE, reason="another process holds the run")
        return StageResult(STAGE, "locked"), []


def _start_locked(store: RunStore, time_limit: TimeLimit | None) -> tuple[StageResult, list[int]]:
    began = begin_locked(store, STAGE)
    if isinstance(began, StageResult):
        return began, []
    try:
        shares = parts.shares_of(parts.Inputs.load(store))
        note_chosen(began, [page for share in shares for page in share])
        missing = parts.begin(store, shares)
    except Exception as exc:
        _raise(stage_failed(store, STAGE, exc, time_limit), exc)
    counts = {"parts": len(shares), "pages": sum(map(len, shares)), "to_read": missing}
    store.log("deepread_split", **counts)
    note_progress(store)
    pause_point(store.run_id, f"{STAGE}:split")
    return StageResult(STAGE, "split", counts), missing


def run_part(run_id: str, number: int, time_limit: TimeLimit | None = None) -> str:
    """Read part `number` unless it is done or another process is on it; says which."""
    store = store_for(run_id)
    if not store.exists():
        raise lost(store)
    try:
        with (
            disk_watched(store, STAGE),
            store.lock(wait=PART_LOCK_WAIT, shared=True),
            store.lock(part=_lock(number)),
        ):
            return _run_part_locked(store, number, time_limit)
    except RunLocked:
        store.log("part_deferred", part=number, reason="another process holds the part")
        return "locked"


def _run_part_locked(store: RunStore, number: int, time_limit: TimeLimit | None) -> str:
    recorded = parts.state(store)
    if store.index()["stages"][STAGE]["status"] != "running" or cancelled(store):
        store.log("part_not_run", part=number, reason="deep-read is no longer running")
        return "stopped"
    if recorded is None or number >= len(recorded["shares"]):
        store.log("part_not_run", part=number, reason="not one of deep-read's parts")
        return "stopped"
    if parts.is_done(store, number, recorded):
        store.log("part_skipped", part=number, reason="already read")
        return "skipped"
    store.log("part_started", part=number, pid=os.getpid())  # which worker process reads it
    try:
        with Heartbeat(store, STAGE, heartbeat_interval()):
            pause_point(store.run_id, f"{STAGE}:part{number}:running")
            parts.read(store, parts.Inputs.load(store), number, StageContext(log=store.log))
    except parts.MissingPart as exc:
        store.log("part_not_run", part=number, reason=str(exc))
        return "stopped"
    except Exception as exc:
        _raise(stage_failed(store, STAGE, exc, time_limit), exc)
    pause_point(store.run_id, f"{STAGE}:part{number}:written")
    note_progress(store)
    return "done"


def merge(run_id: str, time_limit: TimeLimit | None = None) -> StageResult:
    """Merge the parts into the pages and notes and mark deep-read done, once every part
    is done; "waiting" while one is not (its own chord's merge comes after it)."""
    store = store_for(run_id)
    if not store.exists():
        raise lost(store)
    try:
        with disk_watched(store, STAGE), store.lock(wait=PART_LOCK_WAIT):
            return _merge_locked(store, time_limit)
    except RunLocked:
        store.log("stage_deferred", stage=STAGE, reason="another process holds the run")
        return StageResult(STAGE, "locked")


def _merge_locked(store: RunStore, time_limit: TimeLimit | None) -> StageResult:
    status = store.index()["stages"][STAGE]["status"]
    if cancelled(store):
        store.log("stage_not_run", stage=STAGE, reason="the run was cancelled")
        return StageResult(STAGE, "cancelled")
    if status in FINISHED:
        return StageResult(STAGE, "skipped")  # merged by an earlier copy of this message
    if status != "running":
        return StageResult(STAGE, "stopped")
    try:
        with Heartbeat(store, STAGE, heartbeat_interval()):
            pause_point(store.run_id, f"{STAGE}:merging")
            counts = deepread.merge(store, StageContext(log=store.log))
    except parts.MissingPart as exc:
        # Read by another chord's part still going (this chord's copy found it held): that
        # chord's merge follows it.
        store.log("merge_deferred", stage=STAGE, reason=str(exc))
        return StageResult(STAGE, "waiting")
    except Exception as exc:
        _raise(stage_failed(store, STAGE, exc, time_limit), exc)
    return finish_locked(store, STAGE, counts)


def note_progress(store: RunStore) -> None:
    """Show on the run's page how many of the parts are read, while the stage runs."""
    recorded = parts.state(store)
    if recorded is None:
        return
    counts = {"parts": len(recorded["shares"]), "parts_read": len(recorded["done"])}
    if transition(store, STAGE, {"status": "running"}, sync=False, counts=counts):
        rows.sync_stage(store.run_id, STAGE, store.index()["stages"][STAGE], counts=counts)


def _lock(number: int) -> str:
    return f"{STAGE}-{number}"


def _raise(failure: Exception, exc: Exception) -> NoReturn:
    if failure is exc:
        raise exc
    raise failure from exc
