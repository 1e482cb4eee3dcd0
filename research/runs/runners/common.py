"""What the stage runners share: the run's search providers, and the manifest's summary of
how every provider call of a stage ended."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from research.artifacts import Filtered, Plan
from research.providers.search import SourceSpecError, build_provider, is_primary
from research.runs.spec import StageError
from research.sources import UnknownSource, corpus_name, real_spec
from research.store import RunStore


def owner_of(run_id: str):
    """Who asked the run: the owner whose own documents (`local://mine`) it searches."""
    from research.models import Run

    run = Run.objects.filter(run_id=run_id).select_related("owner").first()
    return run.owner if run is not None else None


def providers_for(plan: Plan, owner=None) -> dict[str, Any]:
    """The run's search providers, keyed by the source as the run records it (a local
    folder by its name): that key is what the candidates and the manifest name."""
    try:
        return {
            spec: build_provider(real_spec(spec, owner), name=corpus_name(spec))
            for spec in plan.sources
            if not is_primary(spec)
        }
    except (SourceSpecError, UnknownSource) as exc:
        raise StageError(str(exc)) from exc


def located(filtered: Filtered, owner=None) -> Filtered:
    """The kept candidates with each local document's file where it is on this server now,
    for deep-read to read; held in memory only, never written into the run's files."""
    kept = []
    for cand in filtered.kept:
        if cand.local_path and not Path(cand.local_path).is_absolute():
            try:
                spec = real_spec(cand.provider, owner)
            except UnknownSource:
                spec = cand.provider  # deep-read says the file cannot be read
            folder = Path(spec.partition(":")[2].strip())
            path = str(folder / cand.local_path)
            cand = cand.model_copy(update={"local_path": path, "provider": spec})
        kept.append(cand)
    return filtered.model_copy(update={"kept": kept})


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
