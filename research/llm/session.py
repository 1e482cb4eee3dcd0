"""The model as one stage of one run sees it: `open_llm(...)` and `StageLLM.ask_all(...)`.

A StageLLM ties the client to the run: the model for the task, the run's token budget, the
stage that tokens are counted under, and the decision log. Every answer is logged
(`llm_call`), every answer without a value also as `llm_fallback` with the reason and what
the stage does instead, and the outcomes are counted in the manifest beside the stage's
other providers (`provider_outcomes.<stage>.llm`).

After an UNAUTHORIZED answer, or TIMEOUT/RATE_LIMITED/UNAVAILABLE from the endpoint on
BREAKER_LIMIT calls in a row, the rest of the stage's calls are not made: each would wait
out the same failure. A call that ends UNAUTHORIZED, or with the endpoint down (no answer
in time, no connection, 5xx), has already been tried RETRY_TRIES times: the run notes the
model as unreachable (index.json `analysis.model_unreachable`) and its later stages do not
ask it either, so a dead endpoint costs one stage's wait, not five. A re-run clears the
note.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from research.context import StageContext
from research.llm.budget import TokenBudget
from research.llm.client import Answer, Ask, ChatClient, Sleep
from research.llm.concurrency import gather_limited, run_sync
from research.llm.config import LLMConfig
from research.llm.prompts import render as render_prompt
from research.outcomes import Outcome
from research.store import RunStore, now_iso

M = TypeVar("M", bound=BaseModel)
B = TypeVar("B")  # one batch of what a stage sends the model

BREAKER_LIMIT = 3
USER_AGENT = "Verdict/0.1"


class StageLLM:
    def __init__(
        self,
        config: LLMConfig,
        stage: str,
        task: str,
        ctx: StageContext,
        store: RunStore | None = None,
        budget: TokenBudget | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        self.config = config
        self.stage = stage  # the pipeline stage whose `tokens` entry the calls count under
        self.task = task  # what is asked ("plan" within retrieve); picks the model
        self.model = config.model_for(task)
        self.ctx = ctx
        self.store = store
        self.budget = budget or TokenBudget(config.max_tokens_per_run, store, ctx)
        self._sleep = sleep
        self._outcomes: Counter[str] = Counter()
        self._stopped: tuple[Outcome, str] | None = None
        self._failures_in_a_row = 0
        self._seconds_used = 0.0  # waiting on the model, over every ask_all of the stage
        self._timed_out = False
        self._answered = False  # some answer of this stage was usable

    @property
    def run_id(self) -> str:
        return self.store.run_id if self.store is not None else ""

    def ask(self, ask: Ask[M]) -> Answer[M]:
        return self.ask_all([ask])[0]

    def ask_batches(
        self,
        batches: Sequence[B],
        *,
        prompt: str,
        task: str,
        schema: type[M],
        user: Callable[[B], str],
        max_tokens: Callable[[B], int],
        fallback: str,
        **context: Any,
    ) -> list[tuple[B, Answer[M]]]:
        """A stage's model calls: one per batch, all under the stage's system prompt
        (templates/prompts/llm/<prompt>.md.j2, given `context`), asked together
        (ask_all). Each batch comes back with its answer; `fallback` says what the stage
        uses where an answer has no value."""
        system = render_prompt(prompt, stage=self.stage, run_id=self.run_id, **context)
        answers = self.ask_all(
            [
                Ask(
                    task=task,
                    schema=schema,
                    system=system,
                    user=user(batch),
                    max_tokens=max_tokens(batch),
                    fallback=fallback,
                )
                for batch in batches
            ]
        )
        return list(zip(batches, answers, strict=True))

    def ask_all(self, asks: Sequence[Ask[M]]) -> list[Answer[M]]:
        """Every answer, in order, with at most LLM_CONCURRENCY requests in flight."""
        if not asks:
            return []
        started = time.monotonic()
        deadline = started + self.config.stage_seconds - self._seconds_used
        try:
            answers = run_sync(functools.partial(self._ask_all, list(asks), deadline))
        finally:
            self._seconds_used += time.monotonic() - started
        self._count([a.outcome for a in answers])
        return answers

    async def _ask_all(self, asks: list[Ask[M]], deadline: float) -> list[Answer[M]]:
        headers = {"User-Agent": USER_AGENT}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        limits = httpx.Limits(max_connections=self.config.concurrency)
        async with httpx.AsyncClient(
            headers=headers,
            timeout=self.config.timeout,
            limits=limits,
            trust_env=False,
            follow_redirects=False,
        ) as http:
            client = ChatClient(
                self.config,
                self.model,
                http,
                self.budget,
                self.stage,
                note=self.ctx.record,
                deadline=deadline,
                **({"sleep": self._sleep} if self._sleep else {}),
            )
            calls = [functools.partial(self._one, client, ask) for ask in asks]
            return await gather_limited(calls, self.config.concurrency)

    async def _one(self, client: ChatClient, ask: Ask[M]) -> Answer[M]:
        left = client.time_left()
        if self._stopped is None and left is not None and left <= 0:
            self._out_of_time(client.out_of_time_reason())
        if self._stopped is not None:
            outcome, reason = self._stopped
            answer: Answer[M] = Answer(ask.task, self.model, outcome, reason=reason)
        else:
            answer = await client.ask(ask)
            self._watch(answer)
            if answer.out_of_time:
                self._out_of_time(client.out_of_time_reason())
        self._log(ask, answer)
        return answer

    def _out_of_time(self, why: str) -> None:
        """The stage's time with the model is spent: it asks nothing more, and the run
        notes where. A stage that got no usable answer in all that time stops the rest of
        the run asking, as an endpoint that is down does."""
        self._stopped = (Outcome.TIMEOUT, f"not asked: {why}")
        if self._timed_out:
            return
        self._timed_out = True
        entry = {"stage": self.stage, "seconds": self.config.stage_seconds, "at": now_iso()}
        if self.store is not None:
            self.store.mark_model_time_out(entry)
        self.ctx.record("llm_time_out", **entry, then="the deterministic reader does the rest")
        if self._outcomes[Outcome.OK.value] == 0 and not self._answered:
            reason = f"no usable answer before {why}"
            self._note_unreachable(Answer("", self.model, Outcome.TIMEOUT, reason=reason))

    def _watch(self, answer: Answer[M]) -> None:
        self._answered = self._answered or answer.ok
        if answer.outcome is Outcome.UNAUTHORIZED:
            self._stopped = (answer.outcome, f"not asked: {answer.reason}")
            self._note_unreachable(answer)
            return
        if answer.endpoint_down:
            self._note_unreachable(answer)
        unreachable = answer.outcome in (Outcome.TIMEOUT, Outcome.RATE_LIMITED) or (
            answer.outcome is Outcome.UNAVAILABLE and answer.usage.total == 0
        )
        self._failures_in_a_row = self._failures_in_a_row + 1 if unreachable else 0
        if self._failures_in_a_row >= BREAKER_LIMIT:
            self._stopped = (
                answer.outcome,
                f"not asked: the model failed {BREAKER_LIMIT} calls in a row "
                f"in this stage (last: {answer.reason})",
            )

    def _note_unreachable(self, answer: Answer[M]) -> None:
        if self.store is None:
            return
        self.store.mark_model_unreachable(
            {"stage": self.stage, "outcome": answer.outcome.value, "reason": answer.reason}
        )
        self.ctx.record(
            "llm_unreachable",
            stage=self.stage,
            outcome=answer.outcome.value,
            reason=answer.reason,
            then="the rest of the run does not ask the model",
        )

    def _log(self, ask: Ask[M], answer: Answer[M]) -> None:
        self.ctx.record(
            "llm_call",
            stage=self.stage,
            task=ask.task,
            model=self.model,
            outcome=answer.outcome.value,
            prompt_tokens=answer.usage.prompt,
            completion_tokens=answer.usage.completion,
            estimated=answer.usage.estimated,
            requests=answer.requests,
            repaired=answer.repaired,
            reason=answer.reason,
        )
        if not answer.ok:
            self.ctx.record(
                "llm_fallback",
                stage=self.stage,
                task=ask.task,
                outcome=answer.outcome.value,
                reason=answer.reason,
                fallback=ask.fallback,
            )

    def _count(self, outcomes: list[Outcome]) -> None:
        """Keep `provider_outcomes.<stage>.llm` up to date with every call of this session."""
        self._outcomes.update(o.value for o in outcomes)
        if self.store is None:
            return
        counts = dict(self._outcomes)

        def record(index: dict[str, Any]) -> None:
            by_stage = index.setdefault("provider_outcomes", {})
            by_stage.setdefault(self.stage, {})["llm"] = counts

        self.store.update_index(record)


def open_llm(
    store: RunStore | None, ctx: StageContext, stage: str, task: str | None = None
) -> StageLLM | None:
    """The model for `task` (default: the stage) of this run, or None when no model is
    configured: then the stage runs its deterministic method and nothing is recorded.

    Opening it marks the run as analysed in LLM mode (index.json `analysis`), naming the
    model, any per-task models that differ from it, and the token budget."""
    config = LLMConfig.from_settings()
    if config is None:
        return None
    llm = StageLLM(config, stage, task or stage, ctx, store)
    down = (store.index().get("analysis") or {}).get("model_unreachable") if store else None
    if down:
        llm._stopped = (
            Outcome(down.get("outcome") or Outcome.UNAVAILABLE.value),
            f"not asked: the model could not be reached during {down.get('stage')} "
            f"({down.get('reason')})",
        )
    if store is not None:
        fields: dict[str, object] = {
            "mode": "llm",
            "model": config.model,
            "budget": config.max_tokens_per_run,
        }
        differ = {t: m for t, m in config.stage_models.items() if m != config.model}
        if differ:
            fields["models"] = differ
        store.update_analysis(**fields)
    return llm
