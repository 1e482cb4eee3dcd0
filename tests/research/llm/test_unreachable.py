"""A model that cannot be reached costs a run one stage's wait, not one per stage."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from research import services
from research.artifacts import Decision, Question
from research.context import StageContext
from research.llm import Ask, open_llm
from research.outcomes import Outcome
from research.runs import manifest
from research.runs.runners.decide import with_analysis
from research.store import store_for
from tests.llm_stub import GOOD, LLMStub, Pick, Reply, answer, pick
from tests.runs import events


def test_an_endpoint_that_times_out_is_not_asked_again_by_later_stages(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_settings.LLM_TIMEOUT = 0.5
    llm_stub.default = Reply(content=json.dumps(GOOD), delay=1.5)
    filtered = open_llm(store, ctx, "filter")
    assert filtered.ask(pick()).outcome is Outcome.TIMEOUT
    tried = len(llm_stub.requests)
    assert tried == 3  # the call's own tries

    llm_stub.default = answer(GOOD)  # even if it came back, this run has moved on
    later = open_llm(store, ctx, "deepread").ask(pick())
    assert later.outcome is Outcome.TIMEOUT and later.value is None
    assert later.reason.startswith("not asked: the model could not be reached during filter")
    assert len(llm_stub.requests) == tried
    down = store.index()["analysis"]["model_unreachable"]
    assert down["stage"] == "filter" and down["outcome"] == "TIMEOUT"
    [noted] = events(store, "llm_unreachable")
    assert noted["then"] == "the rest of the run does not ask the model"
    assert [e["stage"] for e in events(store, "llm_fallback")] == ["filter", "deepread"]


def test_a_refused_request_or_a_bad_answer_is_not_taken_for_an_endpoint_down(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_settings.LLM_RESPONSE_FORMAT = "json_object"
    llm_stub.script(
        Reply(status=400, error="context length exceeded"),
        Reply(content="not json"),
        Reply(content="still not json"),
        answer(GOOD),
    )
    llm = open_llm(store, ctx, "filter")
    assert llm.ask(pick()).outcome is Outcome.UNAVAILABLE
    assert llm.ask(pick()).outcome is Outcome.UNAVAILABLE
    assert "model_unreachable" not in store.index()["analysis"]
    assert open_llm(store, ctx, "deepread").ask(pick()).value == Pick(**GOOD)


@pytest.mark.django_db
def test_a_rerun_asks_the_model_again_and_the_run_page_says_where_it_was_lost(settings, tmp_path):
    settings.RUNS_DIR = tmp_path / "runs"
    owner = get_user_model().objects.create_user("ada")
    run = services.create_run(
        Question(
            question="Alderstream or Brightwell for our job queue?",
            options=["Alderstream", "Brightwell"],
            preset="tech",
            sources=["ddgs"],
        ),
        owner=owner,
    )
    store = store_for(run.run_id)
    store.update_analysis(mode="llm", model="stub-model", budget=15_000)
    store.mark_model_unreachable(
        {"stage": "filter", "outcome": "TIMEOUT", "reason": "no complete answer within 60 s"}
    )
    client = Client()
    client.force_login(owner)
    page = client.get(f"/runs/{run.run_id}/progress/").text
    assert "The model could not be reached during filter (no complete answer within 60 s)" in page
    assert "Re-run once the endpoint answers" in page

    manifest.reset_from(run.run_id, "filter")
    assert "model_unreachable" not in store.index()["analysis"]
    assert "could not be reached" not in client.get(f"/runs/{run.run_id}/progress/").text


def test_a_model_asked_outside_a_run_times_out_plainly(llm_settings, llm_stub: LLMStub):
    """Asked with no run to note it in, a dead endpoint is still a plain TIMEOUT."""
    llm_settings.LLM_TIMEOUT = 0.5
    llm_stub.default = Reply(content=json.dumps(GOOD), delay=1.5)
    llm = open_llm(None, StageContext(), "filter")
    first = llm.ask(Ask("filter", Pick, "Pick.", "{}", 50, "rules"))
    assert first.outcome is Outcome.TIMEOUT


def test_the_decision_names_where_the_model_was_lost(llm_settings, store):
    store.update_analysis(mode="llm", model="stub-model", budget=15_000)
    store.update_index(
        lambda index: index["provider_outcomes"].update(
            retrieve={"llm": {"OK": 1}}, filter={"llm": {"OK": 2, "TIMEOUT": 1}}
        )
    )
    store.mark_model_unreachable({"stage": "crosscheck", "outcome": "UNAVAILABLE", "reason": "x"})
    decision = with_analysis(Decision.model_construct(mode="deterministic"), store)
    assert (decision.mode, decision.model) == ("llm", "stub-model")
    assert decision.model_stages == ["retrieve", "filter"]
    assert decision.model_unreachable_at == "crosscheck"
    assert decision.budget_exhausted_at is None


def test_a_run_whose_model_gave_no_usable_answer_is_deterministic(llm_settings, store):
    store.update_analysis(mode="llm", model="stub-model", budget=15_000)
    store.update_index(
        lambda index: index["provider_outcomes"].update(retrieve={"llm": {"RATE_LIMITED": 1}})
    )
    store.mark_model_unreachable({"stage": "retrieve", "outcome": "TIMEOUT", "reason": "x"})
    decision = with_analysis(Decision.model_construct(mode="deterministic"), store)
    assert (decision.mode, decision.model, decision.model_stages) == (
        "deterministic",
        "stub-model",
        [],
    )
