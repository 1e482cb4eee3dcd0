"""The stage runners: each loads its input artifacts, calls its stage, writes its outputs."""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any

from django.conf import settings

from decisions.decide import decide, verify_quotes
from decisions.report import ReportIncomplete, ReportInput, render
from research import pipeline
from research.artifacts import Candidates, Crosscheck, Decision, Filtered, Limits, Notes, Plan
from research.llm import StageLLM, open_llm
from research.names import (
    CANDIDATES,
    CROSSCHECK,
    DECISION,
    FILTERED,
    NOTES,
    NOTES_MD,
    PLAN,
    REPORT,
    page_artifact,
)
from research.pipeline import StageError, StageSpec, outcome_counts, register
from research.providers.fetch import HttpFetcher
from research.providers.search import SourceSpecError, build_provider
from research.stages.context import StageContext
from research.stages.crosscheck import cross_validate
from research.stages.deepread import deep_read, notes_markdown
from research.stages.filter import filter_candidates
from research.stages.llm_crosscheck import ModelReview
from research.stages.plan import PlanError, broaden, build_plan, decompose
from research.stages.retrieve import retrieve
from research.store import RunStore


def limits_from(params: dict[str, Any]) -> Limits:
    defaults = Limits(
        max_candidates=settings.MAX_CANDIDATES,
        max_kept=settings.MAX_KEPT,
        min_kept=settings.MIN_KEPT,
        max_pages=settings.MAX_PAGES,
        max_page_chars=settings.MAX_PAGE_CHARS,
    )
    return defaults.model_copy(update=params.get("limits") or {})


def plan_from(params: dict[str, Any]) -> Plan:
    dimensions = [(d["name"], float(d["weight"])) for d in params.get("dimensions") or []]
    try:
        return build_plan(
            params["question"],
            list(params.get("options") or []),
            dimensions or None,
            params.get("preset") or None,
            list(params["sources"]),
            limits_from(params),
        )
    except PlanError as exc:
        raise StageError(str(exc)) from exc


def providers_for(plan: Plan) -> dict[str, Any]:
    try:
        return {spec: build_provider(spec) for spec in plan.sources}
    except SourceSpecError as exc:
        raise StageError(str(exc)) from exc


def run_retrieve(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = plan_from(store.index()["params"])
    plan = decompose(plan, open_llm(store, ctx, "retrieve", task="plan"), ctx)
    store.write_json(PLAN, plan)
    ctx.record(
        "plan_made",
        options=plan.options,
        options_source=plan.options_source,
        dimensions=[d.model_dump() for d in plan.dimensions],
        queries=len(plan.queries),
        language=plan.language,
    )
    candidates = retrieve(plan, providers_for(plan), ctx, concurrency=settings.SEARCH_CONCURRENCY)
    store.write_json(CANDIDATES, candidates)
    record_outcomes(
        store, "retrieve", [(c.provider, c.outcome.value) for c in candidates.provider_calls]
    )
    return {
        "queries": len(plan.queries),
        "candidates": len(candidates.candidates),
        "outcomes": outcome_counts(candidates.provider_calls),
    }


def run_filter(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = store.read_model(PLAN, Plan)
    candidates = store.read_model(CANDIDATES, Candidates)
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
        providers_for(plan),
        ctx,
        previous=candidates,
        concurrency=settings.SEARCH_CONCURRENCY,
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


def run_deepread(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = store.read_model(PLAN, Plan)
    filtered = store.read_model(FILTERED, Filtered)
    result = deep_read(
        plan,
        filtered,
        HttpFetcher.from_settings(),
        ctx,
        workers=settings.FETCH_CONCURRENCY,
        llm=open_llm(store, ctx, "deepread"),
    )
    store.write_texts({page_artifact(sid): text for sid, text in result.pages.items()})
    store.write_json(NOTES, result.notes)
    store.write_text(NOTES_MD, notes_markdown(result.notes))
    record_outcomes(
        store,
        "deepread",
        [(_reader(s.source_id, filtered), s.status.value) for s in result.notes.sources],
    )
    ok = result.notes.ok_sources()
    return {
        "read": len(result.notes.sources),
        "ok": len(ok),
        "key_points": sum(len(s.key_points) for s in ok),
        "outcomes": dict(Counter(s.status.value for s in result.notes.sources)),
    }


def record_outcomes(store: RunStore, stage: str, calls: list[tuple[str, str]]) -> None:
    """Summarise in the manifest how every provider call of a stage ended. Setting each
    provider's entry (not adding to it) keeps a stage that runs again from counting twice;
    the stage's other entries (its model calls, `llm`) stay."""
    summary: dict[str, dict[str, int]] = {}
    for provider, outcome in calls:
        summary.setdefault(provider, Counter())[outcome] += 1  # type: ignore[index]
    store.update_index(
        lambda index: (
            index.setdefault("provider_outcomes", {})
            .setdefault(stage, {})
            .update({p: dict(c) for p, c in summary.items()})
        )
    )


def _reader(source_id: str, filtered: Filtered) -> str:
    local = any(k.id == source_id and k.local_path for k in filtered.kept)
    return "local file" if local else "http fetch"


def stored_pages(store: RunStore, notes: Notes) -> dict[str, str]:
    return {s.source_id: store.read_text(s.page) for s in notes.ok_sources() if s.page}


def run_crosscheck(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = store.read_model(PLAN, Plan)
    notes = store.read_model(NOTES, Notes)
    llm = open_llm(store, ctx, "crosscheck")
    reviewer = ModelReview(llm, plan, ctx) if llm is not None else None
    check = cross_validate(plan, notes, stored_pages(store, notes), ctx, reviewer)
    store.write_json(CROSSCHECK, check)
    return {
        "claims": len(check.claims),
        "consensus": len(check.consensus),
        "contradictions": len(check.contradictions),
        "gaps": len(check.gaps),
    }


def with_analysis(decision: Decision, store: RunStore) -> Decision:
    """The decision names the method that produced the run (index.json `analysis`): a
    report must say whether a model was involved, and which, and where its answers were
    used. A run whose model gave no usable answer anywhere is deterministic."""
    index = store.index()
    analysis = index.get("analysis") or {}
    if analysis.get("mode") != "llm":
        return decision

    def stage_of(key: str) -> str | None:
        entry = analysis.get(key)
        return entry.get("stage") or None if isinstance(entry, dict) else None

    timed_out = [e.get("stage") for e in analysis.get("time_out") or [] if isinstance(e, dict)]
    used = answered_stages(index)
    return decision.model_copy(
        update={
            "mode": "llm" if used else "deterministic",
            "model": analysis.get("model") or None,
            "model_unreachable_at": stage_of("model_unreachable"),
            "budget_exhausted_at": stage_of("budget_exhausted"),
            "model_time_out_at": timed_out[0] if timed_out else None,
            "model_stages": used,
        }
    )


def answered_stages(index: dict[str, Any]) -> list[str]:
    """The stages where the model gave at least one usable (validated) answer."""
    outcomes = index.get("provider_outcomes") or {}
    return [
        stage
        for stage in pipeline.active_stages()
        if isinstance((outcomes.get(stage) or {}).get("llm"), dict)
        and (outcomes[stage]["llm"].get("OK") or 0) > 0
    ]


def run_decide(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = store.read_model(PLAN, Plan)
    notes = store.read_model(NOTES, Notes)
    pages = stored_pages(store, notes)
    verified = verify_quotes(store.read_model(CROSSCHECK, Crosscheck), pages, ctx)
    filtered = store.read_model(FILTERED, Filtered)  # so a gap can name pages never read
    decision = decide(
        plan,
        notes,
        store.read_model(CANDIDATES, Candidates),
        verified,
        settings.CONFIDENCE_THRESHOLD,
        ctx,
        filtered=filtered,
        llm=open_llm(store, ctx, "decide"),
    )
    decision = with_analysis(decision, store)
    report_input = ReportInput(
        run_id=store.run_id,
        plan=plan,
        filtered=filtered,
        notes=notes,
        crosscheck=verified.crosscheck,
        decision=decision,
        pages=pages,
        generated=date.today(),
    )
    try:
        report = render(report_input)
    except ReportIncomplete as exc:
        raise StageError(f"the report failed its completeness check: {exc}") from exc
    store.write_json(DECISION, decision)
    store.write_text(REPORT, report)
    return {
        "recommendation": decision.recommendation.option or "none",
        "confidence": decision.assessment.confidence,
        "quotes_dropped": verified.dropped,
    }


register(StageSpec("retrieve", [(PLAN, Plan), (CANDIDATES, Candidates)], run_retrieve))
register(StageSpec("filter", [(FILTERED, Filtered)], run_filter))
register(StageSpec("deepread", [(NOTES, Notes), (NOTES_MD, None)], run_deepread))
register(StageSpec("crosscheck", [(CROSSCHECK, Crosscheck)], run_crosscheck))
register(StageSpec("decide", [(DECISION, Decision), (REPORT, None)], run_decide))
