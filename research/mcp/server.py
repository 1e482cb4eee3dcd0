"""The MCP server for one Django user: resources, tools and prompts over that user's runs.

`build_server` puts it together. Every read goes through research.selectors.run_for (a run
the user does not own does not exist for them) and the run store (which checks artifact
names and refuses links); no path is opened in this package. Django's ORM is synchronous,
so each handler hands its work to `sync_to_async`.

The parts: resources (the runs and their artifacts), run_tools (start, follow and read a
run), tools (the stage tools, a module per tool), gating (which tools a session is shown,
and the change notifications it asked for), completions (argument values), prompts (one
per stage), levels (which of the tools' log lines a session is sent), fairness (how many
heavy calls a user may have running).
"""

from __future__ import annotations

import tomllib
from functools import cache

from django.conf import settings
from mcp.server.mcpserver import MCPServer
from mcp.server.subscriptions import InMemorySubscriptionBus

from research.mcp import fairness, gating
from research.mcp.arguments import harden
from research.mcp.completions import register_completions
from research.mcp.levels import install_logging
from research.mcp.prompts import register_prompts
from research.mcp.rescore import register_compare_tool, register_rescore_tool
from research.mcp.resources import register_resources
from research.mcp.run_tools import register_run_tools
from research.mcp.tools import register_stage_tools

INSTRUCTIONS = """Verdict researches a decision question in five stages (retrieve, filter,
deep-read, cross-validate, decide) and writes every stage's output as a run artifact.
Choose sources with list_sources. Start a run with start_research, follow it with
get_run_status, and read the result with get_report; or call research to start a run and wait
for its report in one call. Starting a run needs Verdict's workers (make run). Each artifact
is also a resource: research://runs/{run_id}/<artifact name>.
To carry out a run's stages yourself, call follow_run: the tool list then shows the tools
of the stage the run is at, and changes as the run moves on."""


@cache
def version() -> str:
    """The project's version, from pyproject.toml: what serverInfo.version says."""
    with open(settings.BASE_DIR / "pyproject.toml", "rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def build_server(user) -> MCPServer:
    """The MCP server acting for `user`: it sees and starts only that user's runs."""
    bus = InMemorySubscriptionBus()
    sessions = gating.Sessions(user, bus)
    server = MCPServer(
        name="verdict",
        title="Verdict decision research",
        version=version(),
        instructions=INSTRUCTIONS,
        subscriptions=bus,
        lifespan=sessions.listening,
    )
    reporter = install_logging(server, sessions)
    register_resources(server, user)
    register_run_tools(server, user, reporter)
    register_rescore_tool(server, user)
    register_compare_tool(server, user)
    register_stage_tools(server, user, reporter)
    gating.install(server, sessions)
    register_completions(server, user)
    register_prompts(server)
    harden(server)
    fairness.install(server, user)
    return server
