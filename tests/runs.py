"""Running a whole question in-process, the way the CLI does, for end-to-end tests."""

from __future__ import annotations

from pathlib import Path

from research import pipeline, services, steps  # noqa: F401  (steps registers the stages)
from research.models import Run
from research.store import RunStore

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CORPUS_EN = FIXTURES / "corpus" / "notes_en"
CORPUS_ZH = FIXTURES / "corpus" / "notes_zh"


def run_question(
    question: str,
    sources: list[str],
    options: list[str] | None = None,
    dimensions: list[tuple[str, float]] | None = None,
) -> tuple[Run, RunStore]:
    run = services.create_run(
        question=question,
        options=options or [],
        dimensions=[{"name": n, "weight": w} for n, w in dimensions or []],
        preset="",
        sources=sources,
        limits={},
    )
    stage: str | None = pipeline.active_stages()[0]
    while stage is not None:
        pipeline.execute_stage(run.run_id, stage)
        last, stage = stage, pipeline.next_stage(stage)
    pipeline.finish_run(run.run_id, last)
    run.refresh_from_db()
    return run, services.store_for(run.run_id)
