"""One model call: a chat-completions request whose answer must validate against a schema.

`ChatClient.ask` never raises for anything the endpoint or the model does. It returns an
Answer: the validated value with outcome OK, or no value with the outcome and the reason
(DESIGN section 3), and the caller falls back to its deterministic method.

- The schema goes with the request as `response_format: json_schema` (strict structured
  outputs). In `auto` mode an endpoint that refuses that with a 400 is asked again with
  `json_object` and the schema in the prompt, and this process remembers to ask it that way.
- A model that refuses `max_tokens` or temperature 0 with a 400 (OpenAI's reasoning models)
  is asked again with `max_completion_tokens` and its own temperature, remembered likewise.
- An answer that is not valid JSON for the schema, or was cut off at max_tokens, goes back
  to the model once with the error ("reply with the corrected JSON only"); a second bad
  answer is given up on (UNAVAILABLE, with both reasons).
- 429, 5xx, 408 and timeouts are tried again (LLM tries, RETRY_TRIES, exponential backoff
  with jitter, at least as long as Retry-After asks, in seconds or as an HTTP date, up to
  RETRY_AFTER_CAP). 401 and 403 are UNAUTHORIZED at once; other refusals are UNAVAILABLE.
- Each request has a total deadline (LLM_TIMEOUT): connecting, sending, waiting for the
  model and reading its answer all end by it.
- Every request first asks the run's TokenBudget for room; one it cannot afford is not
  sent, and the answer is BLOCKED.

The endpoint is the operator's (often Ollama or vLLM on localhost), so the private-address
guard that protects page fetches does not apply to it; it is reached with httpx directly,
without environment proxies and without following redirects. What its reply says is read
in research.llm.replies.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import httpx
from pydantic import BaseModel

from research.llm.answers import InvalidAnswer, parse_answer, strict_schema
from research.llm.budget import TokenBudget, Usage, estimate_tokens
from research.llm.config import LLMConfig
from research.llm.replies import Reply, both, read_reply
from research.outcomes import Outcome
from research.providers.http import aread_capped, describe

M = TypeVar("M", bound=BaseModel)


Note = Callable[..., None]


Sleep = Callable[[float], Awaitable[None]]


RETRY_AFTER_CAP = 30.0  # seconds: the longest wait between two tries, whatever the server asks


REPAIR_ECHO_CHARS = 4_000  # of an invalid answer, quoted back in the repair request


# (base URL, model) pairs that refused json_schema in this process: asked with json_object.
_JSON_OBJECT_ONLY: set[tuple[str, str]] = set()


# (base URL, model) pairs that refused `max_tokens` or a temperature of 0 (OpenAI's reasoning
# models do): asked with `max_completion_tokens` and the model's own temperature.
_REASONING_PARAMETERS: set[tuple[str, str]] = set()


_REFUSED_PARAMETER = re.compile(r"\b(max_tokens|temperature)\b")


_formats_lock = threading.Lock()


@dataclass(frozen=True)
class Ask(Generic[M]):
    """What a stage asks the model.

    `task` names the call in the log and in the schema ("plan", "filter"); `system` is the
    rendered prompt, `user` the data; `max_tokens` caps the answer (and is what the budget
    holds for it); `fallback` says in words what the stage does without an answer.
    """

    task: str
    schema: type[M]
    system: str
    user: str
    max_tokens: int
    fallback: str


@dataclass(frozen=True)
class Answer(Generic[M]):
    task: str
    model: str
    outcome: Outcome
    value: M | None = None  # set only when outcome is OK
    reason: str = ""  # why there is no value
    usage: Usage = field(default_factory=Usage)
    requests: int = 0  # HTTP requests made: tries, the json_object resend and the repair
    repaired: bool = False  # the value came from the repair request
    # The endpoint itself failed (no answer in time, no connection, 5xx) on every try.
    endpoint_down: bool = False
    # The stage's time with the model (LLM_STAGE_SECONDS) ran out before an answer came.
    out_of_time: bool = False

    @property
    def ok(self) -> bool:
        return self.value is not None


def _discard(event: str, **data: Any) -> None:
    pass


class ChatClient:
    def __init__(
        self,
        config: LLMConfig,
        model: str,
        http: httpx.AsyncClient,
        budget: TokenBudget,
        stage: str,
        *,
        sleep: Sleep = asyncio.sleep,
        note: Note = _discard,
        deadline: float | None = None,
    ) -> None:
        self.config = config
        self._deadline = deadline  # time.monotonic() by which the stage's model time ends
        self.model = model
        self.url = f"{config.base_url}/chat/completions"
        self._http = http
        self._budget = budget
        self._stage = stage
        self._sleep = sleep
        self._note = note

    async def ask(self, ask: Ask[M]) -> Answer[M]:
        usage = Usage()
        requests = 0
        repair: list[dict[str, str]] = []
        first_error = ""
        while True:
            reply = await self._exchange(ask, repair)
            usage += reply.usage or Usage()
            requests += reply.requests
            done = dict(task=ask.task, model=self.model, usage=usage, requests=requests)
            if reply.outcome is not Outcome.OK:
                down = reply.retry and reply.outcome in (Outcome.TIMEOUT, Outcome.UNAVAILABLE)
                return Answer(
                    **done,
                    outcome=reply.outcome,
                    reason=reply.reason,
                    endpoint_down=down and not reply.out_of_time,
                    out_of_time=reply.out_of_time,
                )
            try:
                value = parse_answer(reply.text, reply.finish_reason, ask.schema)
            except InvalidAnswer as exc:
                if repair:
                    reason = (
                        f"the answer was invalid ({first_error}), "
                        f"and so was the repaired one ({exc})"
                    )
                    return Answer(**done, outcome=Outcome.UNAVAILABLE, reason=reason)
                first_error = str(exc)
                self._note("llm_repair", stage=self._stage, task=ask.task, reason=first_error)
                repair = [
                    {"role": "assistant", "content": reply.text[:REPAIR_ECHO_CHARS]},
                    {"role": "user", "content": _repair_request(first_error)},
                ]
                continue
            return Answer(**done, outcome=Outcome.OK, value=value, repaired=bool(repair))

    # --- one request, in the right format, within the budget ------------------------------

    async def _exchange(self, ask: Ask[M], repair: list[dict[str, str]]) -> Reply:
        chosen = self._format()
        reply = await self._parameters_checked(ask, chosen, repair)
        refused = reply.status == 400 and chosen == "json_schema"
        if not (refused and self.config.response_format == "auto"):
            return reply
        again = await self._parameters_checked(ask, "json_object", repair)
        if again.outcome is Outcome.OK:
            with _formats_lock:
                _JSON_OBJECT_ONLY.add((self.config.base_url, self.model))
            self._note(
                "llm_response_format",
                stage=self._stage,
                model=self.model,
                format="json_object",
                reason=f"the endpoint refused json_schema: {reply.reason}",
            )
        return both(reply, again)

    async def _parameters_checked(
        self, ask: Ask[M], chosen: str, repair: list[dict[str, str]]
    ) -> Reply:
        """A model that refuses `max_tokens` or temperature 0 (OpenAI's o-series and gpt-5
        want `max_completion_tokens` and their own temperature) is asked again that way, and
        this process remembers to ask it so."""
        reply = await self._budgeted(ask, chosen, repair)
        if (
            reply.status != 400
            or self._reasoning_parameters()
            or not _REFUSED_PARAMETER.search(reply.reason)
        ):
            return reply
        with _formats_lock:
            _REASONING_PARAMETERS.add((self.config.base_url, self.model))
        again = await self._budgeted(ask, chosen, repair)
        if again.outcome is not Outcome.OK:
            # Refused that way too: the 400 was about something else (a max_tokens larger
            # than the context, say), so the model keeps being asked its usual way.
            with _formats_lock:
                _REASONING_PARAMETERS.discard((self.config.base_url, self.model))
        else:
            self._note(
                "llm_parameters",
                stage=self._stage,
                model=self.model,
                parameters="max_completion_tokens, default temperature",
                reason=f"the endpoint refused max_tokens or temperature 0: {reply.reason}",
            )
        return both(reply, again)

    def _reasoning_parameters(self) -> bool:
        with _formats_lock:
            return (self.config.base_url, self.model) in _REASONING_PARAMETERS

    def _format(self) -> str:
        if self.config.response_format != "auto":
            return self.config.response_format
        with _formats_lock:
            known = (self.config.base_url, self.model) in _JSON_OBJECT_ONLY
        return "json_object" if known else "json_schema"

    async def _budgeted(self, ask: Ask[M], chosen: str, repair: list[dict[str, str]]) -> Reply:
        messages = _messages(ask, chosen, repair)
        prompt = sum(estimate_tokens(m["content"]) for m in messages)
        permit = await self._budget.reserve(self._stage, ask.task, prompt + ask.max_tokens)
        if permit is None:
            return Reply(Outcome.BLOCKED, reason=self._budget.refusal(), requests=0)
        reply = Reply(Outcome.UNAVAILABLE, reason="the request was interrupted", requests=0)
        try:
            reply = await self._send(self._body(ask, chosen, messages))
            if reply.outcome is Outcome.OK and reply.usage is None:
                # Counted from the text, but never past what the answer was allowed: an
                # endpoint that sends more has ignored max_tokens.
                completion = min(estimate_tokens(reply.text), ask.max_tokens)
                reply.usage = Usage(prompt, completion, estimated=True)
            elif reply.huge:
                reply.usage = Usage(prompt, ask.max_tokens, estimated=True)
        finally:
            self._budget.settle(permit, reply.usage or Usage())
        return reply

    def _body(self, ask: Ask[M], chosen: str, messages: list[dict[str, str]]) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "stream": False}
        if self._reasoning_parameters():
            body["max_completion_tokens"] = ask.max_tokens
        else:
            body |= {"max_tokens": ask.max_tokens, "temperature": 0}
        if chosen == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": ask.schema.__name__,
                    "schema": strict_schema(ask.schema),
                    "strict": True,
                },
            }
        else:
            body["response_format"] = {"type": "json_object"}
        return body

    # --- tries ----------------------------------------------------------------------------

    async def _send(self, body: dict[str, Any]) -> Reply:
        tries = max(1, self.config.tries)
        attempt = 0
        while True:
            attempt += 1
            reply = await self._post(body)
            if not reply.retry or attempt >= tries:
                break
            delay = self._delay(attempt, reply.retry_after)
            left = self.time_left()
            if left is not None and left <= delay:
                # Waiting would outlast the stage's model time: no try after the wait.
                reply.reason = f"{reply.reason}; {self.out_of_time_reason()} before another try"
                reply.out_of_time, reply.retry = True, False
                break
            await self._sleep(delay)
        reply.requests = attempt
        if reply.outcome is not Outcome.OK and attempt > 1:
            reply.reason = f"{reply.reason} (after {attempt} tries)"
        return reply

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        delay = self.config.base_delay * 2 ** (attempt - 1)
        delay += random.uniform(0, delay)
        if retry_after is not None:
            delay = max(delay, retry_after)
        return min(delay, RETRY_AFTER_CAP)

    def time_left(self) -> float | None:
        """Seconds left of the stage's model time; None when it has no limit."""
        return None if self._deadline is None else self._deadline - time.monotonic()

    def out_of_time_reason(self) -> str:
        return (
            f"the stage's time with the model ({self.config.stage_seconds:g} s, "
            "LLM_STAGE_SECONDS) ran out"
        )

    async def _post(self, body: dict[str, Any]) -> Reply:
        cap = self.config.max_answer_bytes
        left = self.time_left()
        if left is not None and left <= 0:
            return Reply(
                Outcome.TIMEOUT, reason=f"not asked: {self.out_of_time_reason()}", out_of_time=True
            )
        timeout = self.config.timeout if left is None else min(self.config.timeout, left)
        try:
            async with (
                asyncio.timeout(timeout),
                self._http.stream("POST", self.url, json=body) as response,
            ):
                data = await aread_capped(response, cap)
        except (TimeoutError, httpx.TimeoutException):
            if timeout < self.config.timeout:
                reason = f"no answer before {self.out_of_time_reason()}"
                return Reply(Outcome.TIMEOUT, reason=reason, out_of_time=True)
            reason = (
                f"no complete answer within the {self.config.timeout:g} s deadline (LLM_TIMEOUT)"
            )
            return Reply(Outcome.TIMEOUT, reason=reason, retry=True)
        except httpx.HTTPError as exc:
            reason = f"could not reach the endpoint: {describe(exc)}"
            return Reply(Outcome.UNAVAILABLE, reason=reason, retry=True)
        if data is None:
            reason = (
                f"the answer was larger than {cap:,} bytes (LLM_MAX_ANSWER_BYTES), so it was "
                "refused unread"
            )
            return Reply(Outcome.BLOCKED, reason=reason, status=response.status_code, huge=True)
        return read_reply(response, data)


_JSON_ONLY = "Reply with one JSON object and nothing else: no prose, no code fences."


def _messages(ask: Ask[M], chosen: str, repair: list[dict[str, str]]) -> list[dict[str, str]]:
    if chosen == "json_schema":
        rule = _JSON_ONLY
    else:
        schema = json.dumps(strict_schema(ask.schema), ensure_ascii=False)
        rule = f"{_JSON_ONLY} It must match this JSON Schema:\n{schema}"
    system = f"{ask.system.rstrip()}\n\n{rule}"
    return [{"role": "system", "content": system}, {"role": "user", "content": ask.user}, *repair]


def _repair_request(error: str) -> str:
    return (
        f"That answer cannot be used: {error}. Reply again with only the corrected JSON "
        "object, matching the schema, and nothing else."
    )
