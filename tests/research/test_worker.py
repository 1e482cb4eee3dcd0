"""Whole runs through a real Redis broker and real Celery worker processes."""

from __future__ import annotations

import hashlib

import pytest

from research import services, tasks
from research.store import RunStore
from tests.processes import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TOPICS = ("licence", "maintenance", "cost")


def serve_pages(testweb, delay: float) -> str:
    urls = []
    for n in range(4):
        option = ("Alderstream", "Brightwell")[n % 2]
        topic = TOPICS[n % 3]
        html = (
            f"<html><head><title>{option} {topic} notes {n}</title></head><body><article>"
            f"<h1>{option} {topic} notes {n}</h1><p>{option} is released under the MIT "
            f"License and its {topic} is well documented by the maintainers.</p>"
            f"<p>{option} shipped version 2.{n} in 2026 with about {20 + n} "
            f"contributors working on {topic}.</p></article></body></html>"
        )
        urls.append(testweb.add(f"/doc/{n}", html, delay=delay))

    def results(query: str) -> list[dict]:
        return [
            {
                "url": u,
                "title": f"{('Alderstream', 'Brightwell')[n % 2]} {TOPICS[n % 3]} notes {n}",
                "content": "release notes and licence",
            }
            for n, u in enumerate(urls)
        ]

    return testweb.add_searxng(results)


def new_run(base: str):
    return services.create_run(
        question="Choose between Alderstream and Brightwell",
        options=[],
        dimensions=[{"name": "licence risk", "weight": 2}, {"name": "maintenance", "weight": 1}],
        preset="",
        sources=[f"searxng:{base}"],
        limits={},
    )


def stage_status(store: RunStore, stage: str) -> str:
    return store.index()["stages"][stage]["status"]


def run_finished(run) -> bool:
    run.refresh_from_db()
    return run.status in ("done", "failed")


def assert_artifacts_intact(store: RunStore) -> None:
    names = store.artifact_names()
    assert len(names) == len(set(names)), "an artifact is listed twice"
    for entry in store.index()["artifacts"]:
        data = store.read_bytes(entry["name"])
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["name"]
        assert len(data) == entry["bytes"]
    leftovers = [p for p in store.path.rglob("*.tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"


def test_a_run_goes_through_the_broker_and_a_worker_from_start_to_finish(workers, testweb):
    base = serve_pages(testweb, delay=0)
    run = new_run(base)
    workers.start()
    tasks.start(run.run_id)
    store = services.store_for(run.run_id)
    wait_until(lambda: run_finished(run), 90, "the run to finish")
    notes = store.read_json("round_3_notes.json")
    assert [s["status"] for s in notes["sources"]] == ["OK"] * 4
    assert all(s["key_points"] for s in notes["sources"])
    assert_artifacts_intact(store)
    assert run.status == "done"
    assert set(run.stages.values_list("status", flat=True)) == {"done"}
    assert "## Recommendation" in store.read_text("report.md")


def test_a_run_whose_worker_is_killed_mid_stage_completes_after_a_restart(workers, testweb):
    base = serve_pages(testweb, delay=2.0)
    run = new_run(base)
    first = workers.start()
    tasks.start(run.run_id)
    store = services.store_for(run.run_id)
    wait_until(lambda: stage_status(store, "deepread") == "running", 90, "deep-read to start")
    workers.kill(first)
    assert stage_status(store, "deepread") == "running"
    assert not store.is_locked(), "the dead worker's lock was not released"

    workers.start()
    wait_until(lambda: run_finished(run), 90, "the run to finish after the restart")
    events = [e["event"] for e in store.read_log()]
    assert "run_recovered" in events
    assert store.index()["stages"]["deepread"]["attempts"] == 2
    notes = store.read_json("round_3_notes.json")
    ids = [s["source_id"] for s in notes["sources"]]
    assert len(ids) == len(set(ids)) == 4
    assert_artifacts_intact(store)
    assert run.status == "done"
    assert store.index()["stages"]["decide"]["attempts"] == 1
