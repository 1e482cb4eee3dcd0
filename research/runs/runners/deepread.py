"""Runs deep-read: reads the kept pages, stores their main text, writes the notes.

A run that reads more than DEEPREAD_SPLIT_PAGES pages reads them in parts of
DEEPREAD_PART_PAGES (research.runs.runners.parts): each part writes what it read to
round_3_parts/<n>.json, and the merge turns the parts into the same pages and notes one
reading of all of them writes. In a worker the parts run as a Celery chord
(research.runs.chord); here, in-process, one after another, skipping those already done.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings

from research.artifacts import Filtered
from research.context import StageContext
from research.llm import open_llm
from research.names import NOTES, NOTES_MD, page_artifact
from research.providers.fetch import HttpFetcher
from research.runs.runners import parts
from research.runs.runners.common import record_outcomes
from research.stages.deepread import DeepRead, deep_read, merge_parts, note_chosen, notes_markdown
from research.store import RunStore


def run_deepread(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    inputs = parts.Inputs.load(store)
    shares = parts.shares_of(inputs)
    if len(shares) > 1:
        note_chosen(ctx, [page for share in shares for page in share])
        for number in parts.begin(store, shares):
            parts.read(store, inputs, number, ctx, alone=True)
        return merge(store, ctx, inputs)
    result = deep_read(
        inputs.plan,
        inputs.filtered,
        HttpFetcher.from_settings(),
        ctx,
        workers=settings.FETCH_CONCURRENCY,
        llm=open_llm(store, ctx, "deepread"),
        records=inputs.records,
    )
    return _write(store, result, inputs.filtered)


def merge(store: RunStore, ctx: StageContext, inputs: parts.Inputs | None = None) -> dict[str, Any]:
    """The merge of a split deep-read: every part's reading, in reading order, written as
    the notes and pages. Raises MissingPart when a part is not done."""
    inputs = inputs or parts.Inputs.load(store)
    read = parts.load_all(store, inputs)
    result = merge_parts(
        inputs.plan,
        inputs.filtered,
        read,
        ctx,
        llm=open_llm(store, ctx, "deepread"),
        records=inputs.records,
    )
    return {**_write(store, result, inputs.filtered), "parts": len(read)}


def _write(store: RunStore, result: DeepRead, filtered: Filtered) -> dict[str, Any]:
    store.write_texts({page_artifact(sid): text for sid, text in result.pages.items()})
    store.write_json(NOTES, result.notes)
    store.write_text(NOTES_MD, notes_markdown(result.notes))
    record_outcomes(
        store,
        "deepread",
        [
            ("primary record" if s.kind else _reader(s.source_id, filtered), s.status.value)
            for s in result.notes.sources
        ],
    )
    ok = result.notes.ok_sources()
    return {
        "read": len(result.notes.sources),
        "ok": len(ok),
        "key_points": sum(len(s.key_points) for s in ok),
        "outcomes": dict(Counter(s.status.value for s in result.notes.sources)),
    }


def _reader(source_id: str, filtered: Filtered) -> str:
    local = any(k.id == source_id and k.local_path for k in filtered.kept)
    return "local file" if local else "http fetch"
