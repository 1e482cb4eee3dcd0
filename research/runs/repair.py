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

from django.utils import timezone
from pydantic import ValidationError

from research.artifacts import STAGES, Notes
from research.models import Run, StageRun
from research.names import (
    CORRECTIONS,
    DECISION,
    FINISHED,
    NOTES,
    PAGES_DIR,
    REPORT,
    SAVED_ABOUT,
    saved_artifact,
    stage_label,
)
from research.runs import manifest, rows
from research.runs.registry import REGISTRY, active_stages, damaged_output
from research.store import (
    INDEX,
    ArtifactDamaged,
    ManifestDamaged,
    RunLocked,
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
    index, sound = _rebuilt(store, run)
    _replace(store, index, damage, sound)
    if len(sound) < len(active_stages()):
        Run.objects.filter(pk=run.pk).update(finished=None)
    return _said(sound)


def mend(store: RunStore) -> ManifestDamaged | None:
    """For the pages and tools that read a run: a missing or unreadable manifest rebuilt
    when that changes nothing else, that is when the run is not going and every stage's
    files are sound. Returns the damage mended, or None (nothing to mend, or a repair
    that needs stages run again: the Repair button's)."""
    damage = manifest_damage(store)
    run = Run.objects.filter(run_id=store.run_id).first() if damage else None
    if run is None or run.status in (Run.Status.QUEUED, Run.Status.RUNNING):
        return None
    try:
        with store.lock():
            if manifest_damage(store) is None:
                return None  # mended meanwhile, by another reader
            index, sound = _rebuilt(store, run)
            if len(sound) < len(active_stages()):
                return None
            if run.status == Run.Status.DONE:
                index["finished"] = (run.finished or run.updated).isoformat()
            _replace(store, index, damage, sound)
    except (RunLocked, OSError):
        return None
    return damage


def _rebuilt(store: RunStore, run: Run) -> tuple[dict[str, Any], list[str]]:
    """The manifest the run's row and its sound files give, and the stages found sound:
    each keeps its times, attempts and counts from its row."""
    index = {**store.new_index(rows.run_params(run), STAGES), "rebuilt": now_iso()}
    kept = {row.stage: row for row in run.stages.all()}
    sound = []
    for stage in active_stages():
        files = _sound_outputs(store, stage)
        if files is None:
            break
        sound.append(stage)
        index["stages"][stage].update(_entry_of(kept.get(stage)))
        index["artifacts"] += files
    index["artifacts"] += _beside(store, index["artifacts"])
    index["artifacts"].sort(key=lambda entry: entry["name"])
    return index, sound


def _entry_of(row: StageRun | None) -> dict[str, Any]:
    if row is None or row.status not in FINISHED:
        return {"status": "done", "finished": now_iso()}
    entry = {
        "status": row.status,
        "started": row.started.isoformat() if row.started else None,
        "finished": (row.finished or timezone.now()).isoformat(),
        "attempts": row.attempts,
    }
    if row.counts or row.outcomes:
        entry["counts"] = {**row.counts, "outcomes": row.outcomes}
    return entry


def _beside(store: RunStore, listed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The run's own files besides the stages' outputs (the owner's corrections, decisions
    saved with other weights), as they are."""
    names = {entry["name"] for entry in listed}
    wanted = [CORRECTIONS]
    number = 1
    while store.has(saved_artifact(number, SAVED_ABOUT)):
        wanted += [saved_artifact(number, name) for name in (DECISION, REPORT, SAVED_ABOUT)]
        number += 1
    return [
        entry
        for name in wanted
        if name not in names and store.has(name) and (entry := _entry(store, name, None))
    ]


def _replace(
    store: RunStore, index: dict[str, Any], damage: ManifestDamaged, sound: list[str]
) -> None:
    """Put the rebuilt manifest in place, the unreadable one kept beside it."""
    kept = None
    with contextlib.suppress(OSError):
        store.backend.rename(INDEX, DAMAGED_COPY)
        kept = DAMAGED_COPY
    store.backend.write(INDEX, dumps(index))
    store.log("manifest_rebuilt", problem=damage.problem, sound=sound, kept_as=kept)
    for stage in STAGES:
        manifest.mark_stage(store, stage)  # the rows follow the new manifest


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
