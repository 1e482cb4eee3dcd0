"""Tokens a run may spend on the model, and what it did spend (index.json `tokens`).

Before each request the budget is asked for the request's worst case (its prompt, estimated,
plus the answer's max_tokens); a request that would take the run past
LLM_MAX_TOKENS_PER_RUN is not made. From then on the run asks the model nothing more: every
later step finishes with its deterministic method, and `analysis.budget_exhausted` in the
manifest says where that began. What was spent is what the endpoint reported in `usage`
(estimated from the text when it reports nothing), added to the stage's entry under the
manifest's lock after every request, so a run that crashes mid-stage still counts it.
"""

from __future__ import annotations

import asyncio
import math
import re
import threading
from dataclasses import dataclass
from typing import Any

from research.context import StageContext
from research.store import RunStore, now_iso

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# How often a request waits to see whether requests in flight left room for it.
_POLL = 0.05


def estimate_tokens(text: str) -> int:
    """About four characters a token for Latin text, one for each CJK character."""
    cjk = len(_CJK.findall(text))
    return cjk + math.ceil((len(text) - cjk) / 4)


@dataclass(frozen=True)
class Usage:
    prompt: int = 0
    completion: int = 0
    estimated: bool = False  # the endpoint reported no usage; counted from the text

    @property
    def total(self) -> int:
        return self.prompt + self.completion

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt + other.prompt,
            self.completion + other.completion,
            self.estimated or other.estimated,
        )


@dataclass(frozen=True)
class Permit:
    """Room held for one request until it ends."""

    stage: str
    task: str
    tokens: int


class TokenBudget:
    """The run's budget, shared by every request of one stage (thread- and task-safe)."""

    def __init__(self, limit: int, store: RunStore | None = None, ctx: StageContext | None = None):
        self.limit = limit
        self._store = store
        self._ctx = ctx or StageContext()
        self._lock = threading.Lock()
        self._held = 0
        index: dict[str, Any] = store.index() if store is not None else {}
        self.spent = int((index.get("tokens") or {}).get("total") or 0)
        self.exhausted: dict[str, Any] | None = (index.get("analysis") or {}).get(
            "budget_exhausted"
        )

    async def reserve(self, stage: str, task: str, tokens: int) -> Permit | None:
        """Hold room for a request of at most `tokens`, or None when the run cannot afford
        it. While requests in flight hold the room it needs, wait for them to end: they
        usually spend less than they held."""
        while True:
            with self._lock:
                if self.exhausted is not None:
                    return None
                if self.spent + self._held + tokens <= self.limit:
                    self._held += tokens
                    return Permit(stage, task, tokens)
                waiting = self._held > 0 and self.spent + tokens <= self.limit
                if not waiting:
                    self.exhausted = {
                        "stage": stage,
                        "task": task,
                        "at": now_iso(),
                        "spent": self.spent,
                        "needed": tokens,
                        "budget": self.limit,
                    }
            if waiting:
                await asyncio.sleep(_POLL)
                continue
            self._record_exhausted()
            return None

    def settle(self, permit: Permit, usage: Usage) -> None:
        """The request ended having spent `usage`; give back the rest of its room."""
        with self._lock:
            self._held -= permit.tokens
            self.spent += usage.total
        if usage.total and self._store is not None:
            self._store.add_tokens(permit.stage, usage.prompt, usage.completion)

    def refusal(self) -> str:
        """Why no request is made any more, for the log and the answer's reason."""
        where = (self.exhausted or {}).get("stage", "this run")
        return (
            f"not asked: the run's token budget ({self.limit:,} tokens, "
            f"LLM_MAX_TOKENS_PER_RUN) ran out during {where}"
        )

    def _record_exhausted(self) -> None:
        entry = dict(self.exhausted or {})
        if self._store is not None:
            self._store.mark_budget_exhausted(entry)
        self._ctx.record("llm_budget_exhausted", **entry)
