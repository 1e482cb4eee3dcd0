"""The system prompts the model gets, rendered from templates/prompts/llm/<task>.md.j2.

They are built on the same Jinja2 templates the MCP prompts serve: a task's template
includes its stage's prompt (filter.md.j2, ...) for the method, then says how to answer
here. So the method an MCP client follows and the one the built-in model follows are one
text. Only the header differs: an MCP client is told which resources and tools to use, the
model that it has none. Templates in templates/prompts/llm/overrides/ (the header) take the
place of the stage prompts' own, and a name the stage prompts use that is not given here
renders empty instead of failing the stage.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from django.conf import settings

from research import names

if TYPE_CHECKING:
    import jinja2


@cache
def _environment(directory: str) -> jinja2.Environment:
    import jinja2  # only a run with a model renders prompts

    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            [
                jinja2.FileSystemLoader(f"{directory}/llm/overrides"),
                jinja2.FileSystemLoader(directory),
            ]
        ),
        undefined=jinja2.Undefined,
        autoescape=False,
        keep_trailing_newline=True,
    )


def render(task: str, *, stage: str, run_id: str, question: str, **context: Any) -> str:
    """The system prompt for `task`, with what the stage prompt it includes needs."""
    env = _environment(str(settings.BASE_DIR / "templates" / "prompts"))
    return env.get_template(f"llm/{task}.md.j2").render(
        stage=stage,
        stage_label=names.stage_label(stage),
        run_id=run_id,
        question=question,
        uri=lambda name: f"`{name}`",
        artifacts=names.PROMPT_ARTIFACTS,
        **context,
    )
