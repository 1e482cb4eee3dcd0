"""Chaos: a real worker killed with SIGKILL at many points of a run, then restarted.

Each run is armed with one point (a file named by VERDICT_PAUSE_FILE, read by
research.execute.pause_point): the worker stops there, the test kills it with SIGKILL,
starts a fresh worker and times how long the run takes to finish. Every run must finish
within seconds of the restart, with the same artifacts as a clean run and each stage
finished once in its log.
"""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path

import pytest
from django.conf import settings

from research.runs import tasks
from research.store import RunStore, store_for
from tests.processes import Workers, wait_until
from tests.runs import assert_artifacts_intact, serve_pages, served_run

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LEASE = "2"  # seconds; a restarted worker takes longer than this to boot
# Where a worker is killed, as <stage>:<point>. received: the stage's message taken, the
# stage not started. running: mid-stage, its heartbeat going. written: its outputs on
# disk, the stage not yet marked done. finished: done, the next stage never queued (or,
# after decide, the run never marked finished). queued: marked queued, its message never
# sent. sent: the next stage's message sent, this stage's message never acknowledged.
KILL_POINTS = [
    "retrieve:received",
    "retrieve:running",
    "retrieve:finished",
    "filter:queued",
    "filter:running",
    "filter:finished",
    "deepread:sent",
    "deepread:running",
    "deepread:written",
    "deepread:finished",
    "crosscheck:queued",
    "crosscheck:running",
    "crosscheck:finished",
    "decide:sent",
    "decide:running",
    "decide:written",
    "decide:finished",
]
# Log lines about recovery itself, which a clean run never writes.
RECOVERY_EVENTS = {"run_recovered", "stage_skipped", "stage_deferred", "temporary_files_removed"}
NOT_ARTIFACTS = {"index.json", "log.jsonl", ".lock", ".index.lock"}
# Waits end on what they wait for; this only stops a broken run from hanging the suite.
SAFETY = 300.0
ELAPSED = re.compile(rb'"elapsed_ms": \d+')


def artifact_digests(store: RunStore) -> dict[str, str]:
    """sha256 of every file in the run folder but the manifest, the log and the locks.
    Two things differ between any two clean runs and are written the same way here: the
    run's own id (named in report.md) and how long each search took (elapsed_ms in
    round_1_candidates.json)."""
    digests = {}
    for path in sorted(store.path.rglob("*")):
        if path.is_file() and path.name not in NOT_ARTIFACTS:
            data = path.read_bytes().replace(store.run_id.encode(), b"RUN-ID")
            data = ELAPSED.sub(b'"elapsed_ms": 0', data)
            digests[path.relative_to(store.path).as_posix()] = hashlib.sha256(data).hexdigest()
    return digests


def decisions(store: RunStore) -> list[dict]:
    """The log as a clean run writes it: each stage's last attempt, without times, attempt
    numbers or recovery lines. An attempt cut short by the kill is left out."""
    kept: list[dict] = []
    attempt: list[dict] = []
    for line in store.read_log():
        event = {k: v for k, v in line.items() if k not in ("ts", "attempt")}
        if event["event"] in RECOVERY_EVENTS:
            continue
        if event["event"] == "stage_started":
            attempt = [event]
        elif attempt:
            attempt.append(event)
            if event["event"] == "stage_finished":
                kept += attempt
                attempt = []
        else:
            kept.append(event)
    return kept


def count(store: RunStore, event: str, **fields) -> int:
    return sum(
        1
        for e in store.read_log()
        if e["event"] == event and all(e.get(k) == v for k, v in fields.items())
    )


def wait_done(run, timeout: float) -> None:
    def finished() -> bool:
        run.refresh_from_db()
        return run.status in ("done", "failed")

    wait_until(finished, timeout, f"run {run.run_id} to finish")
    assert run.status == "done", run.error


def wait_recovered(
    workers: Workers, proc, run, recoveries: int, timeout: float
) -> tuple[float, float]:
    """Seconds until the run is over, counted from now and from the worker being ready.

    Over means every record of its end is in: the row says done or failed, the log has its
    one run_finished line and, where a recovery was due, the run_recovered line. Recovery
    marks the row done a moment before it logs why, so the row alone is not the end: a
    busy machine stretches that moment.
    """
    store = store_for(run.run_id)
    started = time.monotonic()
    ready = None

    def over() -> bool:
        nonlocal ready
        if ready is None and " ready." in workers.log_of(proc):
            ready = time.monotonic()
        run.refresh_from_db()
        if run.status == "failed":
            return True
        return (
            run.status == "done"
            and count(store, "run_finished") >= 1
            and count(store, "run_recovered") >= recoveries
        )

    wait_until(over, timeout, f"run {run.run_id} to finish after the restart")
    assert run.status == "done", run.error
    done = time.monotonic()
    return done - started, done - (ready or done)


def wait_paused(workers: Workers, proc, run_id: str, point: str) -> None:
    wait_until(
        lambda: f"paused at {run_id}:{point}" in workers.log_of(proc),
        SAFETY,
        f"the worker to reach {point}",
    )


def test_a_worker_killed_anywhere_in_a_run_costs_seconds_and_changes_nothing(
    workers, testweb, tmp_path
):
    base = serve_pages(testweb, delay=0)
    pause = tmp_path / "pause-at"
    env = {"STAGE_LEASE": LEASE, "VERDICT_PAUSE_FILE": str(pause)}

    # A clean run first, on the worker that is then killed at the first point.
    worker = workers.start(**env)
    clean = served_run(base)
    tasks.start(clean.run_id)
    wait_done(clean, SAFETY)
    reference = store_for(clean.run_id)
    expected_files, expected_log = artifact_digests(reference), decisions(reference)

    figures = []
    for point in KILL_POINTS:
        run = served_run(base)
        pause.write_text(f"{run.run_id}:{point}", encoding="utf-8")
        tasks.start(run.run_id)
        wait_paused(workers, worker, run.run_id, point)
        workers.kill(worker)
        pause.write_text("", encoding="utf-8")
        worker = workers.start(**env)
        # One recovery per kill, except where the next stage's message was already sent.
        recoveries = 0 if point.endswith(":sent") else 1
        figures.append((point, *wait_recovered(workers, worker, run, recoveries, SAFETY)))

        store = store_for(run.run_id)
        assert artifact_digests(store) == expected_files, point
        assert decisions(store) == expected_log, point
        for stage in store.index()["stages"]:
            assert count(store, "stage_finished", stage=stage) == 1, (point, stage)
        assert count(store, "run_finished") == 1, point
        assert count(store, "run_recovered") == recoveries, point
        assert_artifacts_intact(store)

    report = chaos_report(figures)
    print("\n" + report)
    out = Path(settings.BASE_DIR) / "test-output"
    out.mkdir(exist_ok=True)
    (out / "chaos.txt").write_text(report + "\n", encoding="utf-8")
    # Once the restarted worker is ready, recovery is a matter of the lease and a recovery
    # pass; how long the worker takes to boot depends on the machine's load.
    assert max(after_ready for _, _, after_ready in figures) < 30, report


def chaos_report(figures: list[tuple[str, float, float]]) -> str:
    worst_point, worst, _ = max(figures, key=lambda f: f[1])
    after_ready = max(f[2] for f in figures)
    lines = [
        f"chaos: {len(figures)} kill points (SIGKILL), every run finished with artifacts "
        "identical to a clean run and each stage finished once",
        f"worst recovery: {worst:.1f} s from the restart to the run finished ({worst_point}); "
        f"at most {after_ready:.1f} s once the restarted worker was ready",
        f"  {'kill point':<22} {'restart->done':>13} {'ready->done':>11}",
    ]
    lines += [f"  {p:<22} {s:11.1f} s {r:9.1f} s" for p, s, r in figures]
    return "\n".join(lines)
