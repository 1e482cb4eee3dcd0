"""Reads: which runs a person may see, and a run's stages as pages and the CLI show them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import unquote

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_lazy

from decisions.compare import Comparison, RunView, compare, same_question_key
from decisions.searches import Searches, searches
from research.artifacts import STAGES, Decision, SavedDecision
from research.models import Reask, Run, StageRun
from research.names import FINISHED, STAGE_LABELS, stage_label
from research.runs import redecide
from research.runs.registry import active_stages, damaged_output
from research.runs.rows import CANCELLED
from research.store import ArtifactDamaged, ManifestDamaged, StoreError, readers, store_for

__all__ = [
    "STAGE_LABELS",
    "Analysis",
    "StageView",
    "run_analysis",
    "run_for",
    "run_stages",
    "run_verdict",
    "runs_for",
]

# What each stage's counts mean, in the words a page uses; unlisted counts are not shown.
COUNT_LABELS: dict[str, str] = {
    "queries": "queries",
    "candidates": "candidates found",
    "kept": "kept",
    "dropped": "dropped",
    "replans": "broader searches",
    "ok": "pages read",
    "read": "pages tried",
    "key_points": "key points",
    "claims": "claims",
    "consensus": "agreements",
    "contradictions": "contradictions",
    "gaps": "gaps",
    "recommendation": "recommendation",
    "confidence": "confidence",
}
_INTERNAL = re.compile(r"^internal error during (\w+) \((\w+)\)")


@dataclass(frozen=True)
class StageView:
    stage: str  # the id: deepread
    label: str  # the name people read: deep-read
    status: str  # pending | queued | running | done | skipped | failed
    status_label: str
    counts: list[tuple[str, Any]] = field(default_factory=list)  # [("candidates found", 25)]
    raw_counts: dict[str, Any] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)  # provider outcome -> count
    started: datetime | None = None
    finished: datetime | None = None
    seconds: float | None = None  # so far, while it runs
    attempts: int = 0
    error: str = ""  # in plain words


@dataclass(frozen=True)
class Verdict:
    """What a finished run concluded (round_5_decision.json), as the pages, the CLI and MCP
    say it."""

    option: str | None  # None: the evidence did not support a recommendation
    confidence: float
    threshold: int
    reasons: list[str] = field(default_factory=list)
    # Set when no recommendation was given because the best-scoring option rests on this
    # one site alone.
    single_site: str | None = None
    leader: str | None = None  # the best-scoring option, recommended or not
    # Why nothing was recommended (Recommendation.withheld), in a code and in one sentence,
    # and what would settle it; None and "" for decisions written before they were kept.
    withheld: str | None = None
    no_recommendation_reason: str = ""
    would_settle: str = ""

    @property
    def low(self) -> bool:
        return self.confidence < self.threshold

    @property
    def percent(self) -> int:
        return max(0, min(100, round(self.confidence)))


@dataclass(frozen=True)
class Analysis:
    """Which method produced a run's results, and what the model cost (index.json `analysis`
    and `tokens`, DESIGN section 1)."""

    mode: str = "deterministic"  # deterministic | llm
    model: str = ""
    tokens: dict[str, int] = field(default_factory=dict)  # stage -> prompt + completion
    calls: dict[str, dict[str, int]] = field(default_factory=dict)  # stage -> outcome -> n
    total: int = 0
    budget: int | None = None
    # The stage at which the run stopped asking the model because its budget ran out.
    budget_exhausted_at: str = ""
    # The stage at which the model could not be reached, and why (then the run went on
    # without it).
    unreachable_at: str = ""
    unreachable_reason: str = ""
    # The stages whose time with the model (LLM_STAGE_SECONDS) ran out.
    time_out_at: list[str] = field(default_factory=list)

    @property
    def llm(self) -> bool:
        return self.mode == "llm"

    @property
    def answered(self) -> list[str]:
        """The stages where some model answer was usable."""
        return [stage for stage, counts in self.calls.items() if counts.get("OK")]

    @property
    def assisted(self) -> bool:
        """Whether the model's answers were used. A manifest that records no model call at
        all (written before they were counted) is taken at its mode's word."""
        return self.llm and (bool(self.answered) or not self.calls)


def runs_for(user, search: str = "") -> QuerySet[Run]:
    """The person's own runs, newest first. Superusers too see only theirs here."""
    if not getattr(user, "is_authenticated", False):
        return Run.objects.none()
    runs = Run.objects.filter(owner=user)
    if search.strip():
        runs = runs.filter(question__icontains=search.strip())
    return runs.order_by("-created", "-pk")


def run_for(user, run_id: str) -> Run:
    """The run if it is the person's; Run.DoesNotExist otherwise (a 404, never a 403)."""
    return runs_for(user).get(run_id=run_id)


def is_cancelled(run: Run) -> bool:
    return run.status == Run.Status.FAILED and run.error == CANCELLED


def run_stages(run: Run) -> list[StageView]:
    rows = {row.stage: row for row in run.stages.all()}
    if rows:
        return [_from_row(rows[s]) if s in rows else _pending(s) for s in STAGES]
    return _from_manifest(run)


def run_verdict(run: Run) -> Verdict | None:
    """The verdict of a done run, or None when there is none to show (yet): a run that is
    re-running its decide stage, or whose decision is damaged."""
    if run.status != Run.Status.DONE:
        return None
    try:
        return verdict_of(readers.decision(store_for(run.run_id)))
    except (OSError, StoreError):
        return None


def verdict_of(decision: Decision) -> Verdict:
    leader = next((r.option for r in decision.ranking if r.total is not None), None)
    return Verdict(
        option=decision.recommendation.option,
        confidence=decision.assessment.confidence,
        threshold=decision.threshold,
        reasons=list(decision.recommendation.reasons),
        single_site=decision.recommendation.single_site,
        leader=leader,
        withheld=decision.recommendation.withheld,
        no_recommendation_reason=decision.recommendation.no_recommendation_reason,
        would_settle=decision.recommendation.would_settle,
    )


def run_analysis(run: Run) -> Analysis:
    """The run's analysis mode, model and token use; deterministic when nothing says otherwise
    (older runs, or a manifest that cannot be read)."""
    try:
        index = store_for(run.run_id).index()
    except (StoreError, OSError, ValueError):
        return Analysis()
    return analysis_of(index)


def analysis_of(index: dict[str, Any]) -> Analysis:
    analysis = index.get("analysis") or {}
    raw_tokens = index.get("tokens") or {}
    tokens: dict[str, int] = {}
    for stage in STAGES:
        used = raw_tokens.get(stage)
        if isinstance(used, dict):
            tokens[stage] = _int(used.get("prompt")) + _int(used.get("completion"))
    total = _int(raw_tokens.get("total")) or sum(tokens.values())
    by_stage = index.get("provider_outcomes") or {}
    calls = {
        stage: {str(k): _int(v) for k, v in (by_stage.get(stage) or {}).get("llm", {}).items()}
        for stage in STAGES
        if isinstance((by_stage.get(stage) or {}).get("llm"), dict)
    }
    down = analysis.get("model_unreachable")
    down = down if isinstance(down, dict) else {}
    exhausted = analysis.get("budget_exhausted")
    stopped_at = exhausted.get("stage") if isinstance(exhausted, dict) else ""
    return Analysis(
        mode="llm" if analysis.get("mode") == "llm" else "deterministic",
        model=str(analysis.get("model") or ""),
        tokens={stage: n for stage, n in tokens.items() if n},
        calls=calls,
        total=total,
        budget=_int(analysis.get("budget")) or None,
        budget_exhausted_at=str(stopped_at or ""),
        unreachable_at=str(down.get("stage") or ""),
        unreachable_reason=str(down.get("reason") or ""),
        time_out_at=[
            str(e.get("stage"))
            for e in analysis.get("time_out") or []
            if isinstance(e, dict) and e.get("stage")
        ],
    )


def _int(value: Any) -> int:
    try:
        return max(int(value or 0), 0)
    except (TypeError, ValueError):
        return 0


# --- building a StageView -------------------------------------------------------------------


def _from_row(row: StageRun) -> StageView:
    entry = {
        "status": row.status,
        "counts": row.counts,
        "attempts": row.attempts,
        "error": row.error,
    }
    return _view(row.stage, entry, row.outcomes, row.started, row.finished)


def _from_manifest(run: Run) -> list[StageView]:
    """For a run row rebuilt without stage rows: read the stages from its index.json."""
    try:
        stages = store_for(run.run_id).index()["stages"]
    except (StoreError, OSError, KeyError, ValueError):
        return [_pending(s) for s in STAGES]
    views = []
    for stage in STAGES:
        entry = dict(stages.get(stage) or {})
        counts = dict(entry.get("counts") or {})
        outcomes = counts.pop("outcomes", {})
        entry["counts"] = counts
        started, finished = _dt(entry.get("started")), _dt(entry.get("finished"))
        views.append(_view(stage, entry, outcomes, started, finished))
    return views


def _view(
    stage: str,
    entry: dict[str, Any],
    outcomes: dict[str, int],
    started: datetime | None,
    finished: datetime | None,
) -> StageView:
    status = entry.get("status") or "pending"
    counts = entry.get("counts") or {}
    error = entry.get("error") or ""
    return StageView(
        stage=stage,
        label=stage_label(stage),
        status=status,
        status_label=_status_label(status),
        counts=_labelled(counts),
        raw_counts=counts,
        outcomes=outcomes or {},
        started=started,
        finished=finished,
        seconds=_seconds(status, started, finished),
        attempts=entry.get("attempts") or 0,
        error=plain_error(stage, error) if status == "failed" or error else "",
    )


def _pending(stage: str) -> StageView:
    return _view(stage, {"status": "pending"}, {}, None, None)


def _status_label(status: str) -> str:
    try:
        return str(StageRun.Status(status).label)
    except ValueError:
        return status.capitalize()


def _labelled(counts: dict[str, Any]) -> list[tuple[str, Any]]:
    shown = [(COUNT_LABELS[k], v) for k, v in counts.items() if k in COUNT_LABELS]
    return [(label, v) for label, v in shown if not (label == "broader searches" and not v)]


def _seconds(status: str, started: datetime | None, finished: datetime | None) -> float | None:
    if started and finished:
        return max((finished - started).total_seconds(), 0.0)
    if started and status == "running":
        return max((timezone.now() - started).total_seconds(), 0.0)
    return None


def plain_error(stage: str, error: str) -> str:
    """A stage's error for people: crashes name the stage, not the exception's module."""
    text = error.strip()
    match = _INTERNAL.match(text)
    if match:
        return gettext(
            "%(stage)s stopped on an unexpected error (%(error)s). The server log has the "
            "details; once it is fixed, re-run from this stage."
        ) % {"stage": stage_name(stage), "error": match.group(2)}
    if not text:
        return gettext("%s failed without giving a reason.") % stage_name(stage)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def stage_name(stage: str) -> str:
    """A stage's name as the pages show it, capitalised, in the page's language."""
    return str(_STAGE_NAMES.get(stage, stage_label(stage).capitalize()))


# A stage's name starting a sentence, in the page's language.
_STAGE_NAMES = {
    "retrieve": gettext_lazy("Retrieve"),
    "filter": gettext_lazy("Filter"),
    "deepread": gettext_lazy("Deep-read"),
    "crosscheck": gettext_lazy("Cross-validate"),
    "decide": gettext_lazy("Decide"),
}


def _dt(value: str | None) -> datetime | None:
    return parse_datetime(value) if value else None


def run_searches(run: Run) -> Searches | None:
    """How the run's searches went (decisions.searches), once retrieve has written them."""
    try:
        return searches(readers.candidates(store_for(run.run_id)).provider_calls)
    except (StoreError, OSError, ValueError):
        return None


# --- decisions saved beside a run's own ----------------------------------------------------


def saved_decisions(run: Run) -> list[SavedDecision]:
    """The decisions saved beside the run's own, first saved first."""
    try:
        return redecide.saved(store_for(run.run_id))
    except (OSError, StoreError):
        return []


def saved_decision(run: Run, number: int) -> SavedDecision:
    """One saved decision of the run; LookupError when it has none by that number."""
    for found in saved_decisions(run):
        if found.number == number:
            return found
    raise LookupError(f"run {run.run_id} has no saved decision {number}")


# --- two runs of the same question ---------------------------------------------------------


def asked_again_from(run: Run) -> str | None:
    """The run this one asks again, when it does."""
    try:
        return store_for(run.run_id).index()["params"].get("again_of") or None
    except (OSError, StoreError, KeyError):
        return None


def comparison(before: Run, after: Run) -> Comparison:
    """What changed from `before` to `after`; StoreError (or FileNotFoundError) when either
    has no decision to compare."""
    return compare(_run_view(before), _run_view(after))


def _run_view(run: Run) -> RunView:
    store = store_for(run.run_id)
    return RunView(
        run.run_id,
        readers.decision(store),
        readers.crosscheck(store),
        readers.notes(store),
        run.question,
    )


def asked_before(user, runs: list[Run]) -> dict[str, tuple[Run | None, int]]:
    """For each of `runs`: the user's latest earlier run of the same question (or None), and
    how many times the user has asked it."""
    keys = {same_question_key(r.question) for r in runs}
    mine: dict[str, list[Run]] = {}
    for run in runs_for(user).order_by("created"):
        key = same_question_key(run.question)
        if key in keys:
            mine.setdefault(key, []).append(run)
    found = {}
    for run in runs:
        group = mine.get(same_question_key(run.question), [run])
        earlier = [r for r in group if r.created < run.created]
        found[run.run_id] = (earlier[-1] if earlier else None, len(group))
    return found


def asked_on_schedule(run: Run) -> str:
    """ "weekly" or "monthly" when the clock asked this run again, not its owner; else ""."""
    try:
        return store_for(run.run_id).index()["params"].get("again_on_schedule") or ""
    except (OSError, StoreError, KeyError):
        return ""


def reask_of(run: Run):
    """The schedule on which `run`'s question is asked again; None when there is none."""
    return Reask.objects.filter(run=run).first()


def run_damage(run: Run) -> ArtifactDamaged | None:
    """The first file of a run that is not going that is missing or no longer what was
    written: its manifest, or an output of a stage the manifest says finished. None when
    every one is sound, or the run's folder is gone altogether."""
    if run.status in (Run.Status.QUEUED, Run.Status.RUNNING):
        return None
    try:
        store = store_for(run.run_id)
        if not store.found():
            return None
        stages = store.index()["stages"]
        for stage in active_stages():
            finished = stages.get(stage, {}).get("status") in FINISHED
            if finished and (damage := damaged_output(store, stage)) is not None:
                return damage
    except ManifestDamaged as damage:
        return damage
    except (OSError, StoreError):
        return None
    return None


def shown_sources(urls: list[str], *runs: Run) -> list[str]:
    """How a page names each source of these runs: its address on the web, or for a
    document kept on the server (a local corpus, My documents) its title, never its path
    there, which would name the server's folders and the owner's id."""
    titles: dict[str, str] = {}
    for run in runs:
        try:
            notes = readers.notes(store_for(run.run_id))
        except (OSError, StoreError, ValueError):
            continue
        titles |= {s.url: s.title for s in notes.sources if s.title}
    kept_here = ("file:", "local:")
    return [url if not url.startswith(kept_here) else _document_name(url, titles) for url in urls]


def _document_name(url: str, titles: dict[str, str]) -> str:
    return titles.get(url) or unquote(url.rstrip("/").rpartition("/")[2]) or gettext("a document")
