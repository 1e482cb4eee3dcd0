"""Each artifact of a run read one way: as its model (research.artifacts), checked against
the sha256 the manifest recorded when it was written (ArtifactDamaged when it is not what
was written, FileNotFoundError when it was never written)."""

from __future__ import annotations

from pydantic import BaseModel

from research.artifacts import (
    Candidates,
    Corrections,
    Crosscheck,
    Decision,
    Filtered,
    Notes,
    Plan,
)
from research.names import (
    CANDIDATES,
    CORRECTIONS,
    CROSSCHECK,
    DECISION,
    FILTERED,
    NOTES,
    PLAN,
    REPORT,
)
from research.store.run_store import RunStore

# The model of each JSON artifact; the Markdown ones are text.
MODELS: dict[str, type[BaseModel]] = {
    PLAN: Plan,
    CANDIDATES: Candidates,
    FILTERED: Filtered,
    NOTES: Notes,
    CROSSCHECK: Crosscheck,
    DECISION: Decision,
    CORRECTIONS: Corrections,
}


def plan(store: RunStore) -> Plan:
    return store.read_model(PLAN, Plan)


def candidates(store: RunStore) -> Candidates:
    return store.read_model(CANDIDATES, Candidates)


def filtered(store: RunStore) -> Filtered:
    return store.read_model(FILTERED, Filtered)


def notes(store: RunStore) -> Notes:
    return store.read_model(NOTES, Notes)


def crosscheck(store: RunStore) -> Crosscheck:
    return store.read_model(CROSSCHECK, Crosscheck)


def decision(store: RunStore) -> Decision:
    return store.read_model(DECISION, Decision)


def corrections(store: RunStore) -> Corrections:
    """The owner's corrections of the reader; none when nobody has corrected anything."""
    if CORRECTIONS not in store.artifact_names():
        return Corrections()
    return store.read_model(CORRECTIONS, Corrections)


def report(store: RunStore) -> str:
    return store.read_text(REPORT)


def stored_pages(store: RunStore, read: Notes) -> dict[str, str]:
    """The main text deep-read stored for each source it read, by source id."""
    return {s.source_id: store.read_text(s.page) for s in read.ok_sources() if s.page}


def sound(store: RunStore, name: str) -> bool:
    """Whether the artifact is there, matches its recorded sha256 and parses."""
    return store.is_valid(name, MODELS.get(name))
