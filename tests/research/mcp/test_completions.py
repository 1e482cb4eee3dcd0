"""Argument completions, log lines and progress, as an MCP client sees them (in-memory Client).

Searches go to a local corpus and to a closed port (a source that cannot be reached); pages
come from the test web on 127.0.0.1.
"""

from __future__ import annotations

import shutil

import pytest
from asgiref.sync import async_to_sync
from mcp import Client
from mcp_types import (
    CallToolResult,
    LoggingMessageNotificationParams,
    PromptReference,
    ResourceTemplateReference,
)

from research import services
from research.artifacts import Question
from research.mcp import build_server
from research.models import Run
from research.names import NOTES
from research.runs import execute, tasks
from research.store import store_for
from tests.processes import refused_port
from tests.research.mcp.clients import call
from tests.runs import CORPUS_EN

pytestmark = [
    pytest.mark.django_db,
    # logging/setLevel is deprecated at 2026-07-28 and still how a 2025-11-25 client asks
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

QUESTION = "For our notes app, choose between Quillsync and Loamdb"
INDEX_TEMPLATE = ResourceTemplateReference(uri="research://runs/{run_id}/index.json")
PAGE_TEMPLATE = ResourceTemplateReference(
    uri="research://runs/{run_id}/round_3_pages/{source_id}.md"
)
RETRIEVE = PromptReference(name="retrieve")


@pytest.fixture
def sources(settings, tmp_path):
    corpus = shutil.copytree(CORPUS_EN, tmp_path / "notes_en")
    settings.SOURCES = {
        "notes": f"local:{corpus}",
        "down": f"searxng:http://127.0.0.1:{refused_port()}",  # nothing listens there
    }
    settings.DEFAULT_SOURCES = ["notes", "down"]


def new_run(owner, question: str = QUESTION, run_id: str | None = None) -> Run:
    """A run row (no folder): enough for run_id and question completions."""
    fields = {"run_id": run_id} if run_id else {}
    return Run.objects.create(owner=owner, question=question, **fields)


def complete(user, ref, name: str, value: str, context: dict[str, str] | None = None):
    async def scenario(client: Client):
        return (await client.complete(ref, {"name": name, "value": value}, context)).completion

    return call(user, scenario)


# --- completions ---------------------------------------------------------------------------


def test_the_server_declares_completions_and_logging(ada):
    async def scenario(client: Client):
        return client.server_capabilities

    for mode in ("legacy", "auto"):
        capabilities = call(ada, scenario, mode=mode)
        assert capabilities.completions is not None, mode
        assert capabilities.logging is not None, mode


def test_run_ids_complete_from_your_own_runs_newest_first(ada, bob):
    older, newer = new_run(ada), new_run(ada)
    theirs = new_run(bob)

    for ref in (INDEX_TEMPLATE, PAGE_TEMPLATE, RETRIEVE):
        completion = complete(ada, ref, "run_id", "")
        assert completion.values == [newer.run_id, older.run_id], ref
        assert completion.total == 2 and completion.has_more is False
    assert complete(ada, INDEX_TEMPLATE, "run_id", theirs.run_id).values == []
    assert complete(bob, INDEX_TEMPLATE, "run_id", "").values == [theirs.run_id]


def test_run_ids_complete_by_prefix_in_any_case(ada):
    new_run(ada, run_id="ab12cd34ef56")
    new_run(ada, run_id="ab99cd34ef56")
    new_run(ada, run_id="ff12cd34ef56")

    assert complete(ada, INDEX_TEMPLATE, "run_id", "ab").values == ["ab99cd34ef56", "ab12cd34ef56"]
    assert complete(ada, INDEX_TEMPLATE, "run_id", "AB1").values == ["ab12cd34ef56"]
    assert complete(ada, RETRIEVE, "run_id", "f").values == ["ff12cd34ef56"]
    assert complete(ada, INDEX_TEMPLATE, "run_id", "0").values == []


def test_at_most_a_hundred_run_ids_and_says_there_are_more(ada):
    Run.objects.bulk_create(Run(owner=ada, question=QUESTION) for _ in range(105))
    newest_first = list(Run.objects.filter(owner=ada).order_by("-created", "-pk"))

    completion = complete(ada, INDEX_TEMPLATE, "run_id", "")
    assert completion.values == [r.run_id for r in newest_first[:100]]
    assert completion.total == 105 and completion.has_more is True


def test_source_ids_complete_from_the_chosen_runs_stored_pages(ada, bob):
    run = services.create_run(
        Question(question=QUESTION, options=["Quillsync", "Loamdb"], sources=[]), owner=ada
    )
    page = {"url": "https://example.org/q", "status": "OK"}
    store_for(run.run_id).write_json(
        NOTES,
        {
            "sources": [
                {**page, "source_id": "quill-docs", "page": "round_3_pages/quill-docs.md"},
                {**page, "source_id": "loam-blog", "page": "round_3_pages/loam-blog.md"},
                {**page, "source_id": "quill-faq", "status": "TIMEOUT"},  # no page stored
                {**page, "source_id": "quill-news", "page": "round_3_pages/quill-news.md"},
            ]
        },
    )
    chosen = {"run_id": run.run_id}

    everything = complete(ada, PAGE_TEMPLATE, "source_id", "", chosen)
    assert everything.values == ["quill-docs", "loam-blog", "quill-news"]
    assert complete(ada, PAGE_TEMPLATE, "source_id", "quill", chosen).values == [
        "quill-docs",
        "quill-news",
    ]
    # no run chosen, someone else's run, or a template without source_id: nothing to offer
    assert complete(ada, PAGE_TEMPLATE, "source_id", "").values == []
    assert complete(bob, PAGE_TEMPLATE, "source_id", "", chosen).values == []
    assert complete(ada, INDEX_TEMPLATE, "source_id", "", chosen).values == []


def test_a_run_without_notes_yet_offers_no_source_ids(ada):
    run = services.create_run(Question(question=QUESTION, sources=[]), owner=ada)
    completion = complete(ada, PAGE_TEMPLATE, "source_id", "", {"run_id": run.run_id})
    assert completion.values == [] and completion.total == 0


def test_prompt_questions_complete_from_your_runs_the_chosen_runs_first(ada, bob):
    first = new_run(ada, "Which sync engine: Quillsync or Loamdb?")
    new_run(ada, "Which editor: Tessera or Inkpad?")
    new_run(ada, "Which sync engine: Quillsync or Loamdb?")  # asked again: offered once
    new_run(ada, "Where to host the notes app?")
    new_run(bob, "Which database: Postgres or MySQL?")

    assert complete(ada, RETRIEVE, "question", "which").values == [
        "Which sync engine: Quillsync or Loamdb?",
        "Which editor: Tessera or Inkpad?",
    ]
    assert complete(ada, RETRIEVE, "question", "").total == 3
    chosen = complete(ada, PromptReference(name="decide"), "question", "", {"run_id": first.run_id})
    assert chosen.values[0] == "Which sync engine: Quillsync or Loamdb?"
    assert "Which database: Postgres or MySQL?" not in chosen.values


def test_unknown_prompts_and_templates_offer_nothing(ada):
    new_run(ada)
    assert complete(ada, PromptReference(name="no_such_prompt"), "run_id", "").values == []
    other = ResourceTemplateReference(uri="test://template/{id}/data")
    assert complete(ada, other, "run_id", "").values == []
    assert complete(ada, RETRIEVE, "options", "").values == []


# --- log lines and progress ----------------------------------------------------------------


def logged(
    user, tool: str, arguments: dict, level: str | None, **options
) -> tuple[CallToolResult, list[LoggingMessageNotificationParams]]:
    """A call of `tool` and the log lines it sent a client that set `level` (None: it set
    none)."""
    lines: list[LoggingMessageNotificationParams] = []

    async def log(params: LoggingMessageNotificationParams) -> None:
        lines.append(params)

    async def main():
        async with Client(build_server(user), logging_callback=log, **options) as client:
            if level is not None:
                await client.set_logging_level(level)
            return await client.call_tool(tool, arguments)

    return async_to_sync(main)(), lines


def search_logged(user, level: str | None, **options) -> list[LoggingMessageNotificationParams]:
    """The log lines a search over both sources sends."""
    result, lines = logged(
        user, "search_engine_query", {"query": "Loamdb licence"}, level, **options
    )
    assert not result.is_error
    return lines


def said(lines: list[LoggingMessageNotificationParams]) -> list[tuple[str, str]]:
    """(level, first words) of each line, in a fixed order (the sources answer in any)."""
    return sorted((line.level, line.data.split(" (")[0]) for line in lines)


def test_log_lines_at_or_above_the_level_set_arrive_and_below_do_not(ada, sources):
    at_info = search_logged(ada, "info", mode="legacy")
    assert said(at_info) == [
        ("info", "searched notes: 10 hits"),
        ("warning", "searched down: UNAVAILABLE"),
    ]
    assert "Connection refused" in next(line.data for line in at_info if line.level == "warning")
    assert {line.logger for line in at_info} == {"verdict"}

    at_warning = search_logged(ada, "warning", mode="legacy")
    assert said(at_warning) == [("warning", "searched down: UNAVAILABLE")]
    assert search_logged(ada, "error", mode="legacy") == []
    # a client that set no level is sent info and above
    assert said(search_logged(ada, None, mode="legacy")) == said(at_info)


def test_a_2026_client_gets_log_lines_only_at_the_level_its_requests_ask_for(ada, sources):
    assert search_logged(ada, None) == []
    asked = search_logged(ada, None, log_level="warning")
    assert [line.level for line in asked] == ["warning"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_page_fetch_reports_its_progress(ada, testweb, allow_loopback, mode):
    url = testweb.add("/quillsync", "<html><body><article><p>" + "Quillsync syncs. " * 40)
    seen: list[tuple[float, float | None, str | None]] = []

    async def progressed(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async def scenario(client: Client):
        return await client.call_tool(
            "page_fetch_markdown", {"url": url}, progress_callback=progressed
        )

    result = call(ada, scenario, mode=mode)
    assert not result.is_error
    length = result.structured_content["total_length"]
    assert seen == [
        (1, 2, f"fetched {url}: OK"),
        (2, 2, f"extracted {length:,} characters of main text"),
    ]


def test_starting_a_run_logs_that_it_was_queued(ada, sources, monkeypatch):
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: None)
    question = "For our notes app, choose between Quillsync, Loamdb and Tessera"
    arguments = {"question": question, "sources": ["notes"]}

    result, lines = logged(ada, "start_research", arguments, "info", mode="legacy")
    run_id = result.structured_content["run_id"]
    assert [(line.level, line.data) for line in lines] == [
        ("info", f"queued run {run_id}: {question}")
    ]
    refused, lines = logged(ada, "start_research", {"question": "hm"}, "info", mode="legacy")
    assert refused.is_error and lines == []  # the refusal is the result; nothing was queued


def test_an_assessment_reports_each_step_it_takes(ada, sources):
    run = services.create_run(
        Question(question=QUESTION + " and Tessera", sources=[f"local:{CORPUS_EN}"]), owner=ada
    )
    for stage in ("retrieve", "filter", "deepread", "crosscheck"):
        execute.execute_stage(run.run_id, stage)
    progress: list[tuple[float, float | None]] = []

    async def progressed(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total))

    async def scenario(client: Client):
        return await client.call_tool(
            "generate_assessment", {"run_id": run.run_id}, progress_callback=progressed
        )

    result = call(ada, scenario, mode="legacy")
    assert result.structured_content["source"] == "computed"
    assert progress == [(1, 3), (2, 3), (3, 3)]

    result, lines = logged(ada, "generate_assessment", {"run_id": run.run_id}, None)
    assert lines == []  # a 2026-07-28 request that asked for no log level gets none
    result, lines = logged(
        ada, "generate_assessment", {"run_id": run.run_id}, None, log_level="info"
    )
    chosen = result.structured_content["recommendation"]
    told = [line.data for line in lines]
    assert len(told) == 3 and {line.level for line in lines} == {"info"}
    assert told[0].startswith("read the plan, ") and told[1].startswith("checked ")
    assert told[2] == "scored 3 options: " + (
        f"recommends {chosen}" if chosen else "no recommendation"
    )
