"""The stage runners, one module per stage: each loads its stage's inputs from the run
folder, calls the stage (research.stages, decisions), and writes its outputs.

SPECS is the stage registry's one table (research.runs.registry): which runner runs each
stage, and the artifacts it must leave behind, in pipeline order.
"""

from __future__ import annotations

from research.names import (
    CANDIDATES,
    CROSSCHECK,
    DECISION,
    FILTERED,
    NOTES,
    NOTES_MD,
    PLAN,
    REPORT,
)
from research.runs.runners.crosscheck import run_crosscheck
from research.runs.runners.decide import run_decide
from research.runs.runners.deepread import run_deepread
from research.runs.runners.filter import run_filter
from research.runs.runners.retrieve import run_retrieve
from research.runs.spec import StageSpec, outputs

SPECS: tuple[StageSpec, ...] = (
    StageSpec("retrieve", outputs(PLAN, CANDIDATES), run_retrieve),
    StageSpec("filter", outputs(FILTERED), run_filter),
    StageSpec("deepread", outputs(NOTES, NOTES_MD), run_deepread),
    StageSpec("crosscheck", outputs(CROSSCHECK), run_crosscheck),
    StageSpec("decide", outputs(DECISION, REPORT), run_decide),
)
