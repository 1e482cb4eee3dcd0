"""A stage's time with the model is bounded (LLM_STAGE_SECONDS), like its tokens: a model
that rate-limits every call or hangs costs a run that time once, not minutes per stage, and
the report says "LLM-assisted" only where the model's answers were used."""

from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from research.llm import open_llm
from research.outcomes import Outcome
from research.store import store_for
from tests.llm_stub import GOOD, LLMStub, Reply, answer, pick
from tests.runs import events

# Each test times the model against a budget of a second or two: run alone, after the rest.
pytestmark = pytest.mark.serial

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "notes_en"
QUESTION = "For our local-first notes app, choose between Quillsync, Loamdb and Tessera"


def whole_run() -> tuple[str, float]:
    get_user_model().objects.create_superuser("root", password="x" * 12)
    out = io.StringIO()
    started = time.monotonic()
    call_command("research", QUESTION, "--source", f"local:{CORPUS}", stdout=out)
    took = time.monotonic() - started
    run_id = re.search(r"^Run (\w+): ", out.getvalue(), re.MULTILINE).group(1)
    return run_id, took


@pytest.mark.django_db
def test_a_model_that_rate_limits_every_call_costs_the_run_one_stage_time_not_minutes(
    llm_settings, llm_stub: LLMStub
):
    llm_settings.LLM_STAGE_SECONDS = 2.0
    llm_stub.default = Reply(status=429, headers={"Retry-After": "30"}, error="slow down")

    run_id, took = whole_run()

    store = store_for(run_id)
    report = store.read_text("report.md")
    print(f"\nrate-limited model: the whole run took {took:.1f} s")
    assert took < 15, took
    assert (
        "· deterministic analysis: the model (stub-model) was configured, but none of its "
        "answers was used (its time ran out at retrieve, LLM_STAGE_SECONDS) ·"
    ) in report
    assert "LLM-assisted" not in report
    assert len(llm_stub.requests) == 1, "no try after a wait longer than the stage's time"
    assert [e["stage"] for e in events(store, "llm_time_out")] == ["retrieve"]


@pytest.mark.django_db
def test_a_hanging_model_costs_the_run_one_stage_time(llm_settings, llm_stub: LLMStub):
    llm_settings.LLM_STAGE_SECONDS = 2.0
    llm_settings.LLM_TIMEOUT = 60.0
    llm_stub.default = Reply(content=json.dumps(GOOD), delay=30)

    run_id, took = whole_run()

    report = store_for(run_id).read_text("report.md")
    print(f"\nhanging model: the whole run took {took:.1f} s")
    assert 2 <= took < 15, took
    assert "none of its answers was used (its time ran out at retrieve" in report


def test_a_stage_whose_model_time_runs_out_leaves_the_rest_to_the_reader_and_says_so(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_settings.LLM_STAGE_SECONDS = 1.0
    llm_settings.LLM_CONCURRENCY = 1
    llm_stub.default = answer(GOOD, delay=0.4)
    llm = open_llm(store, ctx, "filter")

    answers = llm.ask_all([pick() for _ in range(6)])

    assert [a.outcome for a in answers[:2]] == [Outcome.OK, Outcome.OK]
    assert answers[-1].outcome is Outcome.TIMEOUT
    assert answers[-1].reason == (
        "not asked: the stage's time with the model (1 s, LLM_STAGE_SECONDS) ran out"
    )
    assert len(llm_stub.requests) <= 3
    [entry] = store.index()["analysis"]["time_out"]
    assert (entry["stage"], entry["seconds"]) == ("filter", 1.0)
    # Answers were used in the stage: the model is still worth asking in the next one.
    assert "model_unreachable" not in store.index()["analysis"]
    assert open_llm(store, ctx, "deepread").ask(pick()).outcome is Outcome.OK
