"""Runs decide: scores and assesses the options from the run's files, then writes the
decision and the report. `decide_from_files` is the same decision for a caller that writes
nothing (MCP's generate_assessment before the decide stage has run)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings

from decisions.corrections import corrected
from decisions.decide import Verified, decide, verify_quotes
from reports.check import ReportIncomplete
from reports.report import render
from reports.sections import ReportInput
from research.artifacts import STAGES, Decision, Filtered, Notes, Plan
from research.context import StageContext
from research.llm import StageLLM, open_llm
from research.names import DECISION, REPORT
from research.runs.spec import StageError
from research.store import RunStore, readers


@dataclass(frozen=True)
class Decided:
    """A decision with what it was made from."""

    plan: Plan
    notes: Notes
    filtered: Filtered
    pages: dict[str, str]  # source id -> stored main text
    verified: Verified
    decision: Decision


def decide_from_files(
    store: RunStore,
    ctx: StageContext,
    llm: StageLLM | None = None,
    say: Callable[[str], None] = lambda line: None,
    plan: Plan | None = None,
) -> Decided:
    """The decide stage's decision from the run's artifacts, written nowhere; `say` hears a
    line after each step (reading, checking the quotes, scoring). `plan` decides with other
    weights than the run's own plan."""
    plan = plan or readers.plan(store)
    notes = readers.notes(store)
    # What the owner corrected counts as corrected; the cross-check on disk stays as read.
    crosscheck = corrected(readers.crosscheck(store), readers.corrections(store))
    say(f"read the plan, {len(notes.sources)} sources' notes and {len(crosscheck.claims)} claims")
    pages = readers.stored_pages(store, notes)
    verified = verify_quotes(crosscheck, pages, ctx)
    say(
        f"checked {verified.checked} quotes against the stored pages: "
        f"{verified.checked - verified.dropped} found"
    )
    filtered = readers.filtered(store)  # so a gap can name pages never read
    decision = decide(
        plan,
        notes,
        readers.candidates(store),
        verified,
        settings.CONFIDENCE_THRESHOLD,
        ctx,
        filtered=filtered,
        llm=llm,
    )
    chosen = decision.recommendation.option
    say(
        f"scored {len(decision.ranking)} options: "
        + (f"recommends {chosen}" if chosen else "no recommendation")
    )
    return Decided(plan, notes, filtered, pages, verified, decision)


def run_decide(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    made = decision_and_report(store, ctx)
    store.write_json(DECISION, made.decision)
    store.write_text(REPORT, made.report)
    return {
        "recommendation": made.decision.recommendation.option or "none",
        "confidence": made.decision.assessment.confidence,
        "quotes_dropped": made.quotes_dropped,
    }


@dataclass(frozen=True)
class Made:
    decision: Decision
    report: str
    quotes_dropped: int


def decision_and_report(store: RunStore, ctx: StageContext, plan: Plan | None = None) -> Made:
    """The decide stage's decision and its checked report, written nowhere: from the run's
    own plan, or (`plan`) the same evidence decided with other weights. Nothing is searched
    or read again."""
    decided = decide_from_files(store, ctx, llm=open_llm(store, ctx, "decide"), plan=plan)
    decision = with_analysis(decided.decision, store)
    report_input = ReportInput(
        run_id=store.run_id,
        plan=decided.plan,
        filtered=decided.filtered,
        notes=decided.notes,
        crosscheck=decided.verified.crosscheck,
        decision=decision,
        pages=decided.pages,
        generated=date.today(),
        corrections=tuple(readers.corrections(store).corrections),
    )
    try:
        report = render(report_input)
    except ReportIncomplete as exc:
        raise StageError(f"the report failed its completeness check: {exc}") from exc
    return Made(decision, report, decided.verified.dropped)


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
        for stage in STAGES
        if isinstance((outcomes.get(stage) or {}).get("llm"), dict)
        and (outcomes[stage]["llm"].get("OK") or 0) > 0
    ]
