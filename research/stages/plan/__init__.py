"""Stage 0: turn a question into a plan (DESIGN section 1, round_0_plan.json).

Pure functions, no Django: the plan itself (build), the options read from a question
(options), the dimensions and weights read from it (dimensions), what a question may be
(rules), and, with a model, sharper sub-queries checked against the plan (model_queries).
"""

from research.stages.plan.build import broaden, build_plan
from research.stages.plan.dimensions import ReadDimensions, read_dimensions
from research.stages.plan.model_queries import decompose
from research.stages.plan.options import extract_options
from research.stages.plan.rules import (
    DEFAULT_PRESET,
    MAX_DIMENSIONS,
    MAX_NAME_CHARS,
    MAX_OPTIONS,
    MAX_QUESTION_CHARS,
    MIN_OPTIONS,
    PRESETS,
    PlanError,
)

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
