"""One prompt per stage, rendered with Jinja2 from templates/prompts/<prompt>.md.j2."""

from __future__ import annotations

from functools import cache

import jinja2
from django.conf import settings

from research.names import stage_id, stage_label

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
