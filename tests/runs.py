"""Running a whole question in-process, the way the CLI does, for end-to-end tests."""

from __future__ import annotations

from pathlib import Path

from research import services
from research.artifacts import Question
from research.models import Run
from research.runs import execute, manifest, registry
from research.store import RunStore, store_for

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
        Question(
            question=question,
            options=options or [],
            dimensions=[{"name": n, "weight": w} for n, w in dimensions or []],
            sources=sources,
        )
    )
    stage: str | None = registry.active_stages()[0]
    while stage is not None:
        execute.execute_stage(run.run_id, stage)
        last, stage = stage, registry.next_stage(stage)
    manifest.finish_run(run.run_id, last)
    run.refresh_from_db()
    return run, store_for(run.run_id)
