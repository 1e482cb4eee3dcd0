"""Verdict on several hosts: PostgreSQL, Redis, runs kept in an S3-compatible bucket, a web
process and three workers, each with scratch folders of its own (tools.bench.hosts).

Twenty runs are asked through the web form. One worker is killed with SIGKILL in the
middle of a stage, another at a handover between two stages (the next stage recorded as
queued, its message never sent); a fresh host with empty folders joins. Every run must
finish with the same files as the same question run on one host (a folder, SQLite).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from research.artifacts import Question
from research.runs import manifest
from research.store import store_for
from tests.runs import drive
from tools.bench import hosts

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

RUNS = 20
MID_STAGE = "deepread:running"  # a worker killed while it reads the pages
HANDOVER = "crosscheck:queued"  # deep-read done, cross-validate recorded, never sent
SAFETY = 900.0  # waits end on what they wait for; this only stops a hang


def single_host_digests(ask: hosts.Ask, source: str) -> dict[str, str]:
    """The same question run in this process: runs in a folder, SQLite."""
    from research import services

    dimensions = [
        {"name": name, "weight": weight}
        for name, weight in zip(("licence risk", "maintenance"), ask.weights, strict=True)
    ]
    run = services.create_run(
        Question(
            question=ask.question,
            options=list(hosts.OPTIONS),
            dimensions=dimensions,
            sources=[f"searxng:{source}"],
        )
    )
    drive(run.run_id)
    assert manifest.first_unfinished(run.run_id) is None
    store = store_for(run.run_id)
    return hosts.artifact_digests(hosts.SharedFolder(Path(store.path).parent), run.run_id)


def killed_at(deployed: hosts.Deployment, run_id: str, point: str) -> hosts.Host:
    """Wait for a worker to stop at `point` of `run_id`, then kill it with SIGKILL."""
    line = f"paused at {run_id}:{point}"

    def paused() -> hosts.Host | None:
        return next((w for w in deployed.workers if w.said(line)), None)

    worker = hosts.wait_until(paused, SAFETY, f"a worker to reach {point} of {run_id}")
    deployed.kill(worker)
    return worker


def stage_finishes(deployed: hosts.Deployment, run_id: str) -> dict[str, int]:
    log = deployed.store.read(run_id, "log.jsonl").decode().splitlines()
    counts: dict[str, int] = {}
    for event in map(json.loads, log):
        if event["event"] == "stage_finished":
            counts[event["stage"]] = counts.get(event["stage"], 0) + 1
    return counts


def test_twenty_runs_on_three_hosts_outlive_two_killed_workers_with_one_hosts_files(
    postgres, testweb, allow_loopback, tmp_path, db, settings
):
    source = hosts.serve_pages(testweb)
    settings.SOURCES = {"web": f"searxng:{source}"}  # named as the deployment names it
    expected = {ask: single_host_digests(ask, source) for ask in hosts.ASKS}
    pause = tmp_path / "pause-at"  # read by every worker: where one of them stops
    with hosts.deployment(postgres, source, 3, VERDICT_PAUSE_FILE=str(pause)) as deployed:
        client = deployed.browser()
        asked = {deployed.ask(client, hosts.ASKS[0]): hosts.ASKS[0]}
        first = next(iter(asked))
        pause.write_text(f"{first}:{MID_STAGE}", encoding="utf-8")
        for n in range(1, RUNS):
            asked[deployed.ask(client, hosts.ASKS[n % len(hosts.ASKS)])] = hosts.ASKS[n % 4]
        last = list(asked)[-1]

        killed = [killed_at(deployed, first, MID_STAGE)]
        pause.write_text(f"{last}:{HANDOVER}", encoding="utf-8")
        killed.append(killed_at(deployed, last, HANDOVER))
        pause.write_text("", encoding="utf-8")
        deployed.start_worker()  # a new host, with nothing of the others' on its disk

        found = deployed.wait_finished(list(asked), SAFETY)
        failed = {run_id: error for run_id, (status, error) in found.items() if status != "done"}
        assert not failed, failed
        for run_id, ask in asked.items():
            assert hosts.artifact_digests(deployed.store, run_id) == expected[ask], run_id
            finishes = stage_finishes(deployed, run_id)
            assert set(finishes.values()) == {1} and len(finishes) == 5, (run_id, finishes)
        assert killed[0] is not killed[1] and not any(w.alive() for w in killed)
        # The runs lived in the bucket alone: no host wrote one into its own folders.
        for host in deployed.hosts:
            runs_dir = deployed.work / host.name / "runs"
            assert not any(runs_dir.iterdir()), f"{host.name} kept {list(runs_dir.iterdir())}"
