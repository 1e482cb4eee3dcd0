"""The files of one run as the artifacts pages list them.

Only names the manifest records, plus the manifest and the decision log themselves, can be
listed, shown or downloaded; every name is also resolved through the run store, which
refuses anything that would leave the run folder.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy

from research.names import (
    CANDIDATES,
    CROSSCHECK,
    DECISION,
    FILTERED,
    NOTES,
    NOTES_MD,
    PAGES_DIR,
    PLAN,
    REPORT,
    artifact_stage,
    stage_label,
)
from research.store import INDEX, LOG, ManifestDamaged, RunStore, StoreError, readers

PAGES = f"{PAGES_DIR}/"
MAX_SHOWN_BYTES = 2_000_000  # larger files are offered as a download only

DESCRIPTIONS = {
    PLAN: gettext_lazy("The plan: options, dimensions and weights, and the search queries"),
    CANDIDATES: gettext_lazy("Every candidate source found, and how each search ended"),
    FILTERED: gettext_lazy("The sources kept, with scores and reasons, and those dropped"),
    NOTES: gettext_lazy("Key points of every page read, with exact quotes"),
    NOTES_MD: gettext_lazy("The same notes, as Markdown"),
    CROSSCHECK: gettext_lazy("Claims, agreements, contradictions and gaps"),
    DECISION: gettext_lazy("The score matrix, ranking, recommendation and assessment"),
    REPORT: gettext_lazy("The report, as Markdown"),
    INDEX: gettext_lazy(
        "The manifest: parameters, stage statuses, timings and every file's checksum"
    ),
    LOG: gettext_lazy("The decision log: every judgement the run made, one event a line"),
}
CONTENT_TYPES = {
    ".json": "application/json",
    ".jsonl": "application/x-ndjson",
    ".md": "text/markdown; charset=utf-8",
}


class NotAnArtifact(Exception):
    """The name is not a file of this run."""


@dataclass(frozen=True)
class RunFile:
    name: str
    bytes: int
    sha256: str
    description: str
    # How the file on disk differs from what the manifest recorded; empty when it matches.
    problem: str = ""

    @property
    def stage(self) -> str | None:
        """The stage that wrote it, which re-running repairs it."""
        return artifact_stage(self.name)

    @property
    def stage_label(self) -> str:
        return stage_label(self.stage) if self.stage else ""

    @property
    def kind(self) -> str:
        return Path(self.name).suffix.lstrip(".") or "file"

    @property
    def content_type(self) -> str:
        return CONTENT_TYPES.get(Path(self.name).suffix, "text/plain; charset=utf-8")


@dataclass(frozen=True)
class Groups:
    outputs: list[RunFile]
    pages: list[RunFile]
    records: list[RunFile]

    @property
    def count(self) -> int:
        return len(self.outputs) + len(self.pages) + len(self.records)


def run_files(store: RunStore) -> Groups:
    """The run's files as the manifest lists them, each checked against its recorded
    sha256. ManifestDamaged when the manifest cannot be read (records() lists what can
    still be shown then)."""
    titles = _page_titles(store)
    entries = [e for e in store.index().get("artifacts", []) if isinstance(e, dict)]
    listed = [_checked(store, _from_manifest(entry, titles)) for entry in entries]
    records = records_of(store)
    return Groups(
        # Rounds in pipeline order, then the report they end in.
        outputs=sorted(
            (f for f in listed if not f.name.startswith(PAGES)),
            key=lambda f: (not f.name.startswith("round_"), f.name),
        ),
        pages=[f for f in listed if f.name.startswith(PAGES)],
        records=[f for f in records if f is not None],
    )


def records_of(store: RunStore) -> list[RunFile]:
    """The manifest and the log, measured on disk: listed even when the manifest is damaged."""
    return [f for f in (_measured(store, name) for name in (INDEX, LOG)) if f is not None]


def find(store: RunStore, name: str) -> tuple[RunFile, bytes]:
    """The listed file called `name` and its bytes as stored; NotAnArtifact for anything
    else. With the manifest damaged, only the manifest and the log can be found."""
    try:
        groups = run_files(store)
        listed = groups.outputs + groups.pages + groups.records
    except ManifestDamaged:
        listed = records_of(store)
    match = next((f for f in listed if f.name == name), None)
    if match is None:
        raise NotAnArtifact(name)
    try:
        return match, store.read_unchecked(name)
    except (OSError, StoreError) as exc:
        raise NotAnArtifact(name) from exc


def shown_text(name: str, data: bytes) -> str:
    """The file as text for the browser: JSON pretty-printed, anything else as it is."""
    text = data.decode("utf-8", errors="replace")
    if name.endswith(".json"):
        try:
            return json.dumps(json.loads(text), ensure_ascii=False, indent=2)
        except ValueError:
            return text
    return text


def log_events(data: bytes) -> list[dict[str, Any]]:
    """The decision log as rows: time, event, and the rest of the line as name/value pairs."""
    events = []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            data = {"event": "(unreadable line)", "line": line}
        ts, event = str(data.pop("ts", "")), str(data.pop("event", ""))
        fields = [(key, _compact(value)) for key, value in data.items()]
        events.append({"number": number, "ts": ts, "event": event, "fields": fields})
    return events


def _compact(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _checked(store: RunStore, listed: RunFile) -> RunFile:
    damage = store.damage(listed.name)
    return replace(listed, problem=damage.problem) if damage is not None else listed


def _from_manifest(entry: dict[str, Any], titles: dict[str, str]) -> RunFile:
    name = str(entry.get("name"))
    description = str(DESCRIPTIONS.get(name) or titles.get(name, ""))
    size = entry.get("bytes")
    size = size if isinstance(size, int) else 0
    return RunFile(name, size, str(entry.get("sha256", "")), description)


def _page_titles(store: RunStore) -> dict[str, str]:
    """What each stored page is, from the notes: its title and site."""
    try:
        sources = readers.notes(store).sources
    except (OSError, StoreError):
        return {}
    titles = {}
    for source in sources:
        if source.page:
            parts = [(source.title or "").strip(), source.site or ""]
            titles[source.page] = " · ".join(p for p in parts if p)
    return titles


def _measured(store: RunStore, name: str) -> RunFile | None:
    """The manifest and the log are not listed in the manifest: measure them here."""
    try:
        data = store.read_unchecked(name)
    except (OSError, StoreError):
        return None
    return RunFile(name, len(data), hashlib.sha256(data).hexdigest(), DESCRIPTIONS[name])
