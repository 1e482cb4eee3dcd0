"""The parts of a deep-read spread over workers.

A run reading more than DEEPREAD_SPLIT_PAGES pages reads them in shares of
DEEPREAD_PART_PAGES, in reading order. Part n fetches, stores and scores its share
(research.stages.deepread.read_part) and writes round_3_parts/<n>.json; the manifest's
deep-read entry records the shares and which parts are done:

    stages.deepread.parts = {"shares": [[source ids of part 0], ...], "done": [0, 2]}

A part is done when it is listed there and its file is sound (its recorded sha256) and
holds that share. The shares follow from the run's files and settings alone, so a part
read before a worker died counts for the next attempt, and a changed share is read again.

What one reading of all the pages shares across them is kept so: syndicated copies and the
options' other names are worked out by the merge from every part; robots.txt is read by
each part once per site, with the same answer; the per-site limit on requests at once
(FETCH_PER_HOST) is divided among the parts, which workers may all be fetching at once
(read in-process, one after another, each part has all of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from research.artifacts import (
    DeepReadPart,
    Filtered,
    KeptCandidate,
    PartPage,
    Plan,
    PrimaryRecordDoc,
    ScoredPoint,
)
from research.context import StageContext
from research.llm import LLMConfig
from research.names import part_artifact
from research.outcomes import Outcome
from research.providers.fetch import HttpFetcher
from research.reading import MIN_SCORE, Scored
from research.runs.runners.common import located, owner_of
from research.runs.spec import StageError
from research.stages.deepread import PageRead, PartRead, pages_to_read, read_part
from research.stages.modelpoints import WIDER_NET
from research.store import ArtifactDamaged, RunStore, StoreError, readers

STAGE = "deepread"


class MissingPart(StageError):
    """The merge was asked for before every part was read."""


@dataclass
class Inputs:
    plan: Plan
    filtered: Filtered
    records: list[PrimaryRecordDoc]

    @classmethod
    def load(cls, store: RunStore) -> Inputs:
        filtered = located(readers.filtered(store), owner_of(store.run_id))
        return cls(readers.plan(store), filtered, readers.candidates(store).records)


def shares_of(inputs: Inputs) -> list[list[KeptCandidate]]:
    """The pages to read, one share per part; a single share when the run is not split."""
    chosen = pages_to_read(inputs.plan, inputs.filtered, inputs.records)
    if len(chosen) <= settings.DEEPREAD_SPLIT_PAGES:
        return [chosen]
    size = settings.DEEPREAD_PART_PAGES
    return [chosen[i : i + size] for i in range(0, len(chosen), size)]


def split(store: RunStore) -> int:
    """How many parts the run's deep-read reads in (1: not split)."""
    return len(shares_of(Inputs.load(store)))


def begin(store: RunStore, shares: list[list[KeptCandidate]]) -> list[int]:
    """Record the shares in the manifest, keeping the parts already done with these same
    shares; returns the parts still to read."""
    ids = _ids(shares)

    def record(index: dict[str, Any]) -> None:
        entry = index["stages"][STAGE]
        state = entry.get("parts") or {}
        done = state.get("done", []) if state.get("shares") == ids else []
        entry["parts"] = {"shares": ids, "done": sorted(done)}

    store.update_index(record)
    return missing(store)


def state(store: RunStore) -> dict[str, Any] | None:
    """The manifest's record of the parts: their shares and which are done."""
    found = store.index()["stages"][STAGE].get("parts")
    return found if isinstance(found, dict) and found.get("shares") else None


def missing(store: RunStore) -> list[int]:
    """The parts not yet done (all of them when none were recorded)."""
    recorded = state(store)
    if recorded is None:
        return []
    return [n for n in range(len(recorded["shares"])) if not is_done(store, n, recorded)]


def is_done(store: RunStore, number: int, recorded: dict[str, Any] | None = None) -> bool:
    recorded = recorded or state(store)
    if recorded is None or number not in recorded.get("done", []):
        return False
    return _load(store, number, recorded["shares"][number]) is not None


def read(
    store: RunStore, inputs: Inputs, number: int, ctx: StageContext, alone: bool = False
) -> dict[str, Any]:
    """Read part `number`, write what it read, and mark it done. Raises MissingPart when
    the run's shares no longer match the ones recorded (the run was re-run meanwhile).
    `alone`: no other part is read meanwhile (in-process), so it may use every request
    FETCH_PER_HOST allows a site."""
    shares = shares_of(inputs)
    recorded = state(store)
    if recorded is None or recorded["shares"] != _ids(shares) or number >= len(shares):
        raise MissingPart(f"part {number + 1} of deep-read is no longer one of its parts")
    share = shares[number]
    per_host = settings.FETCH_PER_HOST if alone else max(1, settings.FETCH_PER_HOST // len(shares))
    floor = WIDER_NET if LLMConfig.from_settings() else MIN_SCORE
    part = read_part(
        inputs.plan,
        inputs.filtered,
        share,
        HttpFetcher.from_settings(per_host=per_host),
        settings.FETCH_CONCURRENCY,
        floor,
    )
    store.write_json(part_artifact(number), _document(number, share, part))
    _mark_done(store, number, _ids(shares))
    ok = sum(1 for page in part.pages if page.notes.status is Outcome.OK)
    counts = {"part": number, "of": len(shares), "pages": len(share), "ok": ok}
    ctx.record("part_read", **counts)
    return counts


def load_all(store: RunStore, inputs: Inputs) -> list[PartRead]:
    """Every part's reading, in order; MissingPart names the first that is not done."""
    ids = _ids(shares_of(inputs))
    recorded = state(store)
    loaded = []
    for number, share in enumerate(ids):
        part = None
        if recorded is not None and recorded["shares"] == ids:
            part = _load(store, number, share) if number in recorded["done"] else None
        if part is None:
            raise MissingPart(f"part {number + 1} of {len(ids)} of deep-read has not been read")
        loaded.append(part)
    return loaded


def _mark_done(store: RunStore, number: int, ids: list[list[str]]) -> None:
    def mark(index: dict[str, Any]) -> bool:
        state = index["stages"][STAGE].get("parts") or {}
        if state.get("shares") != ids:
            return False  # the run was re-run meanwhile: this part is not one of its parts
        state["done"] = sorted({*state.get("done", []), number})
        return True

    store.update_index(mark)


def _ids(shares: list[list[KeptCandidate]]) -> list[list[str]]:
    return [[c.id for c in share] for share in shares]


# --- the part's file ---------------------------------------------------------------------


def _document(number: int, share: list[KeptCandidate], part: PartRead) -> DeepReadPart:
    return DeepReadPart(
        part=number,
        source_ids=[c.id for c in share],
        aliases={o: list(a) for o, a in part.aliases.items()},
        min_score=part.min_score,
        pages=[
            PartPage(
                notes=page.notes,
                stored=page.stored,
                scored=None if page.scored is None else [_scored_doc(s) for s in page.scored],
            )
            for page in part.pages
        ],
    )


def _scored_doc(scored: Scored) -> ScoredPoint:
    return ScoredPoint(score=scored.score, at=scored.at, point=scored.point, table=scored.table)


def _load(store: RunStore, number: int, share: list[str]) -> PartRead | None:
    """Part `number`'s reading when its file is sound and holds `share`, else None."""
    try:
        doc = store.read_model(part_artifact(number), DeepReadPart)
    except (ArtifactDamaged, StoreError, OSError):
        return None
    if doc.part != number or doc.source_ids != share:
        return None
    pages = [
        PageRead(
            notes=page.notes,
            stored=page.stored,
            scored=None
            if page.scored is None
            else [Scored(s.score, s.at, s.point, s.table) for s in page.scored],
        )
        for page in doc.pages
    ]
    return PartRead(pages, {o: tuple(a) for o, a in doc.aliases.items()}, doc.min_score)
