"""Runs to open in the browser at phone and desktop width, made with the suite's own
builders: a whole pipeline run (tests.runs) and stages put in a state (the run page tests)."""

from __future__ import annotations

import shutil
from pathlib import Path

from research.models import Run
from research.runs import rows
from tests.research.web.conftest import make_run, mark
from tests.runs import CORPUS_EN, run_question

# A bare link with no place to break: 90 hex digits in one path segment.
LONG_URL = (
    "https://cdn.localfirst.community/uploads/original/"
    + "4f9c2e1d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e"
    + "/LoamdbBSL.pdf"
)
QUESTION = (
    "For our team's local-first notes app, choose a sync engine, weighing licence risk, "
    "maintenance activity, customisation cost, documentation quality, community size and "
    "offline editing support"
)
# Six options by six dimensions: a matrix wider than a phone, and than some laptops.
OPTIONS = ["Quillsync", "Loamdb", "Tessera", "Ferrotime", "Automerge Repo", "Electric SQL"]
DIMENSIONS = [
    ("licence risk", 3),
    ("maintenance activity", 3),
    ("customisation cost", 2),
    ("documentation quality", 1),
    ("community size", 1),
    ("offline editing support", 2),
]
# The forum post on Loamdb's licence change, which Loamdb's README contradicts.
LICENCE_SENTENCE = "Loamdb switched to the Business Source License (BSL) in 2024."


def corpus_with_a_long_url(folder: Path) -> Path:
    """The notes corpus, its sentence on Loamdb's licence change citing a long bare link."""
    corpus = Path(shutil.copytree(CORPUS_EN, folder / "notes_en"))
    forum = corpus / "forum-loamdb-licence-change.html"
    html = forum.read_text(encoding="utf-8")
    assert LICENCE_SENTENCE in html
    cited = LICENCE_SENTENCE.replace("2024.", f"2024 ({LONG_URL}).")
    forum.write_text(html.replace(LICENCE_SENTENCE, cited), encoding="utf-8")
    return corpus


def finished_wide_run(owner, folder: Path) -> Run:
    """A whole run over that corpus, six options by six dimensions, owned by `owner`."""
    corpus = corpus_with_a_long_url(folder)
    run, _ = run_question(QUESTION, [f"local:{corpus}"], OPTIONS, DIMENSIONS)
    assert run.status == Run.Status.DONE, run.error
    run.owner = owner
    run.save(update_fields=["owner"])
    return run


def run_in_progress(owner, question: str = QUESTION) -> Run:
    """Retrieve and filter done with their counts, deep-read running."""
    run = make_run(
        owner,
        question,
        options=OPTIONS[:3],
        dimensions=[{"name": n, "weight": w} for n, w in DIMENSIONS[:3]],
        sources=[f"local:{CORPUS_EN}"],  # the spec the browser tests name "notes"
    )
    mark(run, "retrieve", "done", {"queries": 18, "candidates": 25, "outcomes": {"OK": 18}})
    mark(run, "filter", "done", {"kept": 12, "dropped": 13})
    mark(run, "deepread", "running")
    rows.mark_run(run.run_id, Run.Status.RUNNING, "deepread")
    return run
