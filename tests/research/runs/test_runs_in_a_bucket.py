"""Whole runs with RUNS_STORE=s3://...: the same files as in a run folder, read by the same
pages, found by the same recovery scan."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import re
import time

import pytest
import redis
from django.core.management import call_command

from research.models import Run
from research.runs import execute, recovery, tasks
from research.runs.registry import REGISTRY
from research.store import store_for
from tests.objectstore import CREDENTIALS
from tests.processes import wait_until
from tests.runs import (
    CORPUS_EN,
    QUESTION,
    assert_artifacts_intact,
    drive,
    new_run,
    serve_pages,
    served_run,
)
from tools.bench.hosts import ELAPSED, GENERATED

# What differs between any two runs of one question: the run's own id (report.md names it),
# how long each search took (round_1_candidates.json) and, a midnight apart, the day the
# report was written.


def research(*args: str) -> str:
    out = io.StringIO()
    call_command("research", *args, stdout=out, no_color=True)
    return out.getvalue()


def cli_run() -> tuple[str, str]:
    output = research(QUESTION, "--source", f"local:{CORPUS_EN}")
    return re.search(r"^Run (\w+): ", output, re.MULTILINE).group(1), output


def files_of(run_id: str) -> dict[str, tuple[str, str]]:
    """Each artifact the manifest lists: (its sha256 there, the sha256 of its bytes as read
    through the store, with the run id and search times written the same way)."""
    store = store_for(run_id)
    found = {}
    for entry in store.index()["artifacts"]:
        data = store.read_bytes(entry["name"])  # checked against the manifest's sha256
        data = ELAPSED.sub(b'"elapsed_ms": 0', data.replace(run_id.encode(), b"RUN-ID"))
        data = GENERATED.sub(rb"\1DAY", data)
        found[entry["name"]] = (entry["sha256"], hashlib.sha256(data).hexdigest())
    return found


@pytest.mark.django_db
def test_a_run_kept_in_a_bucket_writes_the_same_files_as_in_a_folder(
    runs_dir, s3_runs, settings, django_user_model
):
    django_user_model.objects.create_superuser("root", password="x" * 12)
    settings.RUNS_STORE = ""
    started = time.monotonic()
    in_folder, _ = cli_run()
    folder_took = time.monotonic() - started
    settings.RUNS_STORE = s3_runs.runs_store
    in_bucket, output = cli_run()
    bucket_took = time.monotonic() - started - folder_took
    print(f"\none CLI run: {folder_took:.1f} s in a folder, {bucket_took:.1f} s in a bucket")

    where = f"s3://{s3_runs.name}/verdict/runs/{in_bucket}"
    assert f"Run {in_bucket}: {where}" in output
    assert f"Report: {where}/report.md" in output
    assert Run.objects.get(run_id=in_bucket).status == Run.Status.DONE
    assert not (runs_dir / in_bucket).exists(), "nothing of the bucket's run is in a folder"
    assert f"verdict/runs/{in_bucket}/report.md" in s3_runs.object_keys()

    bucket_files = files_of(in_bucket)
    settings.RUNS_STORE = ""
    folder_files = files_of(in_folder)
    assert sorted(bucket_files) == sorted(folder_files)
    assert len(bucket_files) > 8
    for name, (recorded, normalised) in folder_files.items():
        assert bucket_files[name][1] == normalised, name
        if name not in ("report.md", "round_1_candidates.json"):
            assert bucket_files[name][0] == recorded, f"{name} differs byte for byte"


@pytest.mark.django_db
def test_the_pages_of_a_run_kept_in_a_bucket_show_its_files(s3_runs, ada, ada_client):
    run = new_run(owner=ada)
    drive(run.run_id)
    store = store_for(run.run_id)
    assert_artifacts_intact(store)

    listing = ada_client.get(f"/runs/{run.run_id}/artifacts/")
    assert listing.status_code == 200
    assert "round_5_decision.json" in listing.content.decode()
    shown = ada_client.get(f"/runs/{run.run_id}/artifacts/view/log.jsonl")
    assert shown.status_code == 200 and "run_created" in shown.content.decode()
    download = ada_client.get(f"/runs/{run.run_id}/artifacts/download/report.md")
    assert b"".join(download.streaming_content) == store.read_bytes("report.md")
    report = ada_client.get(f"/runs/{run.run_id}/report/")
    assert report.status_code == 200
    export = ada_client.get(f"/runs/{run.run_id}/export.md")
    assert export.status_code == 200 and "# Decision report" in export.content.decode()


@pytest.mark.django_db
def test_recovery_finds_a_run_left_mid_stage_in_the_bucket_once_its_lease_is_gone(s3_runs, ada):
    run = new_run(owner=ada)
    store = store_for(run.run_id)
    store.update_index(lambda index: index["stages"]["retrieve"].update(status="running"))
    with store.lock():
        assert recovery.orphaned_runs() == []
    assert recovery.orphaned_runs() == [(run.run_id, "retrieve")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_with_no_runs_folder_of_its_own_runs_a_run_kept_in_a_bucket(
    s3_runs, workers, testweb, tmp_path
):
    scratch = tmp_path / "worker-runs"  # the worker's own RUNS_DIR, never written
    env = {"RUNS_STORE": s3_runs.runs_store, "S3_ENDPOINT_URL": s3_runs.endpoint}
    workers.start(RUNS_DIR=str(scratch), STAGE_LEASE="5", **env, **CREDENTIALS)
    run = served_run(serve_pages(testweb, delay=0))
    tasks.start(run.run_id)
    wait_until(lambda: Run.objects.get(pk=run.pk).status in ("done", "failed"), 120, "the run")

    run.refresh_from_db()
    assert run.status == "done", run.error
    store = store_for(run.run_id)
    assert_artifacts_intact(store)
    assert "## Recommendation" in store.read_text("report.md")
    assert store.index()["fence"] >= 5, "each stage was written under its own lease"
    assert not scratch.exists() or not any(scratch.iterdir())


@pytest.mark.django_db
def test_a_damaged_manifest_in_a_bucket_is_rebuilt_and_kept_beside_it(s3_runs, ada):
    run = new_run(owner=ada)
    drive(run.run_id)
    store = store_for(run.run_id)
    store.backend.write("index.json", b'{"run_id": "x", "stag')  # as a bad hand edit would

    output = research("--resume", run.run_id)

    assert "index.json is damaged: it is not valid JSON" in output
    assert "rebuilt the manifest; every stage's output is sound" in output
    kept = s3_runs.get(f"verdict/runs/{run.run_id}/index.json.damaged")
    assert kept == b'{"run_id": "x", "stag'
    assert store.index()["params"]["question"] == QUESTION
    assert_artifacts_intact(store)


@pytest.mark.django_db
def test_a_stage_whose_lease_was_taken_over_steps_aside_and_leaves_the_new_holders_work(
    s3_runs, redis_url, ada, monkeypatch
):
    run = new_run(owner=ada)
    taken_over: list = []

    def slow_retrieve(store, ctx):
        # A pause past the lease: it lapses, and another worker takes the run and writes.
        client = redis.Redis.from_url(redis_url)
        client.delete(*client.keys(f"*:{run.run_id}:lease"))
        other = store_for(run.run_id)
        holding = other.lock()
        holding.__enter__()
        taken_over.append(holding)
        other.write_text("round_0_plan.json", '{"by": "the new holder"}')
        store.write_text("round_0_plan.json", '{"by": "the old holder"}')
        return {}

    spec = dataclasses.replace(REGISTRY["retrieve"], run=slow_retrieve)
    monkeypatch.setitem(REGISTRY, "retrieve", spec)

    result = execute.execute_stage(run.run_id, "retrieve")
    taken_over[0].__exit__(None, None, None)

    assert result.status == "locked"
    store = store_for(run.run_id)
    assert store.read_text("round_0_plan.json") == '{"by": "the new holder"}'
    assert store.index()["stages"]["retrieve"]["status"] == "running", "not failed by the old"
    assert store.index()["fence"] == 2
