"""What the stage runners share: the run's search providers, and the manifest's summary of
how every provider call of a stage ended."""

from __future__ import annotations

from collections import Counter
from typing import Any

from research.artifacts import Plan
from research.providers.search import SourceSpecError, build_provider, is_primary
from research.runs.spec import StageError
from research.store import RunStore


def providers_for(plan: Plan) -> dict[str, Any]:
    try:
        return {spec: build_provider(spec) for spec in plan.sources if not is_primary(spec)}
    except SourceSpecError as exc:
        raise StageError(str(exc)) from exc


def outcome_counts(calls: list[Any]) -> dict[str, int]:
    return dict(Counter(str(c.outcome) for c in calls))


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
