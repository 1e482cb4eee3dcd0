"""Stage 0: turn a question into a plan (DESIGN section 1, round_0_plan.json).

Pure functions, no Django: the plan itself (build), the options read from a question
(options), the dimensions and weights read from it (dimensions), what a question may be
(rules), and, with a model, sharper sub-queries checked against the plan (model_queries).
"""

from __future__ import annotations

import importlib
from typing import Any

# Imported on first use: the command line reads PRESETS (rules) to describe its arguments,
# and need not load the model's side of planning to do so.
_HOMES = {
    "broaden": "build",
    "build_plan": "build",
    "decompose": "model_queries",
    "extract_options": "options",
    "ReadDimensions": "dimensions",
    "read_dimensions": "dimensions",
    **dict.fromkeys(
        (
            "DEFAULT_PRESET",
            "MAX_DIMENSIONS",
            "MAX_NAME_CHARS",
            "MAX_OPTIONS",
            "MAX_QUESTION_CHARS",
            "MIN_OPTIONS",
            "PRESETS",
            "PlanError",
        ),
        "rules",
    ),
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)


__all__ = [
    "DEFAULT_PRESET",
    "MAX_DIMENSIONS",
    "MAX_NAME_CHARS",
    "MAX_OPTIONS",
    "MAX_QUESTION_CHARS",
    "MIN_OPTIONS",
    "PRESETS",
    "PlanError",
    "ReadDimensions",
    "broaden",
    "build_plan",
    "decompose",
    "extract_options",
    "read_dimensions",
]
