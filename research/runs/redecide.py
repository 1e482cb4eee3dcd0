"""Deciding a finished run again from its files, without searching or reading anything: with
other weights, saved as a decision of its own beside the run's (decisions/<n>-*); or after
its owner corrected the reader (corrections.json), as the run's own decision and report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from research.artifacts import Correction, Corrections, Dimension, Plan, SavedDecision
from research.context import StageContext
from research.names import (
    CORRECTIONS,
    DECISION,
    REPORT,
    SAVED_ABOUT,
    SAVED_DIR,
    saved_artifact,
)
from research.store import RunStore, StoreError, now_iso, readers

if TYPE_CHECKING:
    from research.runs.runners.decide import Made


def save_with_weights(store: RunStore, weights: dict[str, float], by: str) -> SavedDecision:
    """Decide the run again with `weights` (one above 0 for each of the plan's dimensions,
    in any scale) and save it as the run's next decision."""
    plan = readers.plan(store)
    whole = sum(weights.values())
    dimensions = [
        Dimension(name=d.name, weight=weights[d.name] / whole, origin=d.origin)
        for d in plan.dimensions
    ]
    ctx = StageContext(log=store.log)
    made = decision_and_report(store, ctx, plan.model_copy(update={"dimensions": dimensions}))
    number = max((s.number for s in saved(store)), default=0) + 1
    about = SavedDecision(
        number=number,
        weights=dimensions,
        by=by,
        saved=now_iso(),
        recommendation=made.decision.recommendation.option,
        confidence=made.decision.assessment.confidence,
    )
    store.write_json(saved_artifact(number, DECISION), made.decision)
    store.write_text(saved_artifact(number, REPORT), made.report)
    store.write_json(saved_artifact(number, SAVED_ABOUT), about)
    store.log("decision_saved", number=number, weights=weights, by=by)
    return about


def saved_count(store: RunStore) -> int:
    """How many decisions the run keeps saved, counted by name without reading them."""
    prefix, suffix = f"{SAVED_DIR}/", f"-{SAVED_ABOUT}"
    return sum(1 for n in store.artifact_names() if n.startswith(prefix) and n.endswith(suffix))


def saved(store: RunStore) -> list[SavedDecision]:
    """The run's saved decisions, first saved first; one whose files are damaged is left out."""
    found = []
    prefix = f"{SAVED_DIR}/"
    for name in store.artifact_names():
        if name.startswith(prefix) and name.endswith(f"-{SAVED_ABOUT}"):
            try:
                found.append(store.read_model(name, SavedDecision))
            except (OSError, ValueError, StoreError):
                continue
    return sorted(found, key=lambda s: s.number)


def record_correction(store: RunStore, correction: Correction) -> None:
    """Add a correction (or replace one of the same id, as undoing does), then decide the
    run again with every correction still standing."""
    found = readers.corrections(store)
    kept = [c for c in found.corrections if c.id != correction.id]
    store.write_json(CORRECTIONS, Corrections(corrections=[*kept, correction]))
    event = "correction_undone" if correction.undone_at else "correction_made"
    store.log(event, **correction.model_dump())
    decide_again(store)


def decide_again(store: RunStore) -> None:
    """The run's own decision and report, made again from its files."""
    made = decision_and_report(store, StageContext(log=store.log))
    store.write_json(DECISION, made.decision)
    store.write_text(REPORT, made.report)


def next_correction_id(store: RunStore) -> str:
    return f"k{len(readers.corrections(store).corrections) + 1}"


def decision_and_report(store: RunStore, ctx: StageContext, plan: Plan | None = None) -> Made:
    # Deciding's code is imported when a run is decided again, not with every page that
    # may ask for it.
    from research.runs.runners.decide import decision_and_report as decide

    return decide(store, ctx, plan)
