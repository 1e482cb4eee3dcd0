"""Runs cross-validate: claims, consensus and contradictions from the notes."""

from __future__ import annotations

from typing import Any

from research.context import StageContext
from research.llm import open_llm
from research.names import CROSSCHECK
from research.stages.crosscheck import cross_validate
from research.stages.llm_crosscheck import ModelReview
from research.store import RunStore, readers


def run_crosscheck(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = readers.plan(store)
    notes = readers.notes(store)
    llm = open_llm(store, ctx, "crosscheck")
    reviewer = ModelReview(llm, plan, ctx) if llm is not None else None
    check = cross_validate(plan, notes, readers.stored_pages(store, notes), ctx, reviewer)
    store.write_json(CROSSCHECK, check)
    return {
        "claims": len(check.claims),
        "consensus": len(check.consensus),
        "contradictions": len(check.contradictions),
        "gaps": len(check.gaps),
    }
