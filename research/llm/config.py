"""The model endpoint as the operator configured it (LLM_* settings)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from django.conf import settings

ResponseFormat = Literal["auto", "json_schema", "json_object"]


@dataclass(frozen=True)
class LLMConfig:
    base_url: str  # up to /v1; chat completions are POSTed to {base_url}/chat/completions
    model: str
    api_key: str = ""
    stage_models: Mapping[str, str] = field(default_factory=dict)  # task -> model
    max_tokens_per_run: int = 30_000
    concurrency: int = 4
    timeout: float = 60.0  # total seconds for one request: connect, send, wait, read
    response_format: ResponseFormat = "auto"
    tries: int = 3
    base_delay: float = 0.5
    max_answer_bytes: int = 1_000_000  # of one answer, counted as it streams
    stage_seconds: float = 60.0  # a stage's time with the model, tries and waits included

    def model_for(self, task: str) -> str:
        return self.stage_models.get(task) or self.model

    @classmethod
    def from_settings(cls) -> LLMConfig | None:
        """The configured endpoint, or None when there is none (deterministic mode).

        Read at each call, not at import, so a worker's settings are the ones used.
        """
        base_url = getattr(settings, "LLM_BASE_URL", "")
        if not base_url:
            return None
        return cls(
            base_url=base_url.rstrip("/"),
            model=settings.LLM_MODEL,
            api_key=settings.LLM_API_KEY,
            stage_models=dict(settings.LLM_STAGE_MODELS),
            max_tokens_per_run=settings.LLM_MAX_TOKENS_PER_RUN,
            concurrency=settings.LLM_CONCURRENCY,
            timeout=settings.LLM_TIMEOUT,
            response_format=settings.LLM_RESPONSE_FORMAT,
            tries=settings.RETRY_TRIES,
            base_delay=settings.RETRY_BASE_DELAY,
            max_answer_bytes=settings.LLM_MAX_ANSWER_BYTES,
            stage_seconds=settings.LLM_STAGE_SECONDS,
        )
