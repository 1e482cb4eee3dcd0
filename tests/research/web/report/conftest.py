"""Finished runs for the report pages, built once per test session and copied into each
test's runs folder, so every test reads real artifacts without re-running the pipeline."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import override_settings

from research import services
from research.artifacts import Question
from research.models import Run
from research.runs import execute, manifest, registry, rows
from research.store import store_for
from tests.runs import CORPUS_EN, CORPUS_ZH

NOTES_QUESTION = (
    "For our team's local-first notes app, choose between Quillsync, Loamdb and Tessera, "
    "weighing licence risk, maintenance activity and customisation cost"
)
NOTES_DIMENSIONS = [
    {"name": "licence risk", "weight": 0.4},
    {"name": "maintenance activity", "weight": 0.35},
    {"name": "customisation cost", "weight": 0.25},
]
ZH_QUESTION = "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？"


@dataclass(frozen=True)
class Recipe:
    question: str
    corpus: str  # "en" or "zh"
    dimensions: tuple = ()
    limits: tuple = ()  # (name, value) pairs
    threshold: int = 65


RECIPES = {
    "en": Recipe(NOTES_QUESTION, "en", tuple(NOTES_DIMENSIONS)),
    # Every run falls below the threshold, so the report must open with the warning; with
    # three pages read, much is missing, and the best-scoring option (Tessera) rests on its
    # own site alone, so nothing is recommended.
    "en_low": Recipe(
        NOTES_QUESTION, "en", tuple(NOTES_DIMENSIONS), (("max_pages", 3),), threshold=101
    ),
    # Every page read, but below the threshold: the recommendation is provisional.
    "en_provisional": Recipe(NOTES_QUESTION, "en", tuple(NOTES_DIMENSIONS), threshold=101),
    # A reading budget of two pages leaves kept pages unread.
    "en_budget": Recipe(NOTES_QUESTION, "en", tuple(NOTES_DIMENSIONS), (("max_pages", 2),)),
    "zh": Recipe(ZH_QUESTION, "zh"),
    # Options no page speaks of: nothing to recommend, no number to show.
    "none": Recipe(
        "For our notes app, choose between Zorblat and Quexifor, weighing cost and licence risk",
        "en",
        ({"name": "cost", "weight": 0.5}, {"name": "licence risk", "weight": 0.5}),
    ),
}


def _build(recipe: Recipe, corpora: dict[str, Path]) -> Run:
    run = services.create_run(
        Question(
            question=recipe.question,
            dimensions=list(recipe.dimensions),
            sources=[f"local:{corpora[recipe.corpus]}"],
            limits=dict(recipe.limits),
        )
    )
    stage: str | None = registry.active_stages()[0]
    while stage is not None:
        execute.execute_stage(run.run_id, stage)
        last, stage = stage, registry.next_stage(stage)
    manifest.finish_run(run.run_id, last)
    run.refresh_from_db()
    assert run.status == Run.Status.DONE, run.error
    return run


@pytest.fixture(scope="session")
def built_runs(tmp_path_factory, django_db_setup, django_db_blocker) -> dict[str, Path]:
    """Recipe name -> a finished run folder (not in any test's runs folder, no Run row)."""
    root = tmp_path_factory.mktemp("built")
    corpora = {
        "en": shutil.copytree(CORPUS_EN, root / "notes_en"),
        "zh": shutil.copytree(CORPUS_ZH, root / "notes_zh"),
    }
    runs_dir = root / "runs"
    runs_dir.mkdir()
    built = {}
    with django_db_blocker.unblock(), override_settings(RUNS_DIR=runs_dir, RETRY_BASE_DELAY=0.0):
        for name, recipe in RECIPES.items():
            with override_settings(CONFIDENCE_THRESHOLD=recipe.threshold):
                run = _build(recipe, corpora)
            built[name] = runs_dir / run.run_id
            run.delete()  # the rows would outlive the session's tests otherwise
    return built


@pytest.fixture
def install(built_runs, runs_dir: Path, ada):
    """`install("en")`: a copy of a built run in this test's runs folder, owned by ada."""

    def copy(name: str, owner=None, status: str = Run.Status.DONE) -> Run:
        folder = built_runs[name]
        shutil.copytree(folder, runs_dir / folder.name)
        run = rows.ensure_run_row(store_for(folder.name))
        run.owner = owner or ada
        run.status = status
        run.save()
        return run

    return copy
