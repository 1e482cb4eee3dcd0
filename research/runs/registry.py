"""The stage registry: which stages run, in which order, and whether a stage's output on
disk is sound. Its one table is research.runs.runners.SPECS; nothing registers by being
imported."""

from __future__ import annotations

from research.artifacts import STAGES
from research.names import artifact_stage
from research.runs.runners import SPECS
from research.runs.spec import StageSpec
from research.store import ArtifactDamaged, RunStore

REGISTRY: dict[str, StageSpec] = {spec.name: spec for spec in SPECS}


def active_stages() -> list[str]:
    return [s for s in STAGES if s in REGISTRY]


def next_stage(stage: str) -> str | None:
    stages = active_stages()
    position = stages.index(stage)
    return stages[position + 1] if position + 1 < len(stages) else None


def outputs_valid(store: RunStore, stage: str) -> bool:
    """Whether every file the stage wrote is there, matches its recorded sha256 and (for
    its main outputs) parses: the stage's outputs and any other file the manifest records
    for it (deep-read's stored pages)."""
    spec = REGISTRY[stage]
    if not all(store.is_valid(name, model) for name, model in spec.outputs):
        return False
    return all(store.is_valid(name) for name in _other_outputs(store, spec))


def damaged_output(store: RunStore, stage: str) -> ArtifactDamaged | None:
    """The first of the stage's recorded files that is damaged, saying how."""
    spec = REGISTRY[stage]
    recorded = set(store.artifact_names())
    checks = [(n, m) for n, m in spec.outputs if n in recorded]
    checks += [(n, None) for n in _other_outputs(store, spec)]
    return next((d for n, m in checks if (d := store.damage(n, m)) is not None), None)


def _other_outputs(store: RunStore, spec: StageSpec) -> list[str]:
    named = {name for name, _ in spec.outputs}
    return [n for n in store.artifact_names() if artifact_stage(n) == spec.name and n not in named]
