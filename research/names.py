"""Names people see for the pipeline's stages, shared by the CLI, the web pages and MCP.

Stage ids (`deepread`) name files, tasks and manifest keys; labels (`deep-read`) are what the
README, the progress display and the pages say. Either spelling is accepted as input.
"""

from __future__ import annotations

from research.artifacts import STAGES

STAGE_LABELS: dict[str, str] = {
    "retrieve": "retrieve",
    "filter": "filter",
    "deepread": "deep-read",
    "crosscheck": "cross-validate",
    "decide": "decide",
}
assert tuple(STAGE_LABELS) == STAGES, "every stage needs exactly one label, in pipeline order"

_BY_NAME = {**{s: s for s in STAGES}, **{label: s for s, label in STAGE_LABELS.items()}}


class UnknownStage(ValueError):
    """A stage name that is neither an id nor a label; the message lists the right ones."""


def stage_id(name: str) -> str:
    """The stage id for an id or a label: "cross-validate" and "crosscheck" give "crosscheck"."""
    key = name.strip().lower().replace("_", "-")
    if key in _BY_NAME:
        return _BY_NAME[key]
    raise UnknownStage(f"unknown stage {name!r}: choose one of {', '.join(STAGE_LABELS.values())}")


def stage_label(stage: str) -> str:
    return STAGE_LABELS.get(stage, stage)
