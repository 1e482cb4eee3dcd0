"""Putting a damaged run back on its feet from the files that are still sound.

A damaged artifact (its sha256 no longer what the manifest recorded, or missing) is
repaired by running the stage that wrote it again, and every later stage, since they were
built on it (`from_damage`). A manifest that cannot be read at all is rebuilt
(`rebuild_manifest`): the run's parameters come from its database row, and each stage, in
order, counts as done while its outputs are on disk and parse; the first stage that fails
that, and every later one, runs again. The unreadable manifest is kept beside it as
`index.json.damaged`, and the decision log says what was rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

from pydantic import ValidationError

from research.artifacts import STAGES, Notes
from research.models import Run
from research.names import FINISHED, NOTES, PAGES_DIR, stage_label
from research.runs import manifest, rows
from research.runs.registry import REGISTRY, active_stages, damaged_output
from research.store import (
    INDEX,
    ArtifactDamaged,
    ManifestDamaged,
    RunStore,
    StoreError,
    dumps,
    now_iso,
)

DAMAGED_COPY = f"{INDEX}.damaged"


def manifest_damage(store: RunStore) -> ManifestDamaged | None:
    try:
        store.index()
    except ManifestDamaged as exc:
        return exc
    return None


def from_damage(store: RunStore) -> tuple[str, ArtifactDamaged] | None:
    """The first stage with a damaged output and that damage, after resetting it and every
    later stage to run again; None when every finished stage's files are sound."""
    stages = store.index()["stages"]
    for stage in active_stages():
        if stages[stage]["status"] not in FINISHED:
            return None
        damage = damaged_output(store, stage)
        if damage is not None:
            store.log("artifact_damaged", file=damage.name, stage=stage, problem=damage.problem)
            manifest.reset_from(store.run_id, stage)
            return stage, damage
    return None


def rebuild_manifest(store: RunStore, damage: ManifestDamaged) -> str:
    """Write a new index.json from the run's row and its sound files; say what was done."""
    run = Run.objects.filter(run_id=store.run_id).first()
    if run is None:
        raise StoreError(
            f"{damage} No database row holds the run's parameters either, so it cannot be "
            "rebuilt: ask the question again."
        )
    with contextlib.suppress(OSError):
        store.backend.rename(INDEX, DAMAGED_COPY)
    index = {**store.new_index(rows.run_params(run), STAGES), "rebuilt": now_iso()}
    sound = []
    for stage in active_stages():
        files = _sound_outputs(store, stage)
        if files is None:
            break
        sound.append(stage)
        index["stages"][stage].update(status="done", finished=now_iso())
        index["artifacts"] += files
    index["artifacts"].sort(key=lambda entry: entry["name"])
    store.backend.write(INDEX, dumps(index))
    store.log("manifest_rebuilt", problem=damage.problem, sound=sound, kept_as=DAMAGED_COPY)
    for stage in STAGES:
        manifest.mark_stage(store, stage)  # the rows follow the new manifest
    if len(sound) < len(active_stages()):
        Run.objects.filter(pk=run.pk).update(finished=None)
    return _said(sound)


def _sound_outputs(store: RunStore, stage: str) -> list[dict[str, Any]] | None:
    """The manifest entries of the stage's files when all are there and parse, else None."""
    entries = []
    for name, model in REGISTRY[stage].outputs:
        entry = _entry(store, name, model)
        if entry is None:
            return None
        entries.append(entry)
    if stage == "deepread":
        pages = _pages(store)
        if pages is None:
            return None
        entries += pages
    return entries


def _pages(store: RunStore) -> list[dict[str, Any]] | None:
    """Every stored page the notes name, when all are there."""
    try:
        notes = Notes.model_validate_json(store.read_unchecked(NOTES))
    except (OSError, StoreError, ValidationError):
        return None
    entries = []
    for source in notes.ok_sources():
        if source.page:
            if not source.page.startswith(f"{PAGES_DIR}/"):
                return None
            entry = _entry(store, source.page, None)
            if entry is None:
                return None
            entries.append(entry)
    return entries


def _entry(store: RunStore, name: str, model) -> dict[str, Any] | None:
    try:
        data = store.read_unchecked(name)  # the name is checked: no links
        if model is not None:
            model.model_validate_json(data)
        else:
            data.decode("utf-8")
    except (OSError, StoreError, ValidationError, UnicodeDecodeError):
        return None
    return {"name": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _said(sound: list[str]) -> str:
    if not sound:
        return "rebuilt the manifest; no stage's output was sound, so the run starts over"
    last = stage_label(sound[-1])
    if len(sound) == len(active_stages()):
        return "rebuilt the manifest; every stage's output is sound"
    return f"rebuilt the manifest from the files that are sound, up to {last}"
