"""Whole runs in-process through the run engine (research.runs), no Celery."""

from __future__ import annotations

import hashlib

import pytest
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

from research.models import Run
from research.outcomes import Outcome
from research.runs import execute, manifest, registry, spec
from research.store import RunStore, store_for
from tests.processes import wait_until
from tests.runs import CORPUS_EN, drive, events, new_run
from tests.testweb import TestWeb

pytestmark = pytest.mark.django_db

CORPUS = CORPUS_EN
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"
# Run files that are not artifacts: the manifest, the log and the lock files.
BOOKKEEPING = {"index.json", "log.jsonl", ".lock", ".index.lock"}


def attempts(store: RunStore) -> dict[str, int]:
    return {s: e["attempts"] for s, e in store.index()["stages"].items()}


@pytest.fixture
def finished_store() -> RunStore:
    # "overnight proofing" pulls the corpus's bread recipe in as an off-topic candidate,
    # and a low cut drops more, so the filter has two kinds of drop to explain.
    run = new_run(
        dimensions=[
            {"name": "cost", "weight": 2},
            {"name": "extensibility", "weight": 1},
            {"name": "overnight proofing", "weight": 1},
        ],
        limits={"max_kept": 8},
    )
    drive(run.run_id)
    return store_for(run.run_id)


# --- idempotence and re-runs --------------------------------------------------------------


def test_a_stage_whose_valid_output_exists_is_skipped_on_a_rerun(finished_store):
    store = finished_store
    before = store.read_bytes("round_2_filtered.json")
    result = execute.execute_stage(store.run_id, "filter")
    assert result.status == "skipped"
    assert store.read_bytes("round_2_filtered.json") == before
    assert events(store, "stage_skipped")[-1]["stage"] == "filter"
    assert attempts(store)["filter"] == 1


def test_a_tampered_output_makes_its_stage_run_again(finished_store):
    store = finished_store
    path = store.artifact_path("round_2_filtered.json")
    path.write_text(path.read_text(encoding="utf-8").replace('"kept"', '"kept" '), "utf-8")
    assert manifest.first_unfinished(store.run_id) == "filter"
    result = execute.execute_stage(store.run_id, "filter")
    assert result.status == "done"
    assert attempts(store)["filter"] == 2
    assert store.is_valid("round_2_filtered.json")


def test_resetting_from_filter_reruns_every_later_stage_but_not_retrieve(finished_store):
    store = finished_store
    manifest.reset_from(store.run_id, "filter")
    results = drive(store.run_id)
    assert [r.stage for r in results] == ["filter", "deepread", "crosscheck", "decide"]
    assert {r.status for r in results} == {"done"}
    assert attempts(store) == {
        "retrieve": 1,
        "filter": 2,
        "deepread": 2,
        "crosscheck": 2,
        "decide": 2,
    }
    assert events(store, "rerun_requested")[-1]["from_stage"] == "filter"


# --- failure ------------------------------------------------------------------------------


def test_a_question_without_two_options_fails_the_run_with_a_readable_reason():
    run = new_run("What should we use for syncing our notes app?")
    with pytest.raises(spec.StageError, match="at least two options"):
        execute.execute_stage(run.run_id, "retrieve")
    store = store_for(run.run_id)
    entry = store.index()["stages"]["retrieve"]
    assert entry["status"] == "failed"
    assert "at least two options" in entry["error"]
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert run.error.startswith("retrieve: name at least two options")
    assert run.stages.get(stage="retrieve").status == "failed"
    assert events(store, "stage_failed")[0]["error"] == entry["error"]


# --- replan -------------------------------------------------------------------------------

NARROW = [
    ("https://alderstream.example/docs/licence", "Alderstream licence", "MIT licensed."),
    ("https://brightwell.example/docs/licence", "Brightwell licence", "Apache-2.0 licensed."),
]
BROAD = [
    (
        "https://reviews.example/alderstream-pros-and-cons",
        "Alderstream pros and cons after a year in production",
        "What went well and what hurt when we ran Alderstream for our team.",
    ),
    (
        "https://blog.example/brightwell-review",
        "Brightwell review: the good, the bad and the licence",
        "A long look at Brightwell, its maintainers and its release cadence.",
    ),
    (
        "https://compare.example/alderstream-vs-brightwell",
        "Alderstream vs Brightwell: a practical comparison",
        "Benchmarks, licences and community size side by side for both engines.",
    ),
    (
        "https://forum.example/t/moving-from-brightwell-to-alderstream",
        "Why we moved from Brightwell to Alderstream",
        "Our migration story, including the parts of the move that took longest.",
    ),
]


def searxng_results(query: str) -> list[dict]:
    """Two relevant hits for any query, and more only for the broadened ones."""
    broadened = query.endswith("pros and cons") or query == "Alderstream vs Brightwell"
    hits = NARROW + (BROAD if broadened else [])
    return [{"url": u, "title": t, "content": c} for u, t, c in hits]


def test_too_few_kept_sources_make_filter_replan_with_broader_queries(testweb: TestWeb):
    base = testweb.add_searxng(searxng_results)
    run = new_run(
        "Choose between Alderstream and Brightwell for our sync layer",
        sources=[f"searxng:{base}"],
        dimensions=[{"name": "licence risk", "weight": 1}],
    )
    execute.execute_stage(run.run_id, "retrieve")
    store = store_for(run.run_id)
    assert len(store.read_json("round_1_candidates.json")["candidates"]) == 2

    result = execute.execute_stage(run.run_id, "filter")

    assert result.counts["replans"] == 1
    replans = store.index()["replans"]
    assert len(replans) == 1
    assert "fewer than 3" in replans[0]["reason"]
    assert "Alderstream pros and cons" in replans[0]["queries"]
    assert events(store, "replan")[0]["reason"] == replans[0]["reason"]
    assert store.read_json("round_0_plan.json")["broadened"] is True
    kept = {k["url"] for k in store.read_json("round_2_filtered.json")["kept"]}
    assert kept == {u for u, _, _ in NARROW + BROAD}
    assert store.is_valid("round_0_plan.json") and store.is_valid("round_1_candidates.json")


# --- artifacts and the log ----------------------------------------------------------------


def test_every_artifact_of_a_full_run_matches_its_recorded_size_and_sha256(finished_store):
    store = finished_store
    listed = store.index()["artifacts"]
    assert {a["name"] for a in listed} >= {
        "round_0_plan.json",
        "round_1_candidates.json",
        "round_2_filtered.json",
        "round_3_notes.json",
        "round_3_notes.md",
        "round_4_crosscheck.json",
        "round_5_decision.json",
        "report.md",
    }
    for entry in listed:
        data = store.read_bytes(entry["name"])
        assert len(data) == entry["bytes"], entry["name"]
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["name"]
    on_disk = {
        p.relative_to(store.path).as_posix()
        for p in store.path.rglob("*")
        if p.is_file() and p.name not in BOOKKEEPING
    }
    assert on_disk == {a["name"] for a in listed}


def test_the_log_explains_every_dropped_candidate(finished_store):
    store = finished_store
    dropped = store.read_json("round_2_filtered.json")["dropped"]
    reasons = {d["reason"].split(":")[0] for d in dropped}
    assert reasons == {"off topic", "below the cut"}
    logged = events(store, "candidate_dropped")
    assert sorted((e["id"], e["reason"]) for e in logged) == sorted(
        (d["id"], d["reason"]) for d in dropped
    )


# --- provider outcomes --------------------------------------------------------------------


@pytest.fixture
def emptyweb():
    web = TestWeb().start()
    yield web
    web.stop()


def test_a_provider_that_is_down_is_not_mistaken_for_one_that_found_nothing(
    testweb: TestWeb, emptyweb: TestWeb
):
    testweb.add("/search", "internal error", status=500, content_type="text/plain")
    down = f"searxng:{testweb.base}"
    empty = f"searxng:{emptyweb.add_searxng(lambda q: [])}"
    run = new_run(
        "Choose between Alderstream and Brightwell",
        sources=[down, empty],
        dimensions=[{"name": "cost", "weight": 1}],
    )
    result = execute.execute_stage(run.run_id, "retrieve")
    store = store_for(run.run_id)
    calls = store.read_json("round_1_candidates.json")["provider_calls"]
    outcomes = {(c["provider"], c["outcome"]) for c in calls}
    assert outcomes == {(down, Outcome.UNAVAILABLE.value), (empty, Outcome.NO_HIT.value)}
    queries = len(store.read_json("round_0_plan.json")["queries"])
    assert result.counts["outcomes"] == {"UNAVAILABLE": queries, "NO_HIT": queries}
    logged = {(e["provider"], e["outcome"]) for e in events(store, "provider_outcome")}
    assert logged == outcomes
    assert store.index()["provider_outcomes"]["retrieve"] == {
        down: {"UNAVAILABLE": queries},
        empty: {"NO_HIT": queries},
    }


def test_a_stage_the_broker_refuses_is_not_left_marked_queued(monkeypatch):
    from research.runs import tasks

    run = new_run("Choose between Alderstream and Brightwell", sources=["ddgs"])

    def refuse(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.STAGE_TASKS["retrieve"], "delay", refuse)
    with pytest.raises(ConnectionError):
        tasks.enqueue(run.run_id, "retrieve")
    store = store_for(run.run_id)
    assert store.index()["stages"]["retrieve"]["status"] == "pending"


def test_the_replans_searches_are_counted_in_the_manifest_under_filter(testweb: TestWeb):
    base = testweb.add_searxng(searxng_results)
    run = new_run(
        "Choose between Alderstream and Brightwell for our sync layer",
        sources=[f"searxng:{base}"],
        dimensions=[{"name": "licence risk", "weight": 1}],
    )
    execute.execute_stage(run.run_id, "retrieve")
    execute.execute_stage(run.run_id, "filter")
    store = store_for(run.run_id)
    made = store.read_json("round_1_candidates.json")["provider_calls"]
    recorded = store.index()["provider_outcomes"]
    first, replan = recorded["retrieve"], recorded["filter"]
    counted = [*first.values(), *replan.values()]
    total = sum(n for by_outcome in counted for n in by_outcome.values())
    assert total == len(made)
    assert replan == {f"searxng:{base}": {"OK": store.index()["replans"][0]["calls"]}}


# --- liveness, time limits and leftovers ----------------------------------------------------


def test_a_running_stage_stamps_a_heartbeat_until_it_ends():
    run = new_run()
    store = store_for(run.run_id)
    manifest.mark_stage(store, "retrieve", status="running", heartbeat="2000-01-01T00:00:00")
    stamps = set()

    def stamped() -> bool:
        stamps.add(store.index()["stages"]["retrieve"]["heartbeat"])
        return len(stamps) >= 3

    with execute.Heartbeat(store, "retrieve", every=0.02):
        wait_until(stamped, 5, "three heartbeats")
    last = store.index()["stages"]["retrieve"]["heartbeat"]
    manifest.mark_stage(store, "retrieve", status="done")
    with execute.Heartbeat(store, "retrieve", every=0.02) as beat:
        beat._stop.wait(0.2)
    assert store.index()["stages"]["retrieve"]["heartbeat"] == last, "a done stage has no beat"


def _stage_that_runs_out_of_time(store, ctx):
    raise SoftTimeLimitExceeded()


def test_a_stage_stopped_by_its_time_limit_fails_the_run_with_a_readable_reason(monkeypatch):
    from research.runs import tasks

    run = new_run()
    retrieve = registry.REGISTRY["retrieve"]
    monkeypatch.setitem(
        registry.REGISTRY,
        "retrieve",
        spec.StageSpec("retrieve", retrieve.outputs, _stage_that_runs_out_of_time),
    )
    limit = execute.TimeLimit(20, (SoftTimeLimitExceeded,))
    with pytest.raises(SoftTimeLimitExceeded):
        execute.execute_stage(run.run_id, "retrieve", time_limit=limit)
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert run.error == (
        "retrieve: took longer than 20 s, the stage time limit (STAGE_TIME_LIMIT), and was stopped"
    )
    assert tasks.SOFT_LIMIT.errors == (SoftTimeLimitExceeded,)


def test_a_stage_killed_at_its_hard_time_limit_fails_the_run_with_a_readable_reason(settings):
    from research.runs import tasks

    run = new_run()
    store = store_for(run.run_id)
    manifest.mark_stage(store, "deepread", status="running")
    task = tasks.STAGE_TASKS["deepread"]
    task.on_failure(TimeLimitExceeded(1860), "task-id", (run.run_id,), {}, None)
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert run.error.startswith(
        f"deepread: took longer than {settings.STAGE_TIME_LIMIT} s, the stage time limit"
    )
    assert store.index()["stages"]["deepread"]["status"] == "failed"
    assert task.soft_time_limit == settings.STAGE_TIME_LIMIT
    assert task.time_limit == settings.STAGE_TIME_LIMIT + settings.STAGE_TIME_GRACE


def test_starting_a_stage_removes_what_a_killed_writer_left_behind():
    run = new_run()
    store = store_for(run.run_id)
    leftover = store.path / ".round_0_plan.json.x1y2z3.tmp"
    leftover.write_text('{"question": "half', encoding="utf-8")
    execute.execute_stage(run.run_id, "retrieve")
    assert not leftover.exists()
    removed = events(store, "temporary_files_removed")
    assert removed == [
        {**removed[0], "stage": "retrieve", "files": [".round_0_plan.json.x1y2z3.tmp"]}
    ]


def test_a_cancelled_run_queues_nothing_and_skips_a_stage_message_that_still_arrives(
    monkeypatch,
):
    from research.runs import tasks
    from research.services import cancel_run, rerun_from

    sent = []
    monkeypatch.setattr(tasks, "enqueue", lambda run_id, stage: sent.append(stage) or True)
    run = new_run()
    store = store_for(run.run_id)
    assert tasks.advance(run.run_id, "retrieve") == "done"
    assert sent == ["filter"]

    cancel_run(Run.objects.get(pk=run.pk), by="ada")
    assert manifest.mark_queued(run.run_id, "filter") is False
    # The filter message was already in the broker: it arrives, and nothing runs.
    assert tasks.advance(run.run_id, "filter") == "cancelled"
    assert store.index()["stages"]["filter"]["attempts"] == 0
    assert sent == ["filter"]
    assert [e["reason"] for e in events(store, "stage_not_run")] == ["the run was cancelled"]

    # A re-run clears the mark and carries on.
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: tasks.advance(run_id, stage))
    rerun_from(Run.objects.get(pk=run.pk), "filter")
    assert store.index()["stages"]["filter"]["status"] == "done"
    assert sent == ["filter", "deepread"]
