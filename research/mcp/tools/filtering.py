"""chunk_filter_candidates: the filter stage's own rules over a run's candidates, or over
candidates the client found itself."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from mcp_types import CallToolResult

from research.artifacts import (
    AskedDimension,
    Candidate,
    Candidates,
    Limits,
    Plan,
    Question,
)
from research.context import StageContext
from research.mcp.common import (
    INVALID,
    NOT_READY,
    failed,
    owned_run,
)
from research.mcp.tools.results import (
    CandidateIn,
    DroppedOut,
    FilterResult,
    KeptOut,
    invalid,
)
from research.names import (
    CANDIDATES,
    PLAN,
)
from research.outcomes import Outcome
from research.providers.urls import source_id
from research.stages.filter import filter_candidates
from research.stages.plan import PlanError, build_plan
from research.store import readers, store_for


def filter_run(user, run_id: str, max_kept: int | None) -> FilterResult | CallToolResult:
    try:
        owned_run(user, run_id)
    except LookupError as exc:
        return failed(
            FilterResult(status=Outcome.NO_HIT, run_id=run_id, message=str(exc)), str(exc)
        )
    store = store_for(run_id)
    if not (readers.sound(store, PLAN) and readers.sound(store, CANDIDATES)):
        message = (
            f"Run {run_id} has no candidates yet: they are written when its retrieve stage "
            "finishes. Call get_run_status to see where it is."
        )
        return failed(FilterResult(status=NOT_READY, run_id=run_id, message=message), message)
    plan = readers.plan(store)
    return _judged(_with_max_kept(plan, max_kept), readers.candidates(store), run_id)


def filter_given(
    candidates: list[CandidateIn],
    question: str,
    options: list[str],
    dimensions: list[str],
    max_kept: int | None,
) -> FilterResult | CallToolResult:
    try:
        asked = Question(
            question=question,
            options=options,
            dimensions=[AskedDimension(name=d) for d in dimensions],
            sources=["given"],  # the candidates come with the call; no source is searched
        )
        plan = build_plan(asked, Limits(max_kept=settings.MAX_KEPT))
    except PlanError as exc:
        return invalid(FilterResult(status=INVALID), f"The question was not accepted: {exc}")
    unusable = [
        f"candidate {n} ({c.url[:200]!r})"
        for n, c in enumerate(candidates, 1)
        if not _web_address(c.url)
    ]
    if unusable:
        message = f"Every candidate needs an http(s) address with a host: {', '.join(unusable)}."
        return invalid(FilterResult(status=INVALID), message)
    given = Candidates(
        candidates=[
            Candidate(
                id=source_id(c.url),
                url=c.url,
                title=c.title or c.url,
                snippet=c.snippet,
                provider="given",
                query="",
                rank=rank,
                published=c.published,
            )
            for rank, c in enumerate(candidates, 1)
        ]
    )
    return _judged(_with_max_kept(plan, max_kept), given, None)


def _web_address(url: str) -> bool:
    """An http(s) URL with a host and a valid port: what a source can be and be read from."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018  (raises ValueError for a port out of range)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


def _with_max_kept(plan: Plan, max_kept: int | None) -> Plan:
    if max_kept is None:
        return plan
    return plan.model_copy(update={"limits": plan.limits.model_copy(update={"max_kept": max_kept})})


def _judged(plan: Plan, candidates: Candidates, run_id: str | None) -> FilterResult:
    filtered = filter_candidates(plan, candidates, StageContext())
    kept = [
        KeptOut(id=k.id, url=k.url, title=k.title, score=k.score, reasons=k.reasons)
        for k in filtered.kept
    ]
    dropped = [
        DroppedOut(**d.model_dump(include=set(DroppedOut.model_fields))) for d in filtered.dropped
    ]
    total = len(candidates.candidates)
    status = Outcome.OK if kept else Outcome.NO_HIT
    message = f"kept {len(kept)} of {total}, dropped {len(dropped)}"
    if len(kept) < plan.limits.min_kept:
        message += (
            f"; fewer than {plan.limits.min_kept} strong sources: search again with broader "
            "queries rather than keeping weak ones"
        )
    return FilterResult(
        status=status,
        run_id=run_id,
        max_kept=plan.limits.max_kept,
        kept=kept,
        dropped=dropped,
        message=message,
    )
