"""The stage runners, one module per stage: each loads its stage's inputs from the run
folder, calls the stage (research.stages, decisions), and writes its outputs.

SPECS is the stage registry's one table (research.runs.registry): which runner runs each
stage, and the artifacts it must leave behind, in pipeline order.
"""

from __future__ import annotations

import importlib
from typing import Any

from research.context import StageContext
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
from research.runs.runners.retrieve import run_retrieve
from research.runs.spec import StageSpec, outputs
from research.store import RunStore

# The runners of the stages after retrieve, each with its stage's code, are imported when
# their stage first runs, not when a run starts; import_runners imports them ahead of time.


def run_filter(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    from research.runs.runners.filter import run_filter as run

    return run(store, ctx)


def run_deepread(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    from research.runs.runners.deepread import run_deepread as run

    return run(store, ctx)


def run_crosscheck(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    from research.runs.runners.crosscheck import run_crosscheck as run

    return run(store, ctx)


def run_decide(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    from research.runs.runners.decide import run_decide as run

    return run(store, ctx)


LATER_STAGES = ("filter", "deepread", "crosscheck", "decide")


def import_runners(stages: tuple[str, ...] = LATER_STAGES) -> None:
    """Import these stages' runners now, in pipeline order: the command line does so in a
    thread while its run's first stages wait on the network, so later stages do not wait
    for their code."""
    for stage in stages:
        importlib.import_module(f"research.runs.runners.{stage}")


SPECS: tuple[StageSpec, ...] = (
    StageSpec("retrieve", outputs(PLAN, CANDIDATES), run_retrieve),
    StageSpec("filter", outputs(FILTERED), run_filter),
    StageSpec("deepread", outputs(NOTES, NOTES_MD), run_deepread),
    StageSpec("crosscheck", outputs(CROSSCHECK), run_crosscheck),
    StageSpec("decide", outputs(DECISION, REPORT), run_decide),
)
