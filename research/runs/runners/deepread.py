"""Runs deep-read: reads the kept pages, stores their main text, writes the notes."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings

from research.artifacts import Filtered
from research.context import StageContext
from research.llm import open_llm
from research.names import NOTES, NOTES_MD, page_artifact
from research.providers.fetch import HttpFetcher
from research.runs.runners.common import record_outcomes
from research.stages.deepread import deep_read, notes_markdown
from research.store import RunStore, readers


def run_deepread(store: RunStore, ctx: StageContext) -> dict[str, Any]:
    plan = readers.plan(store)
    filtered = readers.filtered(store)
    records = readers.candidates(store).records
    result = deep_read(
        plan,
        filtered,
        HttpFetcher.from_settings(),
        ctx,
        workers=settings.FETCH_CONCURRENCY,
        llm=open_llm(store, ctx, "deepread"),
        records=records,
    )
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
