"""The run page, its live progress partial, and the buttons that cancel or re-run a run."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from decisions.searches import Searches, failed_sentence, offline_sentence
from research import diskspace, selectors, services
from research.artifacts import STAGES, Plan
from research.models import Run
from research.names import FINISHED
from research.providers.primary import LABELS as PRIMARY_LABELS
from research.runs import workers
from research.sources import label_for
from research.stages.plan import DEFAULT_PRESET, PRESETS
from research.store import StoreError, readers, store_for
from research.web import plan_graph, present
from research.web.mending import mend
from research.web.report import report_page
from research.web.report import run_files as report_files
from research.web.report.strings import WebStrings

LIVE = (Run.Status.QUEUED, Run.Status.RUNNING)
NO_FILES = gettext_lazy(
    "This run's files are gone from the server, so it cannot be re-run. Ask the question again."
)
# The hidden field of a form that starts a run: its submission key (services.submit_form).
KEY_FIELD = "submission_key"
# A run still queued after this long has probably no worker to take it.
WORKER_HINT_AFTER = 20  # seconds


@dataclass(frozen=True)
class StageRow:
    """One stage as the run page shows it."""

    stage: str
    number: int
    label: str
    purpose: str
    status: str
    status_label: str
    facts: list[present.Fact]
    notes: list[str]
    duration: str
    running_since: str  # ISO time, so the page can count the seconds itself
    attempts: int
    error: str
    can_rerun: bool
    tokens: int = 0  # model tokens this stage used (LLM mode)

    @property
    def tokens_text(self) -> str:
        return f"{self.tokens:,}"


def owned_run(request: HttpRequest, run_id: str) -> Run:
    """The run if it belongs to the signed-in user; anyone else's run does not exist."""
    try:
        return selectors.run_for(request.user, run_id)
    except Run.DoesNotExist:
        raise Http404("No such run.") from None


@login_required
def run_page(request: HttpRequest, run_id: str) -> HttpResponse:
    run = owned_run(request, run_id)
    mend(request, run)
    plan = _plan(run)
    planned = [d.model_dump() for d in plan.dimensions] if plan else []
    preset = run.preset or DEFAULT_PRESET
    dimensions = _dimension_shares(
        run.dimensions
        or planned
        or [{"name": n, "weight": w, "origin": "preset"} for n, w in PRESETS.get(preset, [])],
        preset,
    )
    context = {
        **progress_context(run, plan),
        "dimensions": dimensions,
        "preset_set_aside": _preset_set_aside(run, dimensions),
        "again_of": selectors.asked_again_from(run),
        "again_on_schedule": interval_label(selectors.asked_on_schedule(run)),
        "sources": [label_for(spec) for spec in (plan.sources if plan else run.sources)],
        "primary": primary_rows(plan),
        "damage": selectors.run_damage(run),
    }
    return render(request, "web/run.html", context)


def _graph(run: Run) -> dict[str, Any]:
    """The run drawn as a graph, once its crosscheck is written; nothing before that."""
    try:
        graph = plan_graph.build(store_for(run.run_id))
    except (OSError, StoreError):
        graph = None
    if graph is None or not graph.cells:
        return {}
    return {
        "graph_rows": plan_graph.rows(graph),
        "graph_width": plan_graph.width(graph),
        "graph_height": plan_graph.height(graph),
    }


def primary_rows(plan: Plan | None) -> list[dict[str, Any]]:
    """What each primary source was asked about each option, and what it answered."""
    if plan is None:
        return []
    return [
        {
            "source": PRIMARY_LABELS.get(ask.provider, ask.provider),
            "option": ask.option,
            "asked": ", ".join(a.replace("_", " ") for a in ask.asks),
            "dimensions": ", ".join(ask.dimensions),
            "answer": ask.answer,
            "records": ask.records,
            "facts": ask.facts,
            "detail": ask.detail,
        }
        for ask in plan.primary
    ]


def _plan(run: Run) -> Plan | None:
    """The plan the first stage made (options read from the question), once it exists."""
    try:
        return readers.plan(store_for(run.run_id))
    except (OSError, StoreError):
        return None


@login_required
def progress(request: HttpRequest, run_id: str) -> HttpResponse:
    run = owned_run(request, run_id)
    response = render(request, "web/_progress.html", progress_context(run))
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def cancel(request: HttpRequest, run_id: str) -> HttpResponse:
    run = owned_run(request, run_id)
    if run.status in LIVE:
        services.cancel_run(run)
        messages.success(
            request, gettext("The run was cancelled. You can re-run it from any stage.")
        )
    else:
        messages.info(request, gettext("The run had already stopped; nothing was cancelled."))
    return redirect("web:run", run_id=run.run_id)


@login_required
@require_POST
def rerun(request: HttpRequest, run_id: str) -> HttpResponse:
    run = owned_run(request, run_id)
    stage = request.POST.get("stage", "")
    if stage not in STAGES:
        messages.error(request, gettext("Choose a stage to re-run from."))
    elif not store_for(run.run_id).found():
        messages.error(request, NO_FILES)
    elif run.status in LIVE:
        messages.error(
            request, gettext("The run is still going. Cancel it before re-running a stage.")
        )
    elif not _may_rerun(run, stage):
        first = first_unfinished(stage_rows(run))
        messages.error(
            request,
            gettext("%(stage)s needs the stages before it. Re-run from %(first)s instead.")
            % {
                "stage": shown_label(stage),
                "first": first.label if first else gettext("an earlier stage"),
            },
        )
    else:
        try:
            services.rerun_from(run, stage)
        except StoreError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, gettext("Re-running from %s.") % shown_label(stage).lower())
    return redirect("web:run", run_id=run.run_id)


@login_required
@require_POST
def repair(request: HttpRequest, run_id: str) -> HttpResponse:
    run = owned_run(request, run_id)
    if run.status in LIVE:
        messages.error(request, gettext("The run is still going. Cancel it before repairing it."))
    elif not store_for(run.run_id).found():
        messages.error(request, NO_FILES)
    else:
        try:
            messages.success(request, services.repair_run(run))
        except StoreError as exc:
            messages.error(request, str(exc))
    return redirect("web:run", run_id=run.run_id)


def progress_context(run: Run, plan: Plan | None = None) -> dict[str, Any]:
    """What the run page and its live partial show; the options as soon as the first stage
    has read them from the question (its plan), while the later stages run."""
    plan = plan or _plan(run)
    analysis = selectors.run_analysis(run)
    rows = [_with_model(r, analysis) for r in stage_rows(run)]
    finished = sum(1 for r in rows if r.status in FINISHED)
    state = run_state(run)
    verdict = selectors.run_verdict(run)
    context = {
        "run": run,
        "options": run.options or (plan.options if plan else []),
        "options_from_question": not run.options,
        "stages": rows,
        "state": state,
        "state_label": STATE_LABELS[state],
        "live": run.status in LIVE,
        "finished": finished,
        "percent": round(100 * finished / len(rows)) if rows else 0,
        "total_time": _total_time(run),
        "verdict": verdict,
        "verdict_reasons": _reasons(run, verdict),
        "stopped_at": shown_label(run.current_stage) if run.current_stage else "",
        # The failed stage's own words when it has them: they name the cause.
        "failure": next((r.error for r in rows if r.status == "failed" and r.error), "")
        or _failure(run),
        "next_stage": first_unfinished(rows),
        "waiting_for_worker": _waiting_for_worker(run, rows),
        "waiting_for_space": _waiting_for_space(run),
        "analysis": analysis_context(analysis, live=run.status in LIVE),
        **searches_context(selectors.run_searches(run)),
    }
    if context["offline"]:  # said once, in the card, rather than again as its reason
        context["verdict_reasons"] = []
    if not context["live"]:  # what a finished run offers: asking again, now or on a schedule
        context |= {
            "reask": selectors.reask_of(run),
            "submission_key": services.new_submission_key(),
        }
    # The graph once the crosscheck is written, so that it appears as the run finishes.
    return context | _graph(run)


def _reasons(run: Run, verdict: selectors.Verdict | None) -> list[str]:
    """The reasons the report gives, word for word; the decision's own when the report's
    files cannot all be read."""
    if verdict is None:
        return []
    store = store_for(run.run_id)
    try:
        files = report_files.load(store) if report_files.report_ready(store) else None
    except (OSError, StoreError, ValueError):
        files = None
    if files is None:
        return present.card_reasons(verdict)
    url = reverse("web:report", args=[run.run_id])
    return report_page.reasons(files, WebStrings(files.plan.language), url)


def searches_context(found: Searches | None) -> dict[str, str]:
    """The run's failed searches in one figure, the one the report gives; and, when no
    search at all could be made, the one sentence that says so and why."""
    if found is None or not found.failed:
        return {"offline": "", "failed_searches": ""}
    if found.offline:
        return {"offline": offline_sentence(found), "failed_searches": ""}
    said = gettext("%(failed)s (%(reason)s).") % {
        "failed": failed_sentence(found.failed),
        "reason": found.reason.rstrip("."),
    }
    return {"offline": "", "failed_searches": said}


def _with_model(row: StageRow, analysis: selectors.Analysis) -> StageRow:
    """The stage's model use: its tokens, and a note when some answers were not used."""
    note = present.model_note(analysis.calls.get(row.stage, {}))
    return replace(
        row,
        tokens=analysis.tokens.get(row.stage, 0),
        notes=[*row.notes, note] if note else row.notes,
    )


def analysis_context(analysis: selectors.Analysis, live: bool = False) -> dict[str, Any]:
    """What the page says about the method: the mode, the model, and tokens against the
    budget. "LLM-assisted" only once the model's answers were used."""
    budget = analysis.budget or getattr(settings, "LLM_MAX_TOKENS_PER_RUN", None)
    exhausted = analysis.budget_exhausted_at
    if analysis.assisted:
        label = gettext("LLM-assisted analysis")
    elif analysis.llm:
        label = (
            gettext("No model answer used yet")
            if live
            else gettext("Deterministic analysis (no model answer used)")
        )
    else:
        label = gettext("Deterministic analysis (no LLM)")
    return {
        "llm": analysis.llm,
        "label": label,
        "time_out": (
            gettext(
                "The model's time ran out during %s (LLM_STAGE_SECONDS): the deterministic "
                "reader did the rest of that stage."
            )
            % gettext(", ").join(shown_label(s).lower() for s in analysis.time_out_at)
            if analysis.time_out_at
            else ""
        ),
        "model": analysis.model,
        "total": f"{analysis.total:,}",
        "budget": f"{budget:,}" if analysis.llm and budget else "",
        "exhausted": (
            gettext(
                "The token budget ran out during %s: from there the run stopped asking the "
                "model and finished with the deterministic reader."
            )
            % shown_label(exhausted).lower()
            if exhausted
            else ""
        ),
        "unreachable": (
            gettext(
                "The model could not be reached during %(stage)s (%(why)s): from there the run "
                "went on without it, with the deterministic reader. Re-run once the endpoint "
                "answers."
            )
            % {
                "stage": shown_label(analysis.unreachable_at).lower(),
                "why": analysis.unreachable_reason.rstrip("."),
            }
            if analysis.unreachable_at
            else ""
        ),
    }


ORIGIN_LABELS = {
    "question": gettext_lazy("from the question"),
    "form": gettext_lazy("set on the form"),
}


def _dimension_shares(dimensions: list[dict[str, Any]], preset: str) -> list[dict[str, Any]]:
    """Each dimension's share of the weight and where it came from."""
    total = sum(float(d.get("weight") or 0) for d in dimensions) or 1.0
    return [
        {
            "name": d["name"],
            "share": round(100 * float(d.get("weight") or 0) / total),
            "origin": d.get("origin") or "",
            "origin_label": _origin_label(d.get("origin") or "", preset),
        }
        for d in dimensions
    ]


def _origin_label(origin: str, preset: str) -> str:
    if not origin:
        return ""
    if origin in ORIGIN_LABELS:
        return str(ORIGIN_LABELS[origin])
    return gettext("the %(preset)s preset") % {"preset": preset}


def _preset_set_aside(run: Run, dimensions: list[dict[str, Any]]) -> str:
    """A preset the person chose that the question's own dimensions replaced, said aloud."""
    from_question = any(d["origin"] == "question" for d in dimensions)
    if run.preset and run.dimensions and from_question:
        return gettext(
            "The question names its dimensions, so the %(preset)s preset was not used."
        ) % {"preset": run.preset}
    return ""


def run_state(run: Run) -> str:
    return "cancelled" if selectors.is_cancelled(run) else str(run.status)


def stage_rows(run: Run) -> list[StageRow]:
    live = run.status in LIVE
    # A run whose files are gone cannot run any stage again.
    rows, ready = [], not live and store_for(run.run_id).exists()
    for number, view in enumerate(selectors.run_stages(run), 1):
        rows.append(_row(view, number, live, ready))
        # A stage can run again only once every stage before it has its output.
        ready = ready and view.status in FINISHED
    return rows


def first_unfinished(rows: list[StageRow]) -> StageRow | None:
    """The stage a stopped run would go on from, if it can go on at all."""
    return next((r for r in rows if r.status not in FINISHED and r.can_rerun), None)


def _may_rerun(run: Run, stage: str) -> bool:
    return any(r.stage == stage and r.can_rerun for r in stage_rows(run))


def _row(view: selectors.StageView, number: int, live: bool, ready: bool) -> StageRow:
    counts = dict(view.raw_counts)
    done = view.status in FINISHED
    # A stage still pending in a run that has stopped will not run unless asked to.
    status = view.status if live or view.status != "pending" else "not-run"
    return StageRow(
        stage=view.stage,
        number=number,
        label=shown_label(view.stage),
        purpose=present.STAGE_PURPOSE.get(view.stage, ""),
        status=status,
        status_label=STATUS_LABELS.get(status, view.status_label),
        facts=present.facts(view.stage, counts) if done else [],
        notes=present.notes(view.stage, counts, dict(view.outcomes)),
        duration=present.duration(view.seconds) if view.finished and status in TIMED else "",
        running_since=view.started.isoformat() if view.status == "running" and view.started else "",
        attempts=view.attempts,
        error=view.error,
        can_rerun=ready,
    )


def _failure(run: Run) -> str:
    """The run's error in plain words, without the stage id the pipeline prefixes it with."""
    if not run.error:
        return ""
    stage = run.current_stage or STAGES[0]
    return selectors.plain_error(stage, run.error.removeprefix(f"{stage}: "))


def _total_time(run: Run) -> str:
    if run.finished and run.status == Run.Status.DONE:
        return gettext("took %s") % present.duration((run.finished - run.created).total_seconds())
    return ""


STATUS_LABELS = {
    "pending": gettext_lazy("Waiting"),
    "queued": gettext_lazy("Queued"),
    "running": gettext_lazy("Running"),
    "done": gettext_lazy("Done"),
    "skipped": gettext_lazy("Already done"),
    "failed": gettext_lazy("Failed"),
    "cancelled": gettext_lazy("Cancelled"),
    "not-run": gettext_lazy("Not run"),
}
TIMED = ("done", "skipped", "failed")  # a cancelled stage's time says nothing
STATE_LABELS = {
    "queued": gettext_lazy("Queued"),
    "running": gettext_lazy("Running"),
    "done": gettext_lazy("Done"),
    "failed": gettext_lazy("Stopped"),
    "cancelled": gettext_lazy("Cancelled"),
}
shown_label = selectors.stage_name


def _waiting_for_space(run: Run) -> str:
    """Why a run still going waits for disk space, in a sentence; empty when it does not."""
    if run.status not in LIVE or not diskspace.is_waiting(run.error):
        return ""
    why = run.error.partition(f"{diskspace.WAITING}: ")[2]
    return why[:1].upper() + why[1:]


def _waiting_for_worker(run: Run, rows: list[StageRow]) -> bool:
    """A queued run nothing has taken: said at once when no worker answers now, and after a
    while when one does (it may be busy, or its queue is not this run's)."""
    if run.status != Run.Status.QUEUED or run.error or any(r.status == "running" for r in rows):
        return False
    if (timezone.now() - run.updated).total_seconds() > WORKER_HINT_AFTER:
        return True
    return workers.worker_problem() is not None


@login_required
@require_POST
def ask_again(request: HttpRequest, run_id: str) -> HttpResponse:
    """A new run of the same question, linked to this one."""
    run = owned_run(request, run_id)
    if run.status in LIVE:
        messages.error(request, "The run is still going: ask again once it has finished.")
        return redirect("web:run", run_id=run.run_id)
    try:
        started = services.ask_again_once(run, request.POST.get(KEY_FIELD, ""))
    except services.QuestionInvalid as exc:
        messages.error(request, str(exc))
        return redirect("web:run", run_id=run.run_id)
    if not started.repeated:
        messages.success(request, "Asked again. When it has finished, compare the two runs.")
    return to_run(request, started)


def to_run(request: HttpRequest, started: services.Started) -> HttpResponse:
    """The run a form started; when the form had been sent before, the one it started
    then, and the person is told why no second run was made."""
    if started.repeated:
        messages.info(
            request,
            gettext(
                "This form had already been sent, so this is the run it started then; "
                "no second run was made."
            ),
        )
    return redirect("web:run", run_id=started.run.run_id)


@login_required
@require_POST
def schedule(request: HttpRequest, run_id: str) -> HttpResponse:
    """Ask this run's question again weekly or monthly, or ("off") no longer."""
    run = owned_run(request, run_id)
    interval = request.POST.get("interval", "")
    if run.status in LIVE:
        messages.error(
            request, gettext("The run is still going: schedule it once it has finished.")
        )
        return redirect("web:run", run_id=run.run_id)
    try:
        reask = services.set_reask(run, "" if interval == "off" else interval)
    except services.ScheduleInvalid as exc:
        messages.error(request, str(exc))
        return redirect("web:run", run_id=run.run_id)
    if reask is None:
        messages.success(request, gettext("This question is no longer asked again on a schedule."))
    else:
        messages.success(
            request,
            gettext("This question will be asked again %(interval)s, next on %(date)s.")
            % {"interval": interval_label(reask.interval), "date": _day(reask.next_due)},
        )
    return redirect("web:run", run_id=run.run_id)


def interval_label(interval: str) -> str:
    return {"weekly": gettext("every week"), "monthly": gettext("every month")}.get(interval, "")


def _day(when) -> str:
    return formats.date_format(timezone.localtime(when), "DATE_FORMAT")


@login_required
def compare(request: HttpRequest, run_id: str, other: str) -> HttpResponse:
    """What changed from run `run_id` to run `other`, both the user's own and finished."""
    before, after = owned_run(request, run_id), owned_run(request, other)
    try:
        found = selectors.comparison(before, after)
    except (OSError, StoreError, ValueError):
        messages.error(request, "Both runs must have finished to be compared.")
        return redirect("web:run", run_id=after.run_id)
    context = {
        "before": before,
        "after": after,
        "c": found,
        "sources_added": selectors.shown_sources(found.sources_added, after),
        "sources_gone": selectors.shown_sources(found.sources_gone, before),
    }
    return render(request, "web/compare.html", context)
