"""Argument completions (completion/complete): what a client offers while its user types a
resource template's or a prompt's arguments.

- run_id, in every research://runs/{run_id}/... template and every stage prompt: the
  user's own runs, newest first, whose id starts with what was typed.
- source_id, in the page template (round_3_pages/{source_id}.md): the sources of the run
  already chosen (the context's run_id) whose page deep-read stored, in the notes' order.
- question, in the stage prompts: the questions of the user's runs, the chosen run's first.

Every list holds the user's own runs only, like every other read (research.selectors). An
argument or reference this server has no values for gets an empty list, as the SDK answers
when no handler is registered: a client asks while its user types, and an error there helps
no one.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from mcp.server.mcpserver import MCPServer
from mcp_types import (
    Completion,
    CompletionArgument,
    CompletionContext,
    PromptReference,
    ResourceTemplateReference,
)

from research import selectors
from research.mcp.common import ARTIFACTS, PAGE_TEMPLATE, artifact_uri, owned_run
from research.mcp.prompts import PROMPTS
from research.names import NOTES
from research.store import readers, store_for

MAX_VALUES = 100  # the most values one completion may carry (the MCP specification)
NOTHING = Completion(values=[], total=0, has_more=False)
TEMPLATES = frozenset({*(artifact_uri("{run_id}", name) for name in ARTIFACTS), PAGE_TEMPLATE})


def register_completions(server: MCPServer, user) -> None:
    """Serve completion/complete for `user` (which also declares the capability)."""

    @server.completion()
    async def complete(
        ref: PromptReference | ResourceTemplateReference,
        argument: CompletionArgument,
        context: CompletionContext | None,
    ) -> Completion:
        chosen = (context.arguments if context else None) or {}
        return await sync_to_async(completion)(user, ref, argument, chosen)


def completion(
    user,
    ref: PromptReference | ResourceTemplateReference,
    argument: CompletionArgument,
    chosen: dict[str, str],
) -> Completion:
    """The values for `argument` of `ref`, given the arguments already `chosen`. Synchronous:
    call it through sync_to_async."""
    typed = argument.value.strip()
    if isinstance(ref, PromptReference):
        if ref.name not in PROMPTS:
            return NOTHING
        if argument.name == "run_id":
            return run_ids(user, typed)
        if argument.name == "question":
            return questions(user, typed, chosen.get("run_id", ""))
        return NOTHING
    if ref.uri not in TEMPLATES:
        return NOTHING
    if argument.name == "run_id":
        return run_ids(user, typed)
    if argument.name == "source_id" and ref.uri == PAGE_TEMPLATE:
        return source_ids(user, chosen.get("run_id", "").strip(), typed)
    return NOTHING


def run_ids(user, typed: str) -> Completion:
    runs = selectors.runs_for(user).filter(run_id__istartswith=typed)
    return _first(list(runs.values_list("run_id", flat=True)[: MAX_VALUES + 1]), runs.count())


def questions(user, typed: str, run_id: str) -> Completion:
    """Distinct questions starting with `typed` (any case), newest first; the question of
    the chosen run (when it is the user's) leads, being the one its prompt is about."""
    runs = selectors.runs_for(user).filter(question__istartswith=typed)
    found: list[str] = []
    if run_id.strip():
        found += runs.filter(run_id=run_id.strip()).values_list("question", flat=True)
    for question in runs.values_list("question", flat=True).iterator():
        if question not in found:
            found.append(question)
        if len(found) > MAX_VALUES:
            break
    total = runs.order_by().values("question").distinct().count()
    return _first(found, total)


def source_ids(user, run_id: str, typed: str) -> Completion:
    if not run_id:
        return NOTHING
    try:
        owned_run(user, run_id)
    except LookupError:
        return NOTHING
    store = store_for(run_id)
    if not readers.sound(store, NOTES):
        return NOTHING
    notes = readers.notes(store)
    ids = [s.source_id for s in notes.sources if s.page and s.source_id.startswith(typed)]
    return _first(ids, len(ids))


def _first(values: list[str], total: int) -> Completion:
    return Completion(values=values[:MAX_VALUES], total=total, has_more=total > MAX_VALUES)
