"""Pytest fixtures around the OpenAI-compatible stub (tools.fakes.llm_stub) on 127.0.0.1, and
a small ask to send it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from research.llm import Ask
from tools.fakes.llm_stub import LLMStub, Received, Reply, answer, count_tokens
from tools.fakes.schema_answers import schema_answer

__all__ = ["LLMStub", "Received", "Reply", "answer", "count_tokens", "schema_answer"]


@pytest.fixture
def llm_stub() -> Iterator[LLMStub]:
    stub = LLMStub().start()
    yield stub
    stub.stop()


@pytest.fixture
def llm_settings(settings, llm_stub: LLMStub):
    """Settings that point the model at the stub (LLM mode)."""
    settings.LLM_BASE_URL = llm_stub.base_url
    settings.LLM_MODEL = "stub-model"
    settings.LLM_API_KEY = "test-key"
    settings.LLM_STAGE_MODELS = {}
    settings.LLM_MAX_TOKENS_PER_RUN = 30_000
    settings.LLM_CONCURRENCY = 4
    settings.LLM_TIMEOUT = 5.0
    settings.LLM_RESPONSE_FORMAT = "auto"
    return settings


# --- one ask, for the client's tests ------------------------------------------------------


class Pick(BaseModel):
    option: str
    reasons: list[str]


GOOD = {"option": "Alderstream", "reasons": ["cheaper licence"]}


def pick(max_tokens: int = 200, user: str = '{"options": ["Alderstream", "Brightwell"]}'):
    return Ask(
        task="filter",
        schema=Pick,
        system="Pick the option the evidence favours.",
        user=user,
        max_tokens=max_tokens,
        fallback="the deterministic pick",
    )
