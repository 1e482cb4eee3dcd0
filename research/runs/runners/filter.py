"""Runs filter: keeps the strongest candidates, and searches once more, with broader
queries, when too few survive (the replan)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from research.artifacts import Candidates, Filtered, Plan
from research.context import StageContext
from research.llm import StageLLM, open_llm
from research.names import CANDIDATES, FILTERED, PLAN
from research.runs.runners.common import owner_of, providers_for, record_outcomes
from research.stages.filter import filter_candidates
from research.stages.plan import broaden
from research.stages.retrieve import retrieve
from research.store import RunStore, readers


def run_filter(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = readers.plan(store)
    candidates = readers.candidates(store)
    llm = open_llm(store, ctx, "filter")
    filtered = filter_candidates(plan, candidates, ctx, llm=llm)
    # Judged by the candidates, not the plan: a filter stopped after writing the broader
    # plan but before the new candidates searches again when it is run again.
    if len(filtered.kept) < plan.limits.min_kept and candidates.replans == 0:
        plan, candidates, filtered = _replan(store, ctx, plan, candidates, len(filtered.kept), llm)
    store.write_json(FILTERED, filtered)
    return {
        "kept": len(filtered.kept),
        "dropped": len(filtered.dropped),
        "replans": candidates.replans,
    }


def _replan(
    store: RunStore,
    ctx: StageContext,
    plan: Plan,
    candidates: Candidates,
    kept: int,
    llm: StageLLM | None,
) -> tuple[Plan, Candidates, Filtered]:
    """Too few sources survived: search once more with broader queries."""
    reason = (
        f"filter kept {kept} of {len(candidates.candidates)}, fewer than {plan.limits.min_kept}"
    )
    ctx.record("replan", reason=reason)
    plan = broaden(plan)
    store.write_json(PLAN, plan)
    made_before = len(candidates.provider_calls)
    candidates = retrieve(
        plan,
        providers_for(plan, owner_of(store.run_id)),
        ctx,
        previous=candidates,
        concurrency=settings.SEARCH_CONCURRENCY or None,
    )
    store.write_json(CANDIDATES, candidates)
    # The replan's searches are the filter stage's provider calls: the manifest counts
    # every call made, under the stage that made it.
    replan_calls = candidates.provider_calls[made_before:]
    record_outcomes(store, "filter", [(c.provider, c.outcome.value) for c in replan_calls])
    store.update_index(
        lambda index: index["replans"].append(
            {
                "stage": "retrieve",
                "reason": reason,
                "queries": [q.text for q in plan.queries],
                "calls": len(replan_calls),
            }
        )
    )
    return plan, candidates, filter_candidates(plan, candidates, ctx, llm=llm)
