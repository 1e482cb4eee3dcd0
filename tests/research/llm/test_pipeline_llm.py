"""A whole run in LLM mode against the stub, whose generic answers fit every stage's schema:
it finishes, says which mode and model made it, counts every stage's tokens, reads as many
pages as a run without a model, and stays within the run's token budget."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from research import services
from research.artifacts import STAGES, Question
from research.names import DECISION, NOTES, PLAN, REPORT
from research.store import store_for
from tools.bench import model_tokens

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "notes_en"
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"


def test_a_whole_run_in_llm_mode_records_its_tokens_and_stays_within_its_budget(runs_dir):
    with model_tokens.stub_endpoint(runs_dir) as stub:
        run = services.create_run(
            Question(
                question=QUESTION,
                dimensions=[
                    {"name": "licence risk", "weight": 0.4},
                    {"name": "maintenance activity", "weight": 0.35},
                    {"name": "customisation cost", "weight": 0.25},
                ],
                sources=[f"local:{CORPUS}"],
            )
        )
        caps = model_tokens.run_all_stages(run.run_id, stub)
        measured = model_tokens.measure("notes corpus", run.run_id, stub, caps)
        budget = settings.LLM_MAX_TOKENS_PER_RUN
    store = store_for(run.run_id)
    index = store.index()
    print("\n".join(model_tokens.lines(measured)))

    assert all(index["stages"][s]["status"] == "done" for s in STAGES)
    assert index["analysis"]["mode"] == "llm" and index["analysis"]["model"] == "bench-stub"
    # Every stage that asked the model has its tokens in the manifest, and they add up to
    # what the endpoint reported.
    asked = {e["stage"] for e in store.read_log() if e["event"] == "llm_call"}
    assert {"retrieve", "filter", "decide"} <= asked
    for stage in asked:
        assert index["tokens"][stage]["prompt"] > 0 and index["tokens"][stage]["completion"] > 0
    assert index["tokens"]["total"] == stub.tokens == measured.total
    # The limits are those of a run without a model, and every page of the corpus on the
    # question is read: more than the model is sent.
    assert store.read_json(PLAN)["limits"] | {"min_kept": 0} == {
        "max_candidates": 50,
        "max_kept": 30,
        "min_kept": 0,
        "max_pages": 30,
        "max_page_chars": 30_000,
    }
    read = [s for s in store.read_json(NOTES)["sources"] if s["status"] == "OK"]
    assert len(read) > 8
    [deep] = [e for e in store.read_log() if e["event"] == "key_points_by_model"]
    # The model read every sentence about an option of every page read.
    assert deep["sentences_read"] == deep["sentences"] > 0 and deep["sentences_unread"] == 0
    # The budget invariant: a whole run stays within the 30,000-token target and the
    # default budget, without a call held back for want of room.
    assert budget == 30_000
    assert 0 < index["tokens"]["total"] <= model_tokens.TARGET
    assert "budget_exhausted" not in index["analysis"]

    decision = store.read_json(DECISION)
    assert decision["mode"] == "llm" and decision["model"] == "bench-stub"
    judged = [c for c in decision["matrix"] if c["model_base"] is not None]
    assert judged, "the model gave no cell's lean"
    for cell in judged:
        assert set(cell["model_claim_ids"]) <= set(cell["claim_ids"])
        assert any(n.startswith("the model gave the lean") for n in cell["notes"])
    report = store.read_text(REPORT)
    assert "LLM-assisted analysis (bench-stub)" in report
