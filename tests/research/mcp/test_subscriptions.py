"""Resource subscriptions: a client subscribed to a run's resources is told when a stage
changes them, whichever process runs the stage. Stages run through research.runs (the
code a Celery worker runs) or a real worker; the news travels through a real Redis."""

from __future__ import annotations

import shutil
import time
import warnings

import pytest
from asgiref.sync import sync_to_async
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types import INVALID_PARAMS

from research import services
from research.artifacts import Question
from research.models import Run
from research.runs import execute, registry, tasks
from research.store import store_for
from tests.processes import refused_port, wait_until
from tests.research.mcp.clients import changes, session
from tests.runs import CORPUS_EN

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

MODES = ["legacy", "auto"]  # the 2025-11-25 handshake; discovery, which settles on 2026-07-28
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"


@pytest.fixture
def events_through(settings, redis_url):
    settings.REDIS_URL = redis_url


@pytest.fixture
def corpus(tmp_path):
    return shutil.copytree(CORPUS_EN, tmp_path / "notes_en")


def new_run(owner, sources: list[str]):
    return services.create_run(Question(question=QUESTION, sources=sources), owner=owner)


def uri(run, name: str) -> str:
    return f"research://runs/{run.run_id}/{name}"


@sync_to_async
def run_stage(run, stage: str) -> None:
    execute.execute_stage(run.run_id, stage)


async def until(next_change, wanted: str) -> list[str]:
    """The URIs told updated, up to and including `wanted`."""
    told: list[str] = []
    while wanted not in told:
        kind, changed = await next_change()
        assert kind == "updated", kind
        told.append(changed)
    return told


@pytest.mark.parametrize("mode", MODES)
def test_a_subscribed_client_is_told_as_each_stage_finishes(ada, corpus, events_through, mode):
    run = new_run(ada, [f"local:{corpus}"])
    index, candidates, report = (
        uri(run, n) for n in ("index.json", "round_1_candidates.json", "report.md")
    )

    async def scenario(client, told):
        heard = {}
        async with changes(client, told, uris=[index, candidates, report]) as next_change:
            await run_stage(run, "retrieve")
            heard["retrieve"] = await until(next_change, candidates)
            for stage in ("filter", "deepread", "crosscheck"):
                await run_stage(run, stage)
                heard[stage] = await until(next_change, index)
            await run_stage(run, "decide")
            heard["decide"] = await until(next_change, report)
        return heard

    heard = session(ada, scenario, mode)
    assert set(heard["retrieve"]) == {index, candidates}
    assert set(heard["filter"]) == set(heard["crosscheck"]) == {index}
    assert report not in heard["deepread"]
    assert set(heard["decide"]) == {index, report}


def test_the_runs_list_and_a_stored_page_can_be_subscribed_to(ada, corpus, events_through):
    run = new_run(ada, [f"local:{corpus}"])
    for stage in ("retrieve", "filter"):
        execute.execute_stage(run.run_id, stage)
    kept = store_for(run.run_id).read_json("round_2_filtered.json")["kept"]
    page = uri(run, f"round_3_pages/{kept[0]['id']}.md")

    async def scenario(client, told):
        async with changes(client, told, uris=["research://runs", page]) as next_change:
            await run_stage(run, "deepread")
            return await until(next_change, page)

    assert set(session(ada, scenario, "legacy")) == {"research://runs", page}


def test_updates_of_another_users_run_are_never_told(ada, bob, corpus, events_through):
    mine, theirs = new_run(ada, [f"local:{corpus}"]), new_run(bob, [f"local:{corpus}"])

    async def scenario(client, told):
        watched = [uri(theirs, "index.json"), uri(mine, "index.json")]
        async with changes(client, told, uris=watched) as next_change:
            await run_stage(theirs, "retrieve")
            await run_stage(mine, "retrieve")  # told in order: theirs would come first
            return await until(next_change, uri(mine, "index.json"))

    assert session(ada, scenario, "auto") == [uri(mine, "index.json")]


@pytest.mark.parametrize(
    "target",
    [
        "theirs/index.json",
        "mine/.index.lock",
        "mine/../../etc/passwd",
        "mine/round_3_pages/..%2Findex.md",
        "file:///etc/passwd",
    ],
)
def test_only_your_runs_resources_can_be_subscribed_to(ada, bob, target):
    mine, theirs = new_run(ada, []), new_run(bob, [])
    target = target.replace("mine/", uri(mine, "")).replace("theirs/", uri(theirs, ""))

    async def scenario(client, told):
        with warnings.catch_warnings(), pytest.raises(MCPError) as caught:
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.subscribe_resource(target)
        return caught.value

    error = session(ada, scenario, "legacy")
    assert error.code == INVALID_PARAMS
    assert "Quillsync" not in error.message


@pytest.mark.serial  # the whole run timed against 10 s
def test_a_stage_finishes_as_usual_when_redis_is_down(ada, corpus, settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{refused_port()}/0"  # nothing listens there
    run = new_run(ada, [f"local:{corpus}"])
    started = time.monotonic()
    for stage in registry.active_stages():
        execute.execute_stage(run.run_id, stage)
    elapsed = time.monotonic() - started
    run.refresh_from_db()
    assert set(run.stages.values_list("status", flat=True)) == {"done"}
    assert elapsed < 10, f"the run took {elapsed:.1f} s"


SEARXNG_PAGE = (
    "<html><head><title>{option} licence notes</title></head><body><article>"
    "<h1>{option} licence notes</h1><p>{option} is released under the MIT License and its "
    "maintainers ship a release every month.</p><p>{option} 2.1 came out in 2026 with 30 "
    "contributors.</p></article></body></html>"
)


@pytest.mark.django_db(transaction=True)
def test_a_stage_a_celery_worker_finishes_reaches_a_subscribed_client(
    ada, workers, testweb, events_through
):
    urls = {o: testweb.add(f"/{o}", SEARXNG_PAGE.format(option=o)) for o in ("Alder", "Birch")}
    results = [
        {"url": u, "title": f"{o} licence notes", "content": "licence"} for o, u in urls.items()
    ]
    base = testweb.add_searxng(lambda query: results)
    run = services.create_run(
        Question(
            question="Choose between Alder and Birch",
            dimensions=[{"name": "licence risk", "weight": 1}],
            sources=[f"searxng:{base}"],
        ),
        owner=ada,
    )
    worker = workers.start()
    workers.wait_ready(worker)
    index, report = uri(run, "index.json"), uri(run, "report.md")

    async def scenario(client, told):
        async with changes(client, told, uris=[index, report]) as next_change:
            await sync_to_async(tasks.start)(run.run_id)
            return await until(next_change, report)

    heard = session(ada, scenario, "auto")
    assert heard[-1] == report and index in heard
    wait_until(lambda: Run.objects.get(pk=run.pk).status == "done", 30, "the run")
