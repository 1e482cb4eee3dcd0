"""Asking the model through research.llm against the OpenAI-compatible stub on 127.0.0.1."""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime

import pytest

from research.context import StageContext
from research.llm import StageLLM, open_llm
from research.llm.client import RETRY_AFTER_CAP
from research.llm.replies import retry_after
from research.outcomes import Outcome
from research.store import RunStore
from tests.llm_stub import GOOD, LLMStub, Pick, Reply, answer, pick
from tests.runs import events


def llm(store: RunStore, ctx: StageContext) -> StageLLM:
    opened = open_llm(store, ctx, "filter")
    assert opened is not None
    return opened


def test_without_a_base_url_there_is_no_model_and_the_run_stays_deterministic(settings, store, ctx):
    settings.LLM_BASE_URL = ""
    assert open_llm(store, ctx, "filter") is None
    assert store.index()["analysis"] == {"mode": "deterministic", "model": None}


def test_a_valid_answer_is_validated_and_its_tokens_counted_under_the_stage(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_stub.script(answer(GOOD))
    result = llm(store, ctx).ask(pick())
    assert result.outcome is Outcome.OK
    assert result.value == Pick(**GOOD)
    sent = llm_stub.requests[0]
    assert sent.body["model"] == "stub-model"
    assert sent.headers["authorization"] == "Bearer test-key"
    schema = sent.body["response_format"]["json_schema"]
    assert schema["name"] == "Pick" and schema["strict"] is True
    assert schema["schema"]["additionalProperties"] is False
    assert set(schema["schema"]["required"]) == {"option", "reasons"}
    index = store.index()
    assert index["tokens"]["filter"] == {
        "prompt": llm_stub.prompt_tokens,
        "completion": llm_stub.completion_tokens,
    }
    assert index["tokens"]["total"] == llm_stub.tokens > 0
    assert index["analysis"] == {"mode": "llm", "model": "stub-model", "budget": 30_000}
    assert index["provider_outcomes"]["filter"]["llm"] == {"OK": 1}
    [call] = events(store, "llm_call")
    assert call["outcome"] == "OK" and call["prompt_tokens"] == llm_stub.prompt_tokens


def test_a_per_task_model_is_asked_and_named_in_the_manifest(llm_settings, llm_stub, store, ctx):
    llm_settings.LLM_STAGE_MODELS = {"filter": "small-model"}
    llm_stub.script(answer(GOOD))
    assert llm(store, ctx).ask(pick()).ok
    assert llm_stub.requests[0].body["model"] == "small-model"
    assert store.index()["analysis"]["models"] == {"filter": "small-model"}


def test_malformed_json_is_sent_back_once_and_the_repaired_answer_used(
    llm_settings, llm_stub, store, ctx
):
    llm_stub.script(Reply(content='{"option": "Alderstream", "reasons": ['), answer(GOOD))
    result = llm(store, ctx).ask(pick())
    assert result.outcome is Outcome.OK and result.repaired
    assert result.value == Pick(**GOOD)
    assert len(llm_stub.requests) == 2
    repair = llm_stub.requests[1].messages
    assert repair[-2] == {"role": "assistant", "content": '{"option": "Alderstream", "reasons": ['}
    assert "not valid JSON" in repair[-1]["content"]
    assert "corrected JSON" in repair[-1]["content"]
    assert store.index()["tokens"]["total"] == llm_stub.tokens  # both requests count


def test_an_answer_that_stays_wrong_after_one_repair_falls_back_and_says_why(
    llm_settings, llm_stub, store, ctx
):
    llm_stub.script(answer({"option": "Alderstream"}), answer({"choice": 1}))
    result = llm(store, ctx).ask(pick())
    assert result.value is None and result.outcome is Outcome.UNAVAILABLE
    assert len(llm_stub.requests) == 2  # one repair, no more
    assert "reasons: Field required" in result.reason
    assert "option: Field required" in result.reason
    [fallback] = events(store, "llm_fallback")
    assert fallback["fallback"] == "the deterministic pick"
    assert fallback["task"] == "filter" and "repaired one" in fallback["reason"]


@pytest.mark.parametrize(
    "content",
    [
        '<think>The user wants {"option": "Brightwell"}? No.</think>\n' + json.dumps(GOOD),
        "Let me weigh both. Alderstream is cheaper.</think>\n\n" + json.dumps(GOOD),
        "<think>\nAlderstream is cheaper, so:\n" + json.dumps(GOOD),
        "```json\n" + json.dumps(GOOD, indent=2) + "\n```",
        "<think>ok</think>Here is the answer:\n```json\n" + json.dumps(GOOD) + "\n```\nDone.",
    ],
    ids=["think", "eaten-open-tag", "unclosed-think", "fence", "think-prose-fence"],
)
def test_reasoning_blocks_and_code_fences_around_the_json_are_peeled_off(
    llm_settings, llm_stub, store, ctx, content
):
    llm_stub.script(Reply(content=content))
    result = llm(store, ctx).ask(pick())
    assert result.value == Pick(**GOOD)
    assert not result.repaired


def test_an_answer_cut_off_at_its_token_limit_counts_as_invalid(llm_settings, llm_stub, store, ctx):
    cut = Reply(content='{"option": "Alderstream", "reasons": ["cheap', finish_reason="length")
    llm_stub.script(cut, Reply(content=json.dumps(GOOD), finish_reason="length"))
    result = llm(store, ctx).ask(pick())
    assert result.value is None  # even the complete-looking second one was cut off
    assert "cut off at its token limit" in result.reason
    assert "answer shorter" in llm_stub.requests[1].messages[-1]["content"]


def test_rate_limited_waits_as_long_as_retry_after_says_then_succeeds(
    llm_settings, llm_stub, store, ctx
):
    llm_stub.script(Reply(status=429, headers={"Retry-After": "1"}), answer(GOOD))
    result = llm(store, ctx).ask(pick())
    assert result.ok and result.requests == 2
    first, second = llm_stub.requests
    assert second.at - first.at >= 0.95


def test_a_long_retry_after_is_capped(llm_settings, llm_stub, store, ctx):
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    llm_stub.script(
        Reply(status=429, headers={"Retry-After": "Wed, 21 Oct 2099 07:28:00 GMT"}),
        answer(GOOD),
    )
    opened = StageLLM(llm(store, ctx).config, "filter", "filter", ctx, store, sleep=sleep)
    assert opened.ask(pick()).ok
    assert waits == [RETRY_AFTER_CAP]


def test_rate_limited_on_every_try_ends_as_rate_limited(llm_settings, llm_stub, store, ctx):
    llm_stub.default = Reply(status=429, error="slow down")
    result = llm(store, ctx).ask(pick())
    assert result.outcome is Outcome.RATE_LIMITED and result.value is None
    assert len(llm_stub.requests) == 3
    assert "slow down" in result.reason and "after 3 tries" in result.reason
    assert store.index()["provider_outcomes"]["filter"]["llm"] == {"RATE_LIMITED": 1}


def test_a_server_error_is_tried_again(llm_settings, llm_stub, store, ctx):
    llm_stub.script(Reply(status=500), answer(GOOD))
    result = llm(store, ctx).ask(pick())
    assert result.ok and result.requests == 2


def test_a_model_slower_than_the_deadline_times_out_on_every_try_and_falls_back(
    llm_settings, llm_stub, store, ctx
):
    llm_settings.LLM_TIMEOUT = 1.0
    llm_stub.default = Reply(content=json.dumps(GOOD), delay=2.0)
    result = llm(store, ctx).ask(pick())
    assert result.outcome is Outcome.TIMEOUT and result.value is None
    assert len(llm_stub.requests) == 3
    assert "1 s deadline (LLM_TIMEOUT)" in result.reason
    [fallback] = events(store, "llm_fallback")
    assert fallback["outcome"] == "TIMEOUT"
    assert store.index()["tokens"]["total"] == 0


def test_a_refused_key_is_unauthorized_at_once_and_the_stage_stops_asking(
    llm_settings, llm_stub, store, ctx
):
    llm_settings.LLM_CONCURRENCY = 1
    llm_stub.default = Reply(status=401, error="invalid api key")
    first, second = llm(store, ctx).ask_all([pick(), pick()])
    assert first.outcome is Outcome.UNAUTHORIZED and "LLM_API_KEY" in first.reason
    assert second.outcome is Outcome.UNAUTHORIZED and second.reason.startswith("not asked")
    assert len(llm_stub.requests) == 1  # no retry, and no second call


def test_an_endpoint_that_is_not_listening_is_unavailable(llm_settings, store, ctx):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    llm_settings.LLM_BASE_URL = f"http://127.0.0.1:{port}/v1"
    result = llm(store, ctx).ask(pick())
    assert result.outcome is Outcome.UNAVAILABLE and result.requests == 3
    assert "could not reach the endpoint" in result.reason


def test_an_endpoint_refusing_json_schema_is_asked_with_json_object_from_then_on(
    llm_settings, store, ctx
):
    stub = LLMStub(reject_json_schema=True).start()
    try:
        llm_settings.LLM_BASE_URL = stub.base_url
        stub.script(answer(GOOD), answer(GOOD))
        first = llm(store, ctx).ask(pick())
        second = llm(store, ctx).ask(pick())
    finally:
        stub.stop()
    assert first.ok and second.ok
    assert [r.format for r in stub.requests] == ["json_schema", "json_object", "json_object"]
    system = stub.requests[1].messages[0]["content"]
    assert '"reasons"' in system and "JSON Schema" in system
    [switch] = events(store, "llm_response_format")
    assert "json_schema is unsupported" in switch["reason"]


REASONING_REFUSAL = (
    "Unsupported parameter: 'max_tokens' is not supported with this model. "
    "Use 'max_completion_tokens' instead."
)


def test_a_reasoning_model_refusing_max_tokens_is_asked_its_way_from_then_on(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_stub.script(Reply(status=400, error=REASONING_REFUSAL), answer(GOOD), answer(GOOD))
    first = llm(store, ctx).ask(pick(max_tokens=300))
    second = llm(store, ctx).ask(pick(max_tokens=300))
    assert first.ok and second.ok and first.value == Pick(**GOOD)
    refused, retried, later = (r.body for r in llm_stub.requests)
    assert refused["max_tokens"] == 300 and refused["temperature"] == 0
    for body in (retried, later):
        assert body["max_completion_tokens"] == 300
        assert "max_tokens" not in body and "temperature" not in body
    [switch] = events(store, "llm_parameters")
    assert "max_completion_tokens" in switch["reason"]


def test_another_bad_request_is_not_taken_for_a_parameter_refusal(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_settings.LLM_RESPONSE_FORMAT = "json_object"  # no json_schema refusal to try again
    llm_stub.script(Reply(status=400, error="messages: too many messages"))
    result = llm(store, ctx).ask(pick())
    assert result.outcome is Outcome.UNAVAILABLE
    assert "too many messages" in result.reason
    assert len(llm_stub.requests) == 1
    assert events(store, "llm_parameters") == []


def test_json_schema_is_not_given_up_when_it_was_configured(llm_settings, store, ctx):
    stub = LLMStub(reject_json_schema=True).start()
    try:
        llm_settings.LLM_BASE_URL = stub.base_url
        llm_settings.LLM_RESPONSE_FORMAT = "json_schema"
        result = llm(store, ctx).ask(pick())
    finally:
        stub.stop()
    assert result.outcome is Outcome.UNAVAILABLE
    assert "refused the request (400" in result.reason
    assert [r.format for r in stub.requests] == ["json_schema"]


def test_calls_run_concurrently_up_to_the_configured_limit(llm_settings, llm_stub, store, ctx):
    llm_settings.LLM_CONCURRENCY = 2
    llm_stub.default = Reply(content=json.dumps(GOOD), delay=0.3)
    answers = llm(store, ctx).ask_all([pick() for _ in range(6)])
    assert all(a.ok for a in answers)
    assert llm_stub.max_in_flight == 2


def test_tokens_are_estimated_from_the_text_when_the_endpoint_reports_none(
    llm_settings, llm_stub, store, ctx
):
    llm_stub.script(Reply(content=json.dumps(GOOD), usage=False))
    result = llm(store, ctx).ask(pick())
    assert result.ok and result.usage.estimated
    tokens = store.index()["tokens"]
    assert tokens["filter"]["completion"] == -(-len(json.dumps(GOOD)) // 4)
    assert tokens["filter"]["prompt"] > 0


def test_a_call_that_would_pass_the_budget_is_not_made_and_the_run_says_so(
    llm_settings, llm_stub, store, ctx
):
    # Each call holds about 40 prompt tokens plus its 600 for the answer; the first spends
    # about 55, so the second would need more than the 680 allowed.
    llm_settings.LLM_MAX_TOKENS_PER_RUN = 680
    llm_settings.LLM_CONCURRENCY = 1
    llm_stub.default = answer(GOOD)
    first, second = llm(store, ctx).ask_all([pick(max_tokens=600), pick(max_tokens=600)])
    assert first.ok
    assert second.outcome is Outcome.BLOCKED and second.value is None
    assert "token budget (680 tokens" in second.reason
    assert len(llm_stub.requests) == 1
    index = store.index()
    exhausted = index["analysis"]["budget_exhausted"]
    assert exhausted["stage"] == "filter" and exhausted["budget"] == 680
    assert exhausted["spent"] == index["tokens"]["total"] == llm_stub.tokens
    assert events(store, "llm_budget_exhausted")
    # A later stage of the run asks nothing, however small its call.
    later = open_llm(store, ctx, "deepread")
    assert later is not None
    assert later.ask(pick(max_tokens=1)).outcome is Outcome.BLOCKED
    assert len(llm_stub.requests) == 1


def test_retry_after_is_read_as_seconds_or_as_an_http_date():
    now = datetime(2025, 6, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after("7", now) == 7.0
    assert retry_after("Sun, 01 Jun 2025 12:00:30 GMT", now) == 30.0
    assert retry_after("Sun, 01 Jun 2025 11:00:00 GMT", now) == 0.0  # already past
    assert retry_after("soon", now) is None
    assert retry_after(None, now) is None


def test_a_max_tokens_too_large_for_the_context_does_not_switch_the_model_to_other_parameters(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_settings.LLM_RESPONSE_FORMAT = "json_object"
    too_large = (
        "'max_tokens' or 'max_completion_tokens' is too large: 300. This model's maximum "
        "context length is 256 tokens"
    )
    llm_stub.script(
        Reply(status=400, error=too_large), Reply(status=400, error=too_large), answer(GOOD)
    )
    first = llm(store, ctx).ask(pick(max_tokens=300))
    assert first.outcome is Outcome.UNAVAILABLE and "too large" in first.reason
    later = llm(store, ctx).ask(pick(max_tokens=100))
    assert later.ok
    body = llm_stub.requests[-1].body
    assert body["max_tokens"] == 100 and body["temperature"] == 0  # still asked its own way
    assert events(store, "llm_parameters") == []


def test_an_answer_past_the_byte_cap_is_refused_unread_and_costs_its_answer_cap_not_millions(
    llm_settings, store, ctx
):
    from tests.research.providers.servers import EndlessServer

    endless = EndlessServer(prefix=b'{"choices": [{"message": {"content": "').start()
    llm_settings.LLM_BASE_URL = endless.base + "/v1"
    llm_settings.LLM_MAX_ANSWER_BYTES = 200_000
    try:
        result = llm(store, ctx).ask(pick(max_tokens=300))
    finally:
        endless.stop()

    assert result.outcome is Outcome.BLOCKED
    assert result.reason == (
        "the answer was larger than 200,000 bytes (LLM_MAX_ANSWER_BYTES), so it was refused unread"
    )
    assert result.requests == 1, "a huge answer is not asked for again"
    spent = store.index()["tokens"]["total"]
    assert 300 < spent < 1_000, spent  # the prompt and the 300-token answer cap
    assert endless.sent < 20_000_000


def test_an_answer_without_usage_counts_at_most_its_answer_cap(llm_settings, llm_stub, store, ctx):
    llm_stub.script(answer({**GOOD, "reasons": ["cheap " * 5000]}, usage=False))

    result = llm(store, ctx).ask(pick(max_tokens=200))

    assert result.usage.estimated and result.usage.completion == 200
