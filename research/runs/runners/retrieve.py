"""Runs retrieve: the plan from the run's parameters, then the candidates its queries find."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from research.artifacts import Plan, PrimaryAsk, PrimaryRecordDoc, ProviderCall
from research.context import StageContext
from research.llm import open_llm
from research.names import CANDIDATES, PLAN
from research.providers.primary import build_primary
from research.questions import default_limits
from research.runs.rows import question_of
from research.runs.runners.common import (
    outcome_counts,
    owner_of,
    providers_for,
    record_outcomes,
)
from research.runs.spec import StageError
from research.stages.plan import PlanError, build_plan, decompose
from research.stages.primary import ask_primary
from research.stages.retrieve import retrieve
from research.store import RunStore


def plan_from(params: dict[str, Any]) -> Plan:
    """The plan of the question a run's manifest records (index.json `params`)."""
    try:
        return build_plan(question_of(params), default_limits())
    except PlanError as exc:
        raise StageError(str(exc)) from exc


def run_retrieve(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = plan_from(store.index()["params"])
    # The options read from the question show on the run page at once, before the model
    # (if any) adds its sub-queries and the searches run.
    store.write_json(PLAN, plan)
    plan = decompose(plan, open_llm(store, ctx, "retrieve", task="plan"), ctx)
    asks, records, asked = _ask_primary(plan, ctx)
    plan = plan.model_copy(update={"primary": asks})
    store.write_json(PLAN, plan)
    ctx.record(
        "plan_made",
        options=plan.options,
        options_source=plan.options_source,
        dimensions=[d.model_dump() for d in plan.dimensions],
        queries=len(plan.queries),
        language=plan.language,
    )
    candidates = retrieve(
        plan,
        providers_for(plan, owner_of(store.run_id)),
        ctx,
        concurrency=settings.SEARCH_CONCURRENCY or None,
    )
    candidates = candidates.model_copy(
        update={"records": records, "provider_calls": [*asked, *candidates.provider_calls]}
    )
    store.write_json(CANDIDATES, candidates)
    record_outcomes(
        store, "retrieve", [(c.provider, c.outcome.value) for c in candidates.provider_calls]
    )
    return {
        "queries": len(plan.queries),
        "candidates": len(candidates.candidates),
        "records": len(records),
        "outcomes": outcome_counts(candidates.provider_calls),
    }


def _ask_primary(
    plan: Plan, ctx: StageContext
) -> tuple[list[PrimaryAsk], list[PrimaryRecordDoc], list[ProviderCall]]:
    """Ask the primary sources the plan names; each is closed once it has answered."""
    providers = {name: build_primary(name) for name in {a.provider for a in plan.primary}}
    try:
        return ask_primary(plan.primary, providers, ctx, workers=settings.SEARCH_CONCURRENCY)
    finally:
        for provider in providers.values():
            provider.close()
