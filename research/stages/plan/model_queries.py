"""With a model, `decompose` asks it for sharper sub-queries and checks each against the
plan: one that does not name the plan's own options and dimensions is dropped and logged."""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from research.artifacts import Plan, SubQuery
from research.context import StageContext
from research.llm import StageLLM
from research.stages.plan.build import numbered

MAX_QUERY_CHARS = 200


PER_PAIR = 3  # most model queries kept for one option and dimension


PER_OPTION = 2  # ... for one option alone


COMPARISONS = 4  # ... across the options


class ModelQuery(BaseModel):
    option: str | None = Field(description="one of the options exactly as given; null if none")
    dimension: str | None = Field(description="one of the dimensions exactly as given, or null")
    text: str = Field(description="the search query")


class ModelQueries(BaseModel):
    queries: list[ModelQuery]


def _plan_message(plan: Plan) -> str:
    return json.dumps(
        {
            "question": plan.question,
            "options": plan.options,
            "dimensions": [d.name for d in plan.dimensions],
        },
        ensure_ascii=False,
    )


def decompose(plan: Plan, llm: StageLLM | None, ctx: StageContext) -> Plan:
    """The plan with the model's sub-queries for every option x dimension, plus comparisons.

    Each query must name the plan's own options and dimensions; one that does not is
    dropped and logged. A pair the model left without a query keeps its deterministic ones,
    and without any usable answer the plan stays as it was.
    """
    if llm is None:
        return plan
    pairs = len(plan.options) * len(plan.dimensions)
    [(_, answer)] = llm.ask_batches(
        [plan],
        prompt="plan",
        task="plan",
        schema=ModelQueries,
        user=_plan_message,
        max_tokens=lambda _: min(4_000, 200 + 60 * pairs + 40 * COMPARISONS),
        fallback="the deterministic sub-queries",
        question=plan.question,
        language=plan.language,
        comparisons=COMPARISONS,
    )
    if answer.value is None:
        return plan
    queries = _merged_queries(plan, answer.value.queries, ctx)
    if queries is None:
        ctx.record(
            "llm_fallback",
            stage=llm.stage,
            task="plan",
            outcome=answer.outcome.value,
            reason="none of the model's sub-queries named the plan's options and dimensions",
            fallback="the deterministic sub-queries",
        )
        return plan
    return plan.model_copy(update={"queries": queries})


def _merged_queries(
    plan: Plan, proposed: list[ModelQuery], ctx: StageContext
) -> list[SubQuery] | None:
    """The model's usable queries in the deterministic order (option x dimension, then
    comparisons, then each option), the deterministic ones filling what it left out."""
    options = {o.casefold(): o for o in plan.options}
    dims = {d.name.casefold(): d.name for d in plan.dimensions}
    by_pair: dict[tuple[str | None, str | None], list[str]] = {}
    comparisons: list[tuple[str, str | None]] = []
    used = 0
    for query in proposed:
        text = " ".join(query.text.split())
        option = options.get(" ".join((query.option or "").split()).casefold())
        dimension = dims.get(" ".join((query.dimension or "").split()).casefold())
        problem = _query_problem(text, query, option, dimension)
        if problem is not None:
            ctx.record("llm_query_dropped", text=query.text[:MAX_QUERY_CHARS], reason=problem)
            continue
        if option is None:
            if len(comparisons) < COMPARISONS:
                comparisons.append((text, dimension))
                used += 1
            continue
        kept = by_pair.setdefault((option, dimension), [])
        if len(kept) < (PER_PAIR if dimension else PER_OPTION):
            kept.append(text)
            used += 1
    if not used:
        return None
    specs: list[tuple[str, str | None, str | None, str]] = []
    filled: list[str] = []
    for option in plan.options:
        for dim in plan.dimensions:
            texts = by_pair.get((option, dim.name))
            if texts:
                specs += [(t, option, dim.name, "option_dimension") for t in texts]
                continue
            filled.append(f"{option} / {dim.name}")
            specs += [
                (q.text, q.option, q.dimension, q.kind)
                for q in plan.queries
                if q.kind == "option_dimension" and (q.option, q.dimension) == (option, dim.name)
            ]
    if comparisons:
        specs += [(t, None, d, "comparison") for t, d in comparisons]
    else:
        specs += [
            (q.text, None, q.dimension, q.kind) for q in plan.queries if q.kind == "comparison"
        ]
    for option in plan.options:
        specs += [
            (q.text, option, None, "option")
            for q in plan.queries
            if q.kind == "option" and q.option == option
        ]
        specs += [(t, option, None, "option") for t in by_pair.get((option, None), [])]
    queries = numbered(specs)
    ctx.record("plan_queries", source="llm", from_model=used, filled_in=filled)
    return queries


def _query_problem(
    text: str, query: ModelQuery, option: str | None, dimension: str | None
) -> str | None:
    if not text:
        return "the query is empty"
    if len(text) > MAX_QUERY_CHARS:
        return f"the query is longer than {MAX_QUERY_CHARS} characters"
    if query.option and option is None:
        return f"{query.option!r} is not one of the plan's options"
    if query.dimension and dimension is None:
        return f"{query.dimension!r} is not one of the plan's dimensions"
    return None
