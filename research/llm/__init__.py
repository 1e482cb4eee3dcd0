"""The optional model (DESIGN section 4): validated structured answers from any
OpenAI-compatible chat-completions endpoint, within a per-run token budget.

Without LLM_BASE_URL nothing here is used: `open_llm` returns None and every stage runs its
deterministic method. With it, a stage asks like this:

    from research.llm import Ask, open_llm, render_prompt

    class Verdicts(BaseModel):                       # the answer's schema: every field
        judgements: list[Judgement]                  # required, no defaults

    llm = open_llm(store, ctx, stage="filter")       # None: no model configured; the
                                                     # task (default: the stage) picks
                                                     # the model, LLM_MODEL_FILTER here
    if llm is not None:
        answers = llm.ask_all([                      # sync; LLM_CONCURRENCY at once
            Ask(
                task="filter",                       # names the call in the log
                schema=Verdicts,
                system=render_prompt("filter", stage="filter", run_id=llm.run_id,
                                     question=plan.question, ...),
                user=json.dumps(batch),              # the data
                max_tokens=600,                      # the answer's cap; the budget holds it
                fallback="the deterministic rules for these candidates",
            )
            for batch in batches
        ])
        for answer in answers:
            if answer.value is None:                 # any failure: use the deterministic
                ...                                  # method; the fallback is already logged
            else:
                ...                                  # answer.value is a validated Verdicts

What the caller can rely on:

- `ask_all` / `ask` never raise for the endpoint or the model. Each Answer has `outcome`
  (OK, TIMEOUT, UNAVAILABLE, UNAUTHORIZED, RATE_LIMITED, or BLOCKED when the token budget
  refused the call), `value` (the validated pydantic object, only when OK), `reason`,
  `usage` (prompt/completion tokens), `requests` and `repaired`.
- Invalid JSON, a schema mismatch or a cut-off answer is sent back once for repair; retries,
  backoff, Retry-After, the per-request deadline (LLM_TIMEOUT) and the json_schema ->
  json_object fallback happen inside (research.llm.client).
- Tokens are added to index.json `tokens.<stage>` and `tokens.total` after every request,
  and `analysis` says {mode: "llm", model, budget, models (per task, where they differ)}.
  A call that would take the run past LLM_MAX_TOKENS_PER_RUN is not made; the run then
  asks nothing more, `analysis.budget_exhausted` says where ({stage, task, at, spent,
  needed, budget}), and the log has `llm_budget_exhausted`.
- The log (log.jsonl) gets `llm_call` for every answer, and `llm_fallback` {task, outcome,
  reason, fallback} for every answer without a value. Partial use (a batch that left some
  ids unjudged) is the stage's to log. Outcome counts go to
  `provider_outcomes.<stage>.llm`.
- Quotes: `verify_quote(quote, text)` gives a QuoteMatch {quote, offset} whose quote is
  exactly `text[offset:offset+len(quote)]` (a quote differing from the text only in
  whitespace is mapped back to the stored substring), or None. `keep_verified(items,
  quote_of, text, ctx, source_id=..., task=...)` keeps the items whose quote is found and
  logs each one dropped (`llm_quote_dropped`).
- Prompts: `render_prompt(task, stage=..., run_id=..., question=..., **context)` renders
  templates/prompts/llm/<task>.md.j2. A task template {% include %}s its stage's MCP prompt
  (deep_read.md.j2, ...) for the method; the MCP header is replaced by
  templates/prompts/llm/overrides/_header.md.j2 (no resources, no tools, answer in JSON),
  and `uri(...)` renders as the bare artifact name. Then it says what the next message
  holds and the answer's shape.
- A StageLLM has `stage` (tokens are counted under it), `task`, `model`, `run_id`, `config`
  and `budget`; `open_llm(store, ctx, "retrieve", task="plan")` asks for one step of a
  stage with that task's model (LLM_MODEL_PLAN).
- Concurrency outside a StageLLM: `run_all(calls, limit)` awaits zero-argument coroutine
  factories from synchronous code, at most `limit` at once.
"""

from research.llm.budget import TokenBudget, Usage
from research.llm.client import Answer, Ask
from research.llm.concurrency import run_all
from research.llm.config import LLMConfig
from research.llm.prompts import render as render_prompt
from research.llm.quotes import QuoteMatch, keep_verified, verify_quote
from research.llm.session import StageLLM, open_llm

__all__ = [
    "Answer",
    "Ask",
    "LLMConfig",
    "QuoteMatch",
    "StageLLM",
    "TokenBudget",
    "Usage",
    "keep_verified",
    "open_llm",
    "render_prompt",
    "run_all",
    "verify_quote",
]
