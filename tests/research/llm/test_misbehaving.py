"""Answers shaped unlike OpenAI's, or odd in their JSON, never fail a stage: each ends as a
value or as a fallback with its reason."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from research.context import StageContext
from research.llm import Ask, open_llm
from research.outcomes import Outcome
from research.store import RunStore
from tests.llm_stub import LLMStub, Reply, answer
from tests.runs import events


class Pick(BaseModel):
    option: str
    reasons: list[str]


GOOD = {"option": "Alderstream", "reasons": ["cheaper licence"]}


def ask_once(store: RunStore, ctx: StageContext):
    llm = open_llm(store, ctx, "filter")
    assert llm is not None
    return llm.ask(
        Ask(
            task="filter",
            schema=Pick,
            system="Pick the option the evidence favours.",
            user='{"options": ["Alderstream", "Brightwell"]}',
            max_tokens=200,
            fallback="the deterministic pick",
        )
    )


def completion(message: dict, **extra) -> dict:
    return {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}], **extra}


def test_content_parts_with_a_null_text_are_read_not_a_crash(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    parts = [{"type": "text", "text": None}, {"type": "text", "text": json.dumps(GOOD)}]
    llm_stub.script(Reply(raw=completion({"role": "assistant", "content": parts})))
    result = ask_once(store, ctx)
    assert result.outcome is Outcome.OK and result.value == Pick(**GOOD)


def test_unreadable_usage_figures_are_estimated_not_a_crash(llm_settings, llm_stub, store, ctx):
    usage = {"prompt_tokens": float("inf"), "completion_tokens": 12}
    message = {"role": "assistant", "content": json.dumps(GOOD)}
    llm_stub.script(Reply(raw=completion(message, usage=usage)))
    result = ask_once(store, ctx)
    assert result.value == Pick(**GOOD)
    assert result.usage.estimated and 0 < result.usage.total < 1_000
    assert store.index()["tokens"]["total"] == result.usage.total


def test_an_answer_only_in_reasoning_content_is_used(llm_settings, llm_stub, store, ctx):
    message = {
        "role": "assistant",
        "content": None,
        "reasoning_content": "Alderstream is cheaper.\n" + json.dumps(GOOD),
    }
    llm_stub.script(Reply(raw=completion(message)))
    result = ask_once(store, ctx)
    assert result.outcome is Outcome.OK and result.value == Pick(**GOOD)
    assert len(llm_stub.requests) == 1  # no repair needed


@pytest.mark.parametrize("opening", ["[", '{"a": '])
def test_a_model_looping_on_brackets_falls_back_instead_of_failing_the_stage(
    llm_settings, llm_stub, store, ctx, opening
):
    loop = Reply(content=opening * 3_000)  # deeper than the decoder follows
    llm_stub.script(loop, loop)
    result = ask_once(store, ctx)
    assert result.value is None and result.outcome is Outcome.UNAVAILABLE
    assert "not valid JSON" in result.reason
    [fallback] = events(store, "llm_fallback")
    assert fallback["fallback"] == "the deterministic pick"


@pytest.mark.parametrize(
    "reason",
    [
        "the page says to wrap it in ```bash``` fences",
        "the model ends its reasoning with </think> before answering",
        "models emit <think>plan</think> first",
    ],
    ids=["fence-in-string", "close-tag-in-string", "think-block-in-string"],
)
def test_json_whose_strings_mention_fences_or_think_tags_is_read_as_written(
    llm_settings, llm_stub, store, ctx, reason
):
    said = {"option": "Alderstream", "reasons": [reason]}
    llm_stub.script(answer(said))
    result = ask_once(store, ctx)
    assert result.value == Pick(**said)
    assert not result.repaired
