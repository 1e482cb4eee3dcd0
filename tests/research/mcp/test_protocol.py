"""The protocol as clients read it: prompt errors as invalid params, every run file in
resources/list, the server's version, and listChanged declared only where it is sent."""

from __future__ import annotations

import json
import logging
import tomllib
from pathlib import Path

import anyio
import pytest
from asgiref.sync import sync_to_async
from mcp.client.subscriptions import ResourcesListChanged
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ResourceListChangedNotification

from research import services
from research.artifacts import Question
from research.mcp import resources
from research.models import Run
from research.runs import execute
from research.store import store_for
from tests.research.mcp.clients import call, session
from tests.runs import CORPUS_EN

ROOT = Path(__file__).resolve().parents[3]
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"


def prompt_error(user, name: str, arguments: dict, caplog) -> MCPError:
    async def scenario(client):
        with pytest.raises(MCPError) as caught:
            await client.get_prompt(name, arguments)
        return caught.value

    with caplog.at_level(logging.INFO):
        error = call(user, scenario)
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    return error


@pytest.mark.django_db
def test_an_unknown_prompt_is_invalid_params_naming_the_prompts(ada, caplog):
    error = prompt_error(ada, "summarise", {"run_id": "r1", "question": QUESTION}, caplog)
    assert error.code == INVALID_PARAMS
    assert error.message == (
        "unknown prompt 'summarise': choose one of retrieve, filter, deep_read, "
        "cross_validate, decide"
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "missing"),
    [({}, "run_id and question"), ({"run_id": "r1"}, "question"), ({"question": "q?"}, "run_id")],
)
def test_a_prompt_without_its_arguments_is_invalid_params(ada, caplog, arguments, missing):
    error = prompt_error(ada, "filter", arguments, caplog)
    assert error.code == INVALID_PARAMS
    assert error.message.startswith(f"prompt 'filter' needs {missing}")


def new_run(owner, *, done: bool):
    run = services.create_run(
        Question(question=QUESTION, options=["Quillsync", "Loamdb"], sources=[]), owner=owner
    )
    store = store_for(run.run_id)
    store.log("plan_made", queries=3)
    store.write_text("round_3_pages/s1.md", "# Quillsync\n")
    store.write_text("report.md", "# Report\n")
    if done:
        Run.objects.filter(pk=run.pk).update(status="done")
    return run


def listed(user) -> dict[str, str]:
    async def scenario(client):
        return (await client.list_resources()).resources

    return {str(r.uri): r.mime_type for r in call(user, scenario)}


@pytest.mark.django_db
def test_resources_list_names_each_runs_log_and_a_finished_runs_artifacts(ada, bob):
    done, going = new_run(ada, done=True), new_run(ada, done=False)
    theirs = new_run(bob, done=True)
    uris = listed(ada)
    base = f"research://runs/{done.run_id}/"
    for name, mime in [
        ("index.json", "application/json"),
        ("log.jsonl", "application/jsonl"),
        ("report.md", "text/markdown"),
        ("round_3_pages/s1.md", "text/markdown"),
    ]:
        assert uris[base + name] == mime
    mine = {u for u in uris if going.run_id in u}
    assert mine == {f"research://runs/{going.run_id}/{n}" for n in ("index.json", "log.jsonl")}
    assert not any(theirs.run_id in u for u in uris)


@pytest.mark.django_db
def test_the_decision_log_reads_as_a_resource(ada):
    run = new_run(ada, done=True)

    async def scenario(client):
        return (await client.read_resource(f"research://runs/{run.run_id}/log.jsonl")).contents[0]

    content = call(ada, scenario)
    assert content.mime_type == "application/jsonl"
    assert json.loads(content.text.splitlines()[-1])["event"] == "plan_made"


@pytest.mark.django_db
def test_resources_list_comes_in_pages(ada, monkeypatch):
    monkeypatch.setattr(resources, "LIST_PAGE", 3)
    for _ in range(3):
        new_run(ada, done=True)

    async def scenario(client):
        pages, cursor = [], None
        while True:
            result = await client.list_resources(cursor=cursor)
            pages.append([str(r.uri) for r in result.resources])
            cursor = result.next_cursor
            if cursor is None:
                return pages

    pages = call(ada, scenario)
    assert all(len(p) == 3 for p in pages[:-1]) and len(pages) > 3
    every = [u for p in pages for u in p]
    assert len(every) == len(set(every))
    assert every[0] == "research://runs"


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_server_info_names_the_projects_version_and_declares_what_it_sends(ada, mode):
    with open(ROOT / "pyproject.toml", "rb") as file:
        project = tomllib.load(file)["project"]["version"]

    async def scenario(client, told):
        return client.server_info, client.server_capabilities

    info, capabilities = session(ada, scenario, mode)
    assert info.name == "verdict" and info.version == project
    assert capabilities.tools.list_changed is True  # sent as a followed run moves on
    assert capabilities.resources.list_changed is True  # sent as runs gain artifacts
    assert capabilities.prompts.list_changed is False  # the prompts never change


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_finished_stage_tells_clients_the_resource_list_changed(
    ada, settings, redis_url, tmp_path, mode
):
    settings.REDIS_URL = redis_url
    corpus = tmp_path / "notes"
    corpus.symlink_to(CORPUS_EN)
    run = services.create_run(Question(question=QUESTION, sources=[f"local:{corpus}"]), owner=ada)

    async def scenario(client, told):
        stage = sync_to_async(execute.execute_stage)  # the test's own database connection
        if mode == "legacy":
            await client.list_resources()  # a session that lists them is told of changes
            await stage(run.run_id, "retrieve")
            while not isinstance(await told.next(), ResourceListChangedNotification):
                pass
            return True
        async with client.listen(resources_list_changed=True) as events:
            await stage(run.run_id, "retrieve")
            with anyio.fail_after(10):
                return isinstance(await anext(events), ResourcesListChanged)

    assert session(ada, scenario, mode)
