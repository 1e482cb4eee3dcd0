"""Fixtures for the pipeline pages: two people, configured sources, runs in known states."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from research import services
from research.artifacts import Question
from research.models import Run
from research.runs import manifest, tasks
from research.store import store_for
from tests.runs import CORPUS_EN, run_question

QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"


@pytest.fixture
def notes_corpus(tmp_path: Path) -> Path:
    # A private copy: the local index is written next to the files it indexes.
    return Path(shutil.copytree(CORPUS_EN, tmp_path / "notes_en"))


@pytest.fixture(autouse=True)
def configured(settings, notes_corpus: Path) -> None:
    settings.SOURCES = {"notes": f"local:{notes_corpus}", "ddg": "ddgs"}
    settings.DEFAULT_SOURCES = ["notes"]


@pytest.fixture
def started(monkeypatch) -> list[tuple[str, str]]:
    """Stage starts handed to the task queue, recorded instead of sent to a broker."""
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(
        tasks, "start", lambda run_id, stage="retrieve": calls.append((run_id, stage))
    )
    return calls


def make_run(owner, question: str = QUESTION, **fields: Any) -> Run:
    return services.create_run(
        Question(
            question=question,
            options=fields.get("options", []),
            dimensions=fields.get("dimensions", []),
            preset=fields.get("preset", "tech"),
            sources=fields.get("sources", ["ddgs"]),
        ),
        owner=owner,
    )


def mark(run: Run, stage: str, status: str, counts: dict[str, Any] | None = None, **extra) -> None:
    """Put a stage in a state the way the pipeline does, in the manifest and the database."""
    times = {"started": "2025-01-01T10:00:00+00:00"}
    if status in ("done", "failed", "skipped"):
        times["finished"] = "2025-01-01T10:00:04+00:00"
    manifest.mark_stage(
        store_for(run.run_id), stage, counts=counts, status=status, **times, **extra
    )


@pytest.fixture
def finished_run(ada, notes_corpus: Path) -> Run:
    """A whole run of the pipeline over the local notes corpus, owned by ada."""
    run, _ = run_question(QUESTION, [f"local:{notes_corpus}"])
    run.owner = ada
    run.save(update_fields=["owner"])
    return run
