"""The MCP server, driven by the SDK's in-memory Client: resources, tools and prompts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from research import services
from research.artifacts import Question
from research.mcp.prompts import PROMPTS
from research.models import Run
from research.runs import redecide, tasks
from research.store import readers, store_for
from tests.decisions.builders import saas_run
from tests.research.mcp.clients import call, call_tool
from tests.runs import CORPUS_EN, run_question

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "notes_en"
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"
PLAN = {"question": QUESTION, "options": ["Quillsync", "Loamdb"], "queries": []}


@pytest.fixture(autouse=True)
def configured(settings, monkeypatch):
    settings.SOURCES = {"notes": f"local:{CORPUS}"}
    settings.DEFAULT_SOURCES = ["notes"]
    started: list[tuple[str, str]] = []
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: started.append((run_id, stage)))
    return started


def make_run(owner, *, finished: bool = True):
    run = services.create_run(
        Question(question=QUESTION, options=["Quillsync", "Loamdb"], sources=["notes"]), owner=owner
    )
    store = store_for(run.run_id)
    store.write_json("round_0_plan.json", PLAN)
    store.write_text("round_3_pages/s1.md", "# Quillsync\n\nSyncs offline.\n")
    if finished:
        store.write_json("round_5_decision.json", {"recommendation": "Quillsync"})
        store.write_text("report.md", "# Report\n\nChoose Quillsync.\n")
    return run


def read_error(user, uri: str) -> MCPError:
    async def scenario(client):
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
        return caught.value

    return call(user, scenario)


# --- resources ---------------------------------------------------------------------------


def test_runs_resource_lists_only_the_users_runs(ada, bob):
    mine = make_run(ada)
    make_run(bob)

    async def scenario(client):
        listed = await client.list_resources()
        return listed, await client.read_resource("research://runs")

    listed, result = call(ada, scenario)
    base = f"research://runs/{mine.run_id}/"
    uris = [str(r.uri) for r in listed.resources]
    assert uris == ["research://runs", base + "index.json", base + "log.jsonl"]
    content = result.contents[0]
    assert content.mime_type == "application/json"
    runs = json.loads(content.text)["runs"]
    assert [r["run_id"] for r in runs] == [mine.run_id]
    assert runs[0]["uri"] == f"research://runs/{mine.run_id}/index.json"


def test_templates_cover_every_artifact_with_its_mime_type(ada):
    async def scenario(client):
        return (await client.list_resource_templates()).resource_templates

    templates = {t.uri_template: t.mime_type for t in call(ada, scenario)}
    base = "research://runs/{run_id}/"
    assert templates[base + "index.json"] == "application/json"
    for n in range(6):
        assert any(k.startswith(f"{base}round_{n}_") for k in templates)
    assert templates[base + "round_0_plan.json"] == "application/json"
    assert templates[base + "round_5_decision.json"] == "application/json"
    assert templates[base + "report.md"] == "text/markdown"
    assert templates[base + "round_3_pages/{source_id}.md"] == "text/markdown"


def test_artifacts_read_as_resources(ada):
    run = make_run(ada)
    base = f"research://runs/{run.run_id}/"

    async def scenario(client):
        out = {}
        for name in ("index.json", "round_0_plan.json", "report.md", "round_3_pages/s1.md"):
            out[name] = (await client.read_resource(base + name)).contents[0]
        return out

    got = call(ada, scenario)
    assert json.loads(got["index.json"].text)["params"]["question"] == QUESTION
    assert got["index.json"].mime_type == "application/json"
    assert json.loads(got["round_0_plan.json"].text) == PLAN
    assert got["report.md"].mime_type == "text/markdown"
    assert "Choose Quillsync" in got["report.md"].text
    assert got["round_3_pages/s1.md"].text.startswith("# Quillsync")
    assert got["round_3_pages/s1.md"].mime_type == "text/markdown"


def test_another_users_run_is_refused(ada, bob):
    theirs = make_run(bob)
    error = read_error(ada, f"research://runs/{theirs.run_id}/report.md")
    assert error.code == INVALID_PARAMS
    assert "no run" in error.message
    assert "Choose Quillsync" not in error.message


def test_an_artifact_not_written_yet_is_an_error(ada):
    run = make_run(ada, finished=False)
    error = read_error(ada, f"research://runs/{run.run_id}/report.md")
    assert error.code == INVALID_PARAMS
    assert "no report.md yet" in error.message


@pytest.mark.parametrize(
    "tail",
    [
        "round_3_pages/..%2F..%2Findex.md",
        "round_3_pages/%2E%2E.md",
        "round_3_pages/...md",
        "round_3_pages/..%5Cindex.md",
        "round_3_pages/%2Fetc%2Fpasswd.md",
        "round_3_pages/../index.json",
    ],
)
def test_traversal_in_a_source_id_is_invalid_params(ada, tail):
    run = make_run(ada)
    error = read_error(ada, f"research://runs/{run.run_id}/{tail}")
    assert error.code == INVALID_PARAMS


@pytest.mark.parametrize("run_id", ["..", "%2E%2E", "..%2F..%2Fetc", "%2Fetc"])
def test_traversal_in_a_run_id_is_invalid_params(ada, run_id):
    make_run(ada)
    error = read_error(ada, f"research://runs/{run_id}/index.json")
    assert error.code == INVALID_PARAMS


# --- tools -------------------------------------------------------------------------------


def tools(user) -> dict:
    async def scenario(client):
        return {t.name: t for t in (await client.list_tools()).tools}

    return call(user, scenario)


RUN_TOOLS = {"start_research", "research", "list_sources", "get_run_status", "get_report"}
RUN_TOOLS |= {"read_dataset", "rescore_run", "compare_runs"}
RUN_TOOLS |= {"follow_run", "unfollow_run"}
STAGE_TOOLS = {"search_engine_query", "chunk_filter_candidates", "page_fetch_markdown"}
STAGE_TOOLS |= {"extract_key_points", "generate_assessment"}


def test_tools_are_listed_with_output_schemas_and_read_only_hints(ada):
    listed = tools(ada)
    assert set(listed) == RUN_TOOLS | STAGE_TOOLS
    for name, tool in listed.items():
        assert "status" in tool.output_schema["properties"], name
        assert "Call this" in tool.description, name
        read_only = name not in ("start_research", "research", "rescore_run")
        assert tool.annotations.read_only_hint is read_only, name


def test_start_research_submits_like_the_web_form(
    ada, configured, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        result = call_tool(ada, "start_research", {"question": QUESTION, "sources": ["notes"]})
    assert not result.is_error
    data = result.structured_content
    assert data["status"] == "OK"
    run = Run.objects.get(run_id=data["run_id"])
    assert run.owner == ada and run.sources == ["local://notes"]  # by name, never the folder
    assert configured == [(run.run_id, "retrieve")]  # queued after the commit
    assert data["uri"] == f"research://runs/{run.run_id}/index.json"
    assert store_for(run.run_id).exists()


def test_start_research_scores_the_dimensions_the_question_names(ada, configured):
    question = (
        "For an event-driven backend, choose between RabbitMQ, Apache Kafka and NATS, "
        "weighing delivery guarantees, operational complexity and throughput."
    )
    result = call_tool(ada, "start_research", {"question": question, "sources": ["notes"]})

    assert not result.is_error
    run = Run.objects.get(run_id=result.structured_content["run_id"])
    assert [d["name"] for d in run.dimensions] == [
        "delivery guarantees",
        "operational complexity",
        "throughput",
    ]


def test_start_research_says_which_part_of_the_question_could_not_be_read(ada, configured):
    result = call_tool(
        ada,
        "start_research",
        {"question": "Vue vs React, weighing everything that could matter", "sources": ["notes"]},
    )

    assert result.is_error
    assert "no dimension could be read" in result.structured_content["errors"]["dimensions"][0]


def test_start_research_reports_validation_errors(ada):
    result = call_tool(ada, "start_research", {"question": "hm", "sources": ["nowhere"]})
    assert result.is_error
    data = result.structured_content
    assert data["status"] == "INVALID" and data["run_id"] is None
    assert "options" in data["errors"] and "sources" in data["errors"]
    assert "Unknown source 'nowhere'" in result.content[0].text
    assert "not accepted" in result.content[0].text
    assert not Run.objects.exists()


def test_get_run_status_gives_every_stage(ada):
    run = make_run(ada)
    run.stages.filter(stage="retrieve").update(status="done", counts={"candidates": 7})
    result = call_tool(ada, "get_run_status", {"run_id": run.run_id})
    assert not result.is_error
    data = result.structured_content
    assert data["status"] == "OK" and data["question"] == QUESTION
    stages = data["stages"]
    assert [s["stage"] for s in stages] == [
        "retrieve",
        "filter",
        "deepread",
        "crosscheck",
        "decide",
    ]
    assert stages[0]["status"] == "done" and stages[0]["counts"] == {"candidates": 7}
    assert stages[2]["label"] == "deep-read" and stages[2]["status"] == "pending"


def test_get_run_status_of_another_users_run_is_an_error(ada, bob):
    theirs = make_run(bob)
    result = call_tool(ada, "get_run_status", {"run_id": theirs.run_id})
    assert result.is_error
    assert result.structured_content["status"] == "NO_HIT"
    assert result.structured_content["stages"] == []


def test_get_report_returns_the_markdown(ada):
    run = make_run(ada)
    result = call_tool(ada, "get_report", {"run_id": run.run_id})
    assert not result.is_error
    assert result.structured_content["status"] == "OK"
    assert "Choose Quillsync" in result.structured_content["markdown"]


def test_get_report_before_decide_says_not_finished(ada):
    run = make_run(ada, finished=False)
    result = call_tool(ada, "get_report", {"run_id": run.run_id})
    assert not result.is_error
    assert result.structured_content["status"] == "NOT_FINISHED"
    assert result.structured_content["markdown"] is None
    assert "get_run_status" in result.structured_content["message"]


def test_get_report_of_another_users_run_is_an_error(ada, bob):
    result = call_tool(ada, "get_report", {"run_id": make_run(bob).run_id})
    assert result.is_error and result.structured_content["status"] == "NO_HIT"


def test_read_dataset_parses_json_and_returns_markdown_as_text(ada):
    run = make_run(ada)
    plan = call_tool(ada, "read_dataset", {"run_id": run.run_id, "name": "round_0_plan.json"})
    assert not plan.is_error
    assert plan.structured_content["data"] == PLAN
    assert plan.structured_content["mime_type"] == "application/json"
    page = call_tool(ada, "read_dataset", {"run_id": run.run_id, "name": "round_3_pages/s1.md"})
    assert page.structured_content["data"].startswith("# Quillsync")
    assert page.structured_content["mime_type"] == "text/markdown"


def test_read_dataset_reads_the_decision_log_as_events(ada):
    run = make_run(ada)
    store_for(run.run_id).log("plan_made", queries=3)
    result = call_tool(ada, "read_dataset", {"run_id": run.run_id, "name": "log.jsonl"})
    assert not result.is_error
    events = result.structured_content["data"]
    assert isinstance(events, list) and events[-1]["event"] == "plan_made"


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("../../etc/passwd", "INVALID"),
        ("round_3_pages/../index.json", "INVALID"),
        ("/etc/passwd", "INVALID"),
        (".lock", "INVALID"),
        (".index.lock", "INVALID"),
        ("round_3_pages/.s1.md.abc.tmp", "INVALID"),
        ("settings.py", "INVALID"),
        ("round_4_crosscheck.json", "NO_HIT"),
    ],
)
def test_read_dataset_refuses_bad_or_missing_names(ada, name, status):
    run = make_run(ada)
    result = call_tool(ada, "read_dataset", {"run_id": run.run_id, "name": name})
    assert result.is_error
    assert result.structured_content["status"] == status


def test_read_dataset_of_another_users_run_is_an_error(ada, bob):
    theirs = make_run(bob)
    result = call_tool(ada, "read_dataset", {"run_id": theirs.run_id, "name": "report.md"})
    assert result.is_error and result.structured_content["status"] == "NO_HIT"
    assert "Choose Quillsync" not in result.content[0].text


# --- prompts -----------------------------------------------------------------------------


def get_prompt(user, name: str, arguments: dict) -> str:
    async def scenario(client):
        return await client.get_prompt(name, arguments)

    return call(user, scenario).messages[0].content.text


def test_one_prompt_per_stage_taking_run_id_and_question(ada):
    async def scenario(client):
        return (await client.list_prompts()).prompts

    prompts = {p.name: p for p in call(ada, scenario)}
    assert list(prompts) == list(PROMPTS)
    for prompt in prompts.values():
        assert {a.name for a in prompt.arguments} == {"run_id", "question"}
        assert all(a.required for a in prompt.arguments)


@pytest.mark.parametrize("name", PROMPTS)
def test_every_prompt_renders_the_run_and_the_question(ada, name):
    text = get_prompt(ada, name, {"run_id": "r123", "question": QUESTION})
    assert "`r123`" in text and QUESTION in text
    assert "research://runs/r123/" in text


@pytest.mark.parametrize(
    ("name", "tools"),
    [
        ("retrieve", ["search_engine_query"]),
        ("filter", ["chunk_filter_candidates"]),
        ("deep_read", ["extract_key_points", "page_fetch_markdown"]),
        ("cross_validate", ["generate_assessment"]),
        ("decide", ["generate_assessment"]),
    ],
)
def test_every_prompt_names_the_tools_of_its_stage(ada, name, tools):
    text = get_prompt(ada, name, {"run_id": "r123", "question": QUESTION})
    assert f"The tools for this stage: {', '.join(tools)}." in text
    assert "Call follow_run with `r123`" in text


def test_filter_prompt_drops_weak_sources_rather_than_padding(ada):
    text = get_prompt(ada, "filter", {"run_id": "r1", "question": QUESTION})
    assert "Drop weak sources rather than padding the list" in text
    assert "research://runs/r1/round_1_candidates.json" in text


def test_cross_validate_prompt_lists_contradictions_including_the_users_expectations(ada):
    text = get_prompt(ada, "cross_validate", {"run_id": "r1", "question": QUESTION})
    assert "List every contradiction" in text
    assert "against what the user seems to expect" in text


def test_a_link_planted_in_the_run_folder_is_invalid_params(ada, tmp_path):
    run = make_run(ada)
    secret = tmp_path / "secret.md"
    secret.write_text("not yours")
    pages = store_for(run.run_id).path / "round_3_pages"
    (pages / "s2.md").symlink_to(secret)
    error = read_error(ada, f"research://runs/{run.run_id}/round_3_pages/s2.md")
    assert error.code == INVALID_PARAMS
    assert "not yours" not in error.message
    result = call_tool(ada, "read_dataset", {"run_id": run.run_id, "name": "round_3_pages/s2.md"})
    assert result.is_error and result.structured_content["status"] == "INVALID"


def test_the_command_acts_for_the_named_user_or_the_first_superuser(ada):
    from django.core.management.base import CommandError

    from research.management.commands.mcp import _user

    admin = get_user_model().objects.create_superuser("root", password="x" * 12)
    assert _user("ada") == ada
    assert _user("") == admin
    with pytest.raises(CommandError, match="no active user 'nobody'"):
        _user("nobody")


def test_start_research_passes_options_and_weighted_dimensions(ada):
    arguments = {
        "question": "Which notes app should we adopt?",
        "options": ["Quillsync", "Loamdb"],
        "dimensions": [{"name": "sync", "weight": 2}, {"name": "price"}],
    }
    result = call_tool(ada, "start_research", arguments)
    assert not result.is_error, result.content[0].text
    run = Run.objects.get(run_id=result.structured_content["run_id"])
    assert run.options == ["Quillsync", "Loamdb"]
    assert [(d["name"], float(d["weight"])) for d in run.dimensions] == [
        ("sync", 2.0),
        ("price", 1.0),
    ]


@pytest.fixture
def decided(ada, runs_dir):
    """A whole run over the notes corpus, owned by ada."""
    run, _ = run_question(
        "For our notes app, choose between Quillsync, Loamdb and Tessera",
        [f"local:{CORPUS_EN}"],
        dimensions=[("licence risk", 2), ("maintenance activity", 1), ("customisation cost", 1)],
    )
    run.owner = ada
    run.save(update_fields=["owner"])
    return run


def test_rescore_run_saves_a_reweighted_decision_and_says_what_it_came_to(decided, ada, bob):
    run = decided
    dims = [d.name for d in readers.plan(store_for(run.run_id)).dimensions]
    weights = {name: (5.0 if n == 0 else 1.0) for n, name in enumerate(dims)}

    result = call_tool(ada, "rescore_run", {"run_id": run.run_id, "weights": weights})

    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["status"] == "OK" and data["number"] == 1
    assert data["weights"][dims[0]] == pytest.approx(5 / (4 + len(dims)))
    assert [r["rank"] for r in data["ranking"]] == list(range(1, len(data["ranking"]) + 1))
    assert data["markdown"].startswith("#")
    assert data["uri"] == f"research://runs/{run.run_id}/decisions/1-report.md"
    read = call_tool(ada, "read_dataset", {"run_id": run.run_id, "name": "decisions/1-about.json"})
    assert read.structured_content["data"]["by"] == "ada"

    other = call_tool(bob, "rescore_run", {"run_id": run.run_id, "weights": weights})
    assert other.is_error and other.structured_content["status"] == "NO_HIT"


def test_rescore_run_refuses_weights_it_cannot_decide_with(decided, ada):
    run = decided
    result = call_tool(ada, "rescore_run", {"run_id": run.run_id, "weights": {"nonsense": 1}})
    assert result.is_error and result.structured_content["status"] == "INVALID"
    assert "is not a dimension of this run" in result.content[0].text


def test_rescore_run_refuses_true_as_a_weight(decided, ada):
    run = decided
    dims = [d.name for d in readers.plan(store_for(run.run_id)).dimensions]
    weights = {name: (True if n == 0 else 1) for n, name in enumerate(dims)}
    result = call_tool(ada, "rescore_run", {"run_id": run.run_id, "weights": weights})
    assert result.is_error and result.structured_content["status"] == "INVALID_ARGUMENT"
    assert result.structured_content["errors"] == {f"weights.{dims[0]}": ["must be a number"]}
    assert redecide.saved_count(store_for(run.run_id)) == 0


def test_rescore_run_past_the_cap_saves_nothing_and_says_so(decided, ada, settings):
    settings.SAVED_DECISIONS_PER_RUN = 1
    run = decided
    weights = {d.name: 1 for d in readers.plan(store_for(run.run_id)).dimensions}
    first = call_tool(ada, "rescore_run", {"run_id": run.run_id, "weights": weights})
    second = call_tool(ada, "rescore_run", {"run_id": run.run_id, "weights": weights})
    assert not first.is_error
    assert second.is_error and second.structured_content["status"] == "INVALID"
    assert second.content[0].text.startswith(
        "This run already keeps 1 saved decisions, the most one run may keep: nothing was saved."
    )
    assert redecide.saved_count(store_for(run.run_id)) == 1


def test_get_run_status_says_why_nothing_was_recommended(ada):
    run = make_run(ada)
    decision = saas_run().decide()  # SQLite's evidence covers a third of the weight
    store_for(run.run_id).write_json("round_5_decision.json", decision.model_dump(mode="json"))
    Run.objects.filter(pk=run.pk).update(status=Run.Status.DONE)

    data = call_tool(ada, "get_run_status", {"run_id": run.run_id}).structured_content

    assert data["recommendation"] is None and data["withheld"] == "thin_evidence"
    assert data["no_recommendation_reason"].startswith("SQLite has the highest weighted total")
    assert data["no_recommendation_reason"] == decision.recommendation.no_recommendation_reason


def test_a_finished_run_whose_manifest_was_deleted_is_read_as_before(ada):
    run, store = run_question(QUESTION, [f"local:{CORPUS_EN}"])
    Run.objects.filter(pk=run.pk).update(owner=ada)
    before = store.index()["artifacts"]
    report = store.artifact_path("report.md").read_text(encoding="utf-8")
    store.path.joinpath("index.json").unlink()
    base = f"research://runs/{run.run_id}/"

    async def scenario(client):
        listed = [str(r.uri) for r in (await client.list_resources()).resources]
        index = (await client.read_resource(base + "index.json")).contents[0].text
        told = await client.call_tool("get_report", {"run_id": run.run_id})
        return listed, json.loads(index), told

    listed, index, told = call(ada, scenario)
    assert base + "index.json" in listed
    assert index["artifacts"] == before
    assert told.structured_content["status"] == "OK"
    assert told.content[0].text.startswith(report[:2000])


def test_the_corrections_of_a_run_nobody_corrected_read_as_an_empty_list(ada, bob):
    run = make_run(ada)
    uri = f"research://runs/{run.run_id}/corrections.json"

    async def scenario(client):
        return (await client.read_resource(uri)).contents[0]

    read = call(ada, scenario)
    assert json.loads(read.text)["corrections"] == []
    assert read.mime_type == "application/json"
    assert read_error(bob, uri).code == INVALID_PARAMS  # someone else's run stays unknown


def test_the_presets_a_question_may_name_are_listed_in_the_tools_schema(ada):
    async def scenario(client):
        return {t.name: t.input_schema for t in (await client.list_tools()).tools}

    schemas = call(ada, scenario)
    for tool in ("start_research", "research"):
        preset = schemas[tool]["properties"]["preset"]
        assert preset["enum"] == ["", "tech", "procurement", "clinical"], tool
