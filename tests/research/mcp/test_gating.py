"""Stage gating: a client following a run is shown the tools of the stage the run is at, and
told when that changes, over both protocol revisions. The run advances the way a worker
advances it (research.runs), and the news reaches the server through a real Redis."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from mcp import Client

from research import services
from research.artifacts import Question
from research.mcp import build_server
from research.runs import manifest
from research.store import now_iso, store_for
from tests.research.mcp.clients import changes, session

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

# The 2025-11-25 handshake, and the client's default: discover, which settles on 2026-07-28.
MODES = ["legacy", "auto"]
RUN_TOOLS = {"start_research", "research", "list_sources", "get_run_status", "get_report"}
RUN_TOOLS |= {"read_dataset", "rescore_run", "compare_runs"}
RUN_TOOLS |= {"follow_run", "unfollow_run"}
SEARCH, FILTER = "search_engine_query", "chunk_filter_candidates"
FETCH, KEY_POINTS, ASSESS = "page_fetch_markdown", "extract_key_points", "generate_assessment"
ALL_TOOLS = RUN_TOOLS | {SEARCH, FILTER, FETCH, KEY_POINTS, ASSESS}


@pytest.fixture(autouse=True)
def events_through(settings, redis_url):
    settings.REDIS_URL = redis_url


def new_run(owner):
    return services.create_run(
        Question(
            question="Quillsync or Loamdb for our notes app?",
            options=["Quillsync", "Loamdb"],
            sources=["ddgs"],
        ),
        owner=owner,
    )


@sync_to_async
def finish(run_id: str, stage: str) -> None:
    """What a worker records when a stage finishes (the stage itself is not run here)."""
    manifest.mark_stage(store_for(run_id), stage, status="done", finished=now_iso())


async def tool_names(client: Client) -> set[str]:
    return {tool.name for tool in (await client.list_tools()).tools}


@pytest.mark.parametrize("mode", MODES)
def test_a_client_following_a_run_sees_only_the_tools_of_its_stage(ada, mode):
    run = new_run(ada)

    async def scenario(client, told):
        seen = {"before": await tool_names(client)}
        async with changes(client, told, tools=True) as next_change:
            followed = await client.call_tool("follow_run", {"run_id": run.run_id})
            assert followed.structured_content["stage"] == "retrieve"
            assert followed.structured_content["tools"] == [SEARCH]
            assert await next_change() == ("tools", None)
            seen["retrieve"] = await tool_names(client)
            for stage, following in [
                ("retrieve", "filter"),
                ("filter", "deepread"),
                ("deepread", "crosscheck"),
            ]:
                await finish(run.run_id, stage)
                assert await next_change() == ("tools", None), f"after {stage}"
                seen[following] = await tool_names(client)
            await client.call_tool("unfollow_run", {})
            assert await next_change() == ("tools", None)
            seen["after"] = await tool_names(client)
        return seen

    seen = session(ada, scenario, mode)
    assert seen["before"] == seen["after"] == ALL_TOOLS
    assert seen["retrieve"] == RUN_TOOLS | {SEARCH}
    assert seen["filter"] == RUN_TOOLS | {FILTER}
    assert seen["deepread"] == RUN_TOOLS | {FETCH, KEY_POINTS}
    assert seen["crosscheck"] == RUN_TOOLS | {ASSESS}


@pytest.mark.parametrize("mode", MODES)
def test_a_stage_change_that_keeps_the_tools_sends_no_list_changed(ada, mode):
    run = new_run(ada)
    for stage in ("retrieve", "filter", "deepread"):
        manifest.mark_stage(store_for(run.run_id), stage, status="done")
    index = f"research://runs/{run.run_id}/index.json"

    async def scenario(client, told):
        async with changes(client, told, tools=True, uris=[index]) as next_change:
            await client.call_tool("follow_run", {"run_id": run.run_id})
            assert await next_change() == ("tools", None)
            told_after = []
            # cross-validate -> decide keeps generate_assessment; decide -> done keeps it too.
            # Each stage's manifest update is told after anything its event changed.
            for stage in ("crosscheck", "decide"):
                await finish(run.run_id, stage)
                told_after.append(await next_change())
            return told_after, await tool_names(client)

    told_after, tools = session(ada, scenario, mode)
    assert told_after == [("updated", index), ("updated", index)]
    assert tools == RUN_TOOLS | {ASSESS}


def test_each_handshake_session_follows_its_own_run(ada):
    server = build_server(ada)
    run = new_run(ada)

    async def main():
        async with (
            Client(server, mode="legacy") as follower,
            Client(server, mode="legacy") as other,
        ):
            await follower.call_tool("follow_run", {"run_id": run.run_id})
            return await tool_names(follower), await tool_names(other)

    follower, other = async_to_sync(main)()
    assert follower == RUN_TOOLS | {SEARCH}
    assert other == ALL_TOOLS


@pytest.mark.parametrize("mode", MODES)
def test_another_users_run_cannot_be_followed(ada, bob, mode):
    theirs = new_run(bob)

    async def scenario(client, told):
        result = await client.call_tool("follow_run", {"run_id": theirs.run_id})
        return result, await tool_names(client)

    result, tools = session(ada, scenario, mode)
    assert result.is_error and result.structured_content["status"] == "NO_HIT"
    assert tools == ALL_TOOLS


@pytest.mark.parametrize("mode", MODES)
def test_the_server_declares_that_its_tool_list_changes(ada, mode):
    async def scenario(client, told):
        return client.protocol_version, client.server_capabilities

    version, capabilities = session(ada, scenario, mode)
    assert version == {"legacy": "2025-11-25", "auto": "2026-07-28"}[mode]
    assert capabilities.tools.list_changed is True
    assert capabilities.resources.subscribe is True
