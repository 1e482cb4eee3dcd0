"""One prompt per stage, rendered with Jinja2 from templates/prompts/<prompt>.md.j2: for a
client that carries out a run's stages itself, with the tools and resources of each."""

from __future__ import annotations

from functools import cache

import jinja2
from django.conf import settings
from mcp.server import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, GetPromptRequestParams

from research import bounds
from research.mcp.common import artifact_uri
from research.mcp.gating import STAGE_TOOLS
from research.names import PROMPT_ARTIFACTS, stage_id, stage_label

# Prompt name (what an MCP client lists) for each stage, in pipeline order.
PROMPTS: tuple[str, ...] = ("retrieve", "filter", "deep_read", "cross_validate", "decide")


@cache
def _environment(directory: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
    )


def render_prompt(name: str, **context: object) -> str:
    """The text of one stage's prompt; `context` fills the template (run_id, question, ...)."""
    if name not in PROMPTS:
        raise ValueError(f"unknown prompt {name!r}: choose one of {', '.join(PROMPTS)}")
    stage = stage_id(name)
    env = _environment(str(settings.BASE_DIR / "templates" / "prompts"))
    return env.get_template(f"{name}.md.j2").render(
        stage=stage, stage_label=stage_label(stage), **context
    )


ARGUMENTS = ("run_id", "question")  # every prompt takes both


def register_prompts(server: MCPServer) -> None:
    for name in PROMPTS:
        _add_prompt(server, name)
    answer = server._handle_get_prompt

    async def get_prompt(ctx: ServerRequestContext, params: GetPromptRequestParams):
        """An unknown prompt or a missing argument is the client's mistake: invalid params
        with the reason, not an internal error with a traceback in the log."""
        if params.name not in PROMPTS:
            message = f"unknown prompt {params.name!r}: choose one of {', '.join(PROMPTS)}"
            raise MCPError(INVALID_PARAMS, message)
        given = params.arguments or {}
        missing = [a for a in ARGUMENTS if not str(given.get(a) or "").strip()]
        if missing:
            raise MCPError(
                INVALID_PARAMS,
                f"prompt {bounds.quoted(params.name)} needs {' and '.join(missing)}: pass "
                f"{', '.join(ARGUMENTS)} as arguments",
            )
        return await answer(ctx, params)

    # MCPServer has no public way to wrap a protocol handler; its low-level server does.
    server._lowlevel_server.add_request_handler("prompts/get", GetPromptRequestParams, get_prompt)


def _add_prompt(server: MCPServer, name: str) -> None:
    stage = stage_id(name)
    label = stage_label(stage)

    def prompt(run_id: str, question: str) -> str:
        return render_prompt(
            name,
            run_id=run_id,
            question=question,
            tools=sorted(STAGE_TOOLS[stage]),
            uri=lambda artifact: artifact_uri(run_id, artifact),
            artifacts=PROMPT_ARTIFACTS,
        )

    server.prompt(
        name=name,
        title=f"Verdict {label} stage",
        description=f"How to carry out the {label} stage of a run for its question.",
    )(prompt)
