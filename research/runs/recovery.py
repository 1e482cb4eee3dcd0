"""Keeps every run moving: finds the runs that a dead worker, a lost message or a crash
between two stages left behind, and hands them to whichever worker is alive.

A run is stuck when its current stage has made no progress for STAGE_LEASE seconds:

- running, with its lock free and its heartbeat stale: the process running it died (the
  lock is a kernel file lock, released the moment its holder dies);
- queued, with no message for it waiting in the broker: the message was never sent, or
  the worker that took it died before starting it;
- pending while the stage before it is done (or, for the first stage, since the run was
  created): the handover never happened;
- every stage done, and the run never marked finished.

Each run is judged and acted on while holding its run lock, so no stage can start or
finish meanwhile, and every status change goes through research.runs.manifest.transition,
a gated update of the manifest: however many recovery passes look at a run at once, one
acts, the others see that it has, and the chain never forks. The passes themselves run in
research.runs.loop.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings

from research import diskspace
from research.models import Run
from research.names import FINISHED, stage_label
from research.runs import broker, manifest, repair, rows, tasks
from research.runs.registry import active_stages
from research.store import RunLocked, RunStore, StoreError, run_ids, store_for

logger = logging.getLogger(__name__)

# A stage whose worker died this many times is failed rather than tried again: it is more
# likely killing its worker (memory, a crash in a library) than being unlucky.
MAX_RECOVERIES = 3


@dataclass(frozen=True)
class Recovery:
    """What a look at one run found. `did` is empty when nothing needed doing."""

    run_id: str
    stage: str | None
    did: str  # "" | "requeued" | "queued" | "finished" | "failed"
    reason: str

    def sentence(self) -> str:
        label = stage_label(self.stage) if self.stage else "the run"
        if not self.did:
            return f"Nothing to do: {label} {self.reason}."
        if self.did == "finished":
            return f"Marked the run finished: {self.reason}."
        if self.did == "failed" and self.stage is None:
            return f"Marked the run failed: {self.reason}"
        if self.did == "failed":
            return f"Marked the run failed: {label} {self.reason}."
        return f"Queued {label} for the workers: it {self.reason}."


# --- orphans at worker start ----------------------------------------------------------------


def orphaned_runs() -> list[tuple[str, str]]:
    """(run_id, stage) for every run with a stage marked running and nobody working on it."""
    found = []
    for run_id in run_ids():
        stage = _running_stage(run_id)
        if stage is not None:
            found.append((run_id, stage))
    return found


def _running_stage(run_id: str) -> str | None:
    try:
        store = store_for(run_id)
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
    """At worker start: resume every run left mid-stage, without waiting for its lease.
    This scans the folders, so it also finds runs the database does not list."""
    resumed = []
    for run_id, _stage in orphaned_runs():
        try:
            recovery = recover_run(run_id, settings.STAGE_LEASE, waiting=set(), running_lease=0.0)
        except Exception as exc:  # the supervisor tries again; the worker must start
            if not out_of_space(run_id, exc):
                logger.exception("could not resume run %s", run_id)
            continue
        if recovery.did:
            resumed.append(run_id)
    return resumed


def out_of_space(run_id: str, exc: BaseException) -> bool:
    """A run that could not be moved on for want of disk space waits for room: its row says
    so, and one log line says it once, not a traceback every pass."""
    cause = diskspace.full(exc)
    if cause is None:
        return False
    try:
        stage = _current_stage(store_for(run_id).index()) or active_stages()[0]
    except (OSError, StoreError):
        stage = active_stages()[0]
    if rows.wait_for_space(run_id, stage):
        logger.warning(
            "run %s: %s waits for disk space (%s); it goes on once a write succeeds",
            run_id,
            stage_label(stage),
            cause.strerror or cause,
        )
    return True


# --- one run --------------------------------------------------------------------------------


def recover_run(
    run_id: str,
    lease: float,
    *,
    waiting: set[tuple[str, str]] | None = None,
    running_lease: float | None = None,
) -> Recovery:
    """Judge one run and, if it is stuck, move it on. `waiting` holds the (stage, run id)
    messages known to wait in the broker; None when the broker could not be read. A
    running stage nobody holds is taken back once its heartbeat is `running_lease` old
    (default: `lease`); a worker that has just started takes such orphans back at once."""
    store = store_for(run_id)
    if not store.found():
        return Recovery(run_id, None, "", "has no run folder")
    leases = (lease, lease if running_lease is None else running_lease)
    if rows.waiting_for_space(run_id):
        # Its stage stopped for want of space and nobody is running it: it is sent again
        # at the first pass whose write gets through, not a lease later.
        leases = (0.0, 0.0)
    try:
        with store.lock():
            cannot = _rebuild_manifest(store)
            return cannot or _recover_locked(store, leases, waiting)
    except RunLocked:
        try:
            stage = _current_stage(store.index())
        except StoreError:  # its manifest is missing: the process holding it rebuilds it
            stage = None
        return Recovery(run_id, stage, "", "is being worked on by a live process")


def _rebuild_manifest(store: RunStore) -> Recovery | None:
    """A manifest gone missing or unreadable is rebuilt from the run's row and its sound
    files, as the run page and resume do; the stages whose files are not sound run again.
    A Recovery when it cannot be (no row holds the run's parameters)."""
    damage = repair.manifest_damage(store)
    if damage is None:
        return None
    try:
        said = repair.rebuild_manifest(store, damage)
    except StoreError as exc:
        return Recovery(store.run_id, None, "", f"cannot be recovered: {exc}")
    logger.warning("run %s: index.json %s; Verdict %s", store.run_id, damage.problem, said)
    return None


def _current_stage(index: dict[str, Any]) -> str | None:
    stages = index["stages"]
    return next(
        (s for s in active_stages() if stages[s]["status"] not in FINISHED),
        None,
    )


def _recover_locked(
    store: RunStore,
    leases: tuple[float, float],
    waiting: set[tuple[str, str]] | None,
) -> Recovery:
    lease, running_lease = leases
    index = store.index()
    stage = _current_stage(index)
    if stage is None:
        return _finish(store, index, lease)
    entry = index["stages"][stage]
    status = entry["status"]
    if status == "running":
        if _parts_waiting(store.run_id, stage, waiting):
            return Recovery(store.run_id, stage, "", "is waiting in the queue for a free worker")
        return _running(store, stage, entry, running_lease)
    if status == "queued":
        return _queued(store, stage, entry, lease, waiting)
    if status == "pending":
        return _pending(store, stage, index, lease)
    rows.mark_run(store.run_id, Run.Status.FAILED, stage, f"{stage}: {entry.get('error')}")
    return Recovery(store.run_id, stage, "failed", "had failed")


def _parts_waiting(run_id: str, stage: str, waiting: set[tuple[str, str]] | None) -> bool:
    """Whether a stage spread over workers (a split deep-read) has a part or its merge
    waiting in the broker: nobody runs it meanwhile, so its heartbeat goes stale, but the
    first free worker takes it."""
    return bool(waiting) and any((task, run_id) in waiting for task in tasks.PART_MESSAGES[stage])


def _running(store: RunStore, stage: str, entry: dict[str, Any], lease: float) -> Recovery:
    # This process holds the run lock, so nobody else is running the stage.
    if not _stale(entry.get("heartbeat") or entry.get("started"), lease):
        return Recovery(store.run_id, stage, "", "is running; its heartbeat is recent")
    limit = settings.STAGE_TIME_LIMIT + settings.STAGE_TIME_GRACE
    recoveries = entry.get("recoveries") or 0
    if _stale(entry.get("started"), limit):
        reason = f"took longer than {settings.STAGE_TIME_LIMIT} s, the stage time limit"
        return _give_up(store, stage, reason)
    if recoveries >= MAX_RECOVERIES:
        reason = f"lost its worker {recoveries + 1} times (killed, or out of memory?)"
        return _give_up(store, stage, reason)
    when = {"status": "running", "heartbeat": entry.get("heartbeat")}
    # A stage stopped for want of disk space did not lose its worker: that is not counted.
    waited = rows.waiting_for_space(store.run_id)
    fields = {**manifest.queued_fields(), "recoveries": recoveries + (0 if waited else 1)}
    reason = (
        "waited for disk space, and there is room again"
        if waited
        else ("was running with no live worker")
    )
    return _resend(store, stage, when, fields, reason)


def _queued(
    store: RunStore,
    stage: str,
    entry: dict[str, Any],
    lease: float,
    waiting: set[tuple[str, str]] | None,
) -> Recovery:
    if not _stale(entry.get("queued_at"), lease):
        return Recovery(store.run_id, stage, "", "was queued moments ago")
    if waiting is None:
        return Recovery(store.run_id, stage, "", "is queued; the broker could not be read")
    if (stage, store.run_id) in waiting:
        return Recovery(store.run_id, stage, "", "is waiting in the queue for a free worker")
    when = {"status": "queued", "queued_at": entry.get("queued_at")}
    reason = "was queued, but no message for it was left in the broker"
    return _resend(store, stage, when, manifest.queued_fields(), reason)


def _pending(store: RunStore, stage: str, index: dict[str, Any], lease: float) -> Recovery:
    stages = active_stages()
    position = stages.index(stage)
    previous = stages[position - 1] if position else None
    since = index["stages"][previous]["finished"] if previous else index.get("created")
    if not _stale(since, lease):
        return Recovery(store.run_id, stage, "", "is about to be queued")
    after = f"{stage_label(previous)} finished" if previous else "the run was created"
    return _enqueue(store, stage, f"was never queued after {after}")


def _finish(store: RunStore, index: dict[str, Any], lease: float) -> Recovery:
    last = active_stages()[-1]
    # The worker that ran the last stage marks the run finished after letting go of its
    # lock: give it the lease to do so.
    since = index.get("finished") or index["stages"][last]["finished"]
    if not _stale(since, lease):
        return Recovery(store.run_id, None, "", "is about to be marked finished")
    manifest.finish_run(store.run_id, last)
    reason = "every stage had finished, but the run was never marked finished"
    store.log("run_recovered", stage=None, reason=reason)
    return Recovery(store.run_id, None, "finished", reason)


def _resend(
    store: RunStore, stage: str, when: dict[str, Any], fields: dict[str, Any], reason: str
) -> Recovery:
    if not manifest.transition(store, stage, when, **fields):
        return Recovery(store.run_id, stage, "", "was just moved on by another process")
    _send(store.run_id, stage)
    store.log("run_recovered", stage=stage, reason=reason)
    return Recovery(store.run_id, stage, "requeued", reason)


def _enqueue(store: RunStore, stage: str, reason: str, event: str = "run_recovered") -> Recovery:
    if not tasks.enqueue(store.run_id, stage):
        return Recovery(store.run_id, stage, "", "was just moved on by another process")
    store.log(event, stage=stage, reason=reason)
    return Recovery(store.run_id, stage, "queued", reason)


def _send(run_id: str, stage: str) -> None:
    """Send the stage's message. If the broker refuses, the error goes up and the stage
    stays queued with a fresh lease: a pass after the lease sends it again."""
    tasks.STAGE_TASKS[stage].delay(run_id)


def _give_up(store: RunStore, stage: str, reason: str) -> Recovery:
    manifest.fail_stage(store, stage, reason, only_if="running")
    return Recovery(store.run_id, stage, "failed", reason)


def _stale(stamp: str | None, lease: float) -> bool:
    """True when `stamp` (an ISO time) is more than `lease` seconds ago, or missing."""
    if not stamp:
        return True
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return True
    return (datetime.now(UTC) - then).total_seconds() > lease


# --- the operator ---------------------------------------------------------------------------


def resume(run_id: str) -> str:
    """Hand an unfinished run back to the workers from where it stopped, whatever state it
    was left in, and say what was done. An operator is asking, so no lease is waited for:
    a stage nobody is working on is queued again at once."""
    stage = manifest.first_unfinished(run_id)
    store = store_for(run_id)
    if stage is None:
        if not store.index().get("finished"):
            manifest.finish_run(run_id, active_stages()[-1])
            return "Every stage already has valid output: marked the run finished."
        return "Every stage already has valid output; nothing to queue."
    entry = store.index()["stages"][stage]
    if entry["status"] in FINISHED or manifest.cancelled(store):
        # Its output was damaged or removed, or the run was cancelled: asking to resume
        # is asking to carry on.
        manifest.reset_from(run_id, stage)
        entry = store.index()["stages"][stage]
    Run.objects.filter(run_id=run_id, status=Run.Status.FAILED).update(
        status=Run.Status.QUEUED, current_stage=stage, error="", finished=None
    )
    if entry["status"] in ("queued", "running"):
        return recover_run(run_id, 0.0, waiting=broker.waiting_messages()).sentence()
    if entry["status"] == "failed":
        reason = f"had failed ({entry.get('error') or 'no reason recorded'})"
    else:
        reason = "is the first stage without valid output"
    return _enqueue(store, stage, reason, event="run_resumed").sentence()
