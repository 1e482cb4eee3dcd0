"""Tools an agent can use without guessing: every argument described, unknown arguments
refused, refusals in plain words, the sources to choose from, what a run was started with,
a blocking `research`, the report as Markdown in parts, and a run refused at once when no
worker would carry it out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from research.celery import app as celery_app
from research.models import Run
from research.runs import tasks
from research.runs import workers as worker_check
from research.store import store_for
from tests.processes import refused_port
from tests.research.mcp.clients import call, call_tool

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "notes_en"
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"
REPORT = "# Report\n\nChoose **Quillsync**: it syncs offline.\n\n" + "Evidence line.\n" * 400


@pytest.fixture(autouse=True)
def configured(settings, monkeypatch, tmp_path):
    settings.SOURCES = {"notes": f"local:{CORPUS}", "gone": f"local:{tmp_path / 'missing'}"}
    settings.DEFAULT_SOURCES = ["notes"]
    started: list[str] = []
    monkeypatch.setattr(tasks, "start", lambda run_id, stage="retrieve": started.append(run_id))
    return started


def tools(user) -> dict:
    async def scenario(client):
        return {t.name: t for t in (await client.list_tools()).tools}

    return call(user, scenario)


def undescribed(schema: dict) -> list[str]:
    missing = []
    for owner, obj in [("", schema), *schema.get("$defs", {}).items()]:
        for name, prop in obj.get("properties", {}).items():
            if not prop.get("description"):
                missing.append(f"{owner}.{name}")
    return missing


# --- arguments ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_argument_of_every_tool_is_described_and_no_other_is_taken(ada):
    listed = tools(ada)
    assert len(listed) == 15  # every tool of the server, rescore_run and compare_runs too
    for name, tool in listed.items():
        assert undescribed(tool.input_schema) == [], name
        assert tool.input_schema["additionalProperties"] is False, name
    dimension = listed["start_research"].input_schema["$defs"]["DimensionInput"]
    assert dimension["additionalProperties"] is False


@pytest.mark.django_db
def test_an_unknown_argument_is_refused_and_names_the_ones_taken(ada):
    result = call_tool(ada, "start_research", {"question": QUESTION, "weights": [1, 2]})
    assert result.is_error
    text = result.content[0].text
    assert text.startswith("INVALID_ARGUMENT: weights: start_research takes no such argument")
    assert "question, options, dimensions, preset, sources" in text
    assert result.structured_content["status"] == "INVALID_ARGUMENT"
    assert not Run.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (
            {"question": QUESTION, "dimensions": [{"name": "cost", "weight": -1}]},
            "dimensions.0.weight: must be a number above 0",
        ),
        (
            {"question": QUESTION, "dimensions": [{"name": "cost", "weight": "heavy"}]},
            "dimensions.0.weight: must be a number",
        ),
        (
            {"question": QUESTION, "dimensions": [{"name": "cost", "wieght": 2}]},
            "dimensions.0.wieght: start_research takes no such argument",
        ),
        ({"options": ["A", "B"]}, "question: required"),
        ({"question": QUESTION, "options": "Quillsync"}, "options: must be a list"),
    ],
)
def test_arguments_that_do_not_fit_are_answered_in_plain_words(ada, arguments, words):
    result = call_tool(ada, "start_research", arguments)
    assert result.is_error
    text = result.content[0].text
    assert text.startswith("INVALID_ARGUMENT: ") and words in text
    assert "pydantic" not in text and "validation error" not in text.lower()
    field = words.split(":", 1)[0]
    assert field in result.structured_content["errors"]


@pytest.mark.django_db
def test_a_wait_beyond_the_bound_is_refused_with_the_bounds(ada):
    result = call_tool(ada, "research", {"question": QUESTION, "wait_seconds": 3600})
    assert result.content[0].text == (
        "INVALID_ARGUMENT: wait_seconds: must be a number between 0 and 600"
    )


# --- sources and what a run uses -----------------------------------------------------------------


@pytest.mark.django_db
def test_list_sources_names_each_source_its_kind_and_whether_it_can_be_used(ada, tmp_path):
    result = call_tool(ada, "list_sources", {})
    assert not result.is_error
    sources = {s["name"]: s for s in result.structured_content["sources"]}
    assert sources["notes"]["kind"] == "local" and sources["notes"]["available"] is True
    assert sources["notes"]["default"] is True
    assert sources["gone"]["available"] is False and sources["gone"]["default"] is False
    assert sources["gone"]["detail"] == "its folder is missing on the server"
    assert str(tmp_path) not in json.dumps(result.structured_content)  # no server path


@pytest.mark.django_db
def test_start_research_says_what_the_run_uses(ada):
    arguments = {
        "question": QUESTION,
        "dimensions": [{"name": "sync", "weight": 3}, {"name": "price"}],
    }
    result = call_tool(ada, "start_research", arguments)
    assert not result.is_error, result.content[0].text
    used = result.structured_content["used"]
    assert used["options"] == ["Quillsync", "Loamdb", "Tessera"]
    assert used["options_from"] == "question"
    assert used["dimensions"] == [
        {"name": "sync", "weight": 0.75},
        {"name": "price", "weight": 0.25},
    ]
    assert used["sources"] == [{"name": "notes", "kind": "local"}]
    assert str(CORPUS) not in result.content[0].text


@pytest.mark.django_db
def test_start_research_with_a_preset_echoes_the_presets_dimensions(ada):
    result = call_tool(
        ada, "start_research", {"question": QUESTION, "preset": "procurement", "sources": ["notes"]}
    )
    used = result.structured_content["used"]
    assert used["preset"] == "procurement"
    assert [d["name"] for d in used["dimensions"]][:2] == ["price", "delivery time"]
    assert abs(sum(d["weight"] for d in used["dimensions"]) - 1) < 0.001


# --- the report as Markdown, in parts ---------------------------------------------------------


def finished_run(owner):
    from research import services
    from research.artifacts import Question

    run = services.create_run(
        Question(question=QUESTION, options=["Quillsync", "Loamdb"], sources=["notes"]), owner=owner
    )
    store_for(run.run_id).write_text("report.md", REPORT)
    store_for(run.run_id).write_json("round_2_filtered.json", {"kept": ["x" * 50] * 200})
    return run


@pytest.mark.django_db
def test_the_reports_text_is_its_markdown_not_json(ada):
    run = finished_run(ada)
    result = call_tool(ada, "get_report", {"run_id": run.run_id, "max_length": 100_000})
    assert result.content[0].text == REPORT
    assert result.structured_content["markdown"] == REPORT
    assert result.structured_content["next_index"] is None


@pytest.mark.django_db
def test_a_long_report_comes_in_parts_that_join_up(ada):
    run = finished_run(ada)
    parts, start = [], 0
    while start is not None:
        result = call_tool(
            ada, "get_report", {"run_id": run.run_id, "start_index": start, "max_length": 2000}
        )
        data = result.structured_content
        assert data["total_length"] == len(REPORT)
        parts.append(data["markdown"])
        if data["next_index"] is not None:
            assert (
                f"call get_report with start_index={data['next_index']}" in result.content[0].text
            )
        start = data["next_index"]
    assert "".join(parts) == REPORT and len(parts) == 4


@pytest.mark.django_db
def test_a_large_artifact_comes_as_text_in_parts(ada):
    run = finished_run(ada)
    name = "round_2_filtered.json"
    first = call_tool(ada, "read_dataset", {"run_id": run.run_id, "name": name, "max_length": 5000})
    data = first.structured_content
    assert data["data"] is None and len(data["text"]) == 5000 and data["next_index"] == 5000
    rest = call_tool(
        ada,
        "read_dataset",
        {"run_id": run.run_id, "name": name, "start_index": 5000, "max_length": 100_000},
    )
    whole = data["text"] + rest.structured_content["text"]
    assert json.loads(whole) == {"kept": ["x" * 50] * 200}
    assert rest.structured_content["next_index"] is None


# --- research: start and wait ---------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_research_waits_for_the_run_and_answers_with_its_report(ada, monkeypatch):
    def carried_out(run_id, stage="retrieve"):  # as a worker would, in an instant
        store_for(run_id).write_text("report.md", REPORT)
        Run.objects.filter(run_id=run_id).update(status="done", current_stage="decide")

    monkeypatch.setattr(tasks, "start", carried_out)
    result = call_tool(ada, "research", {"question": QUESTION, "wait_seconds": 20})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["status"] == "OK" and data["run_status"] == "done"
    assert result.content[0].text.startswith("# Report\n\nChoose **Quillsync**")
    assert data["used"]["options"] == ["Quillsync", "Loamdb", "Tessera"]
    assert data["waited"] < 5


@pytest.mark.django_db(transaction=True)
def test_research_past_its_wait_gives_the_run_and_where_it_is(ada, configured):
    result = call_tool(ada, "research", {"question": QUESTION, "wait_seconds": 1})
    assert not result.is_error
    data = result.structured_content
    assert data["status"] == "NOT_FINISHED" and data["run_status"] == "queued"
    assert data["run_id"] == configured[0] and 1 <= data["waited"] < 4
    assert "Call get_report with this run_id later" in result.content[0].text


@pytest.mark.django_db(transaction=True)
def test_research_on_a_run_that_fails_says_why(ada, monkeypatch):
    def failing(run_id, stage="retrieve"):
        Run.objects.filter(run_id=run_id).update(status="failed", error="no source answered")

    monkeypatch.setattr(tasks, "start", failing)
    result = call_tool(ada, "research", {"question": QUESTION, "wait_seconds": 10})
    assert result.is_error
    assert result.structured_content["status"] == "FAILED"
    assert "no source answered" in result.content[0].text


# --- no worker, no run ---------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("tool", ["start_research", "research"])
def test_without_a_broker_a_run_is_refused_at_once(ada, real_worker_check, monkeypatch, tool):
    monkeypatch.setattr(celery_app.conf, "broker_url", f"redis://127.0.0.1:{refused_port()}/0")
    result = call_tool(ada, tool, {"question": QUESTION})
    assert result.is_error
    assert result.content[0].text.startswith(
        "UNAVAILABLE: no worker is running; start it with make run"
    )
    assert result.structured_content["status"] == "UNAVAILABLE"
    assert not Run.objects.exists()


@pytest.mark.django_db
def test_with_a_broker_but_no_worker_a_run_is_refused_at_once(ada, redis_url, real_worker_check):
    result = call_tool(ada, "start_research", {"question": QUESTION})
    assert result.content[0].text == "UNAVAILABLE: no worker is running; start it with make run"
    assert not Run.objects.exists()


@pytest.mark.django_db
def test_an_invalid_question_is_told_so_before_any_worker_is_asked(
    ada, real_worker_check, monkeypatch
):
    monkeypatch.setattr(worker_check, "_ask", lambda: pytest.fail("asked for workers"))
    result = call_tool(ada, "start_research", {"question": "hm"})
    assert result.structured_content["status"] == "INVALID"


def test_the_answer_about_workers_is_kept_briefly(monkeypatch, real_worker_check):
    asked = []
    monkeypatch.setattr(worker_check, "_ask", lambda: asked.append(1) or "no worker")
    clock = [100.0]
    monkeypatch.setattr(worker_check.time, "monotonic", lambda: clock[0])
    assert worker_check.worker_problem() == worker_check.worker_problem() == "no worker"
    assert len(asked) == 1
    clock[0] += worker_check.KEEP_FOR
    worker_check.worker_problem()
    assert len(asked) == 2


def test_a_worker_that_answered_is_asked_again_next_time(monkeypatch, real_worker_check):
    # It may have stopped since: only "no worker", which is slow to learn, is kept.
    answers = [None, worker_check.NO_WORKER]
    monkeypatch.setattr(worker_check, "_ask", lambda: answers.pop(0))
    assert worker_check.worker_problem() is None
    assert worker_check.worker_problem() == worker_check.NO_WORKER


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_run_started_just_after_the_worker_stopped_is_refused(ada, workers, real_worker_check):
    worker = workers.start()
    workers.wait_ready(worker)
    assert worker_check.worker_problem() is None
    workers.kill(worker)
    result = call_tool(ada, "start_research", {"question": QUESTION})
    assert result.content[0].text == "UNAVAILABLE: no worker is running; start it with make run"
    assert not Run.objects.exists()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_running_worker_answers_the_check(workers, real_worker_check):
    assert worker_check.worker_problem() == worker_check.NO_WORKER
    worker_check.forget()
    worker = workers.start()
    workers.wait_ready(worker)
    assert worker_check.worker_problem() is None


@pytest.mark.django_db
def test_start_research_searches_the_users_own_documents_and_no_one_elses(
    ada, bob, settings, tmp_path
):
    from research import uploads

    settings.VAR_DIR = tmp_path / "var"
    uploads.save(ada, "plan.md", b"# Plan\n\nQuillsync syncs offline.\n")
    listed = call_tool(ada, "list_sources", {}).structured_content["sources"]
    assert [s["name"] for s in listed] == ["notes", "gone", "mine"]
    assert str(tmp_path) not in json.dumps(listed)
    others = call_tool(bob, "list_sources", {}).structured_content["sources"]
    assert [s["name"] for s in others] == ["notes", "gone"]
    mine = {"question": QUESTION, "sources": ["mine"]}
    result = call_tool(ada, "start_research", mine)
    assert not result.is_error, result.content[0].text
    assert result.structured_content["used"]["sources"] == [{"name": "mine", "kind": "local"}]
    assert str(tmp_path) not in result.content[0].text
    refused = call_tool(bob, "start_research", mine)
    assert refused.is_error
    assert "Unknown source 'mine'" in refused.content[0].text
    raw = call_tool(
        bob, "start_research", {**mine, "sources": [f"local:{uploads.folder_for(ada)}"]}
    )
    assert raw.is_error
