"""Thin views: parse input, call a service or a selector, render."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from research import selectors, services
from research.models import Run
from research.questions import read_question
from research.sources import available_sources
from research.stages.plan import MAX_QUESTION_CHARS
from research.web import present
from research.web.forms import QuestionForm
from research.web.run_views import KEY_FIELD, STATE_LABELS, run_state, to_run

RUNS_PER_PAGE = 20


@login_required
@require_http_methods(["GET", "POST"])
def new_question(request: HttpRequest) -> HttpResponse:
    posted = request.method == "POST"
    form = QuestionForm(request.POST if posted else None, sources=available_sources(request.user))
    key = request.POST.get(KEY_FIELD, "")
    if posted and form.check():
        try:
            started = services.submit_form(request.user, form.submission(), key)
        except services.QuestionInvalid as exc:
            form.add_errors(exc.errors)
        else:
            return to_run(request, started)
    context = {
        "form": form,
        # A key of its own for every form shown; one sent back with errors keeps its key,
        # since it started nothing.
        "submission_key": key
        if posted and services.SUBMISSION_KEY.fullmatch(key)
        else services.new_submission_key(),
        "max_question_chars": MAX_QUESTION_CHARS,
        "max_question_shown": f"{MAX_QUESTION_CHARS:,}",
        "recent": run_rows(selectors.runs_for(request.user)[:5]),
        "script_text": question_script_text(),
    }
    return render(request, "web/new.html", context)


def question_script_text() -> dict[str, str]:
    """What question.js writes, in the page's language; it fills {n} and {dimensions}."""
    return {
        "dimension_name": gettext("Dimension name %(n)s") % {"n": "{n}"},
        "dimension_weight": gettext("Weight of dimension %(n)s") % {"n": "{n}"},
        "remove_dimension": gettext("Remove dimension %(n)s") % {"n": "{n}"},
        "own_rows": gettext("The question names dimensions too; the rows below are used."),
        "read": gettext("Read from the question: %(dimensions)s. Change them below if you like.")
        % {"dimensions": "{dimensions}"},
    }


@login_required
@require_http_methods(["GET"])
def question_reading(request: HttpRequest) -> HttpResponse:
    """What the question being typed names: the form fills its dimension rows from it."""
    response = JsonResponse(read_question(request.GET.get("question", "")))
    response["Cache-Control"] = "no-store"
    return response


@login_required
def runs(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "").strip()
    page = Paginator(selectors.runs_for(request.user, search=search), RUNS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    rows = run_rows(page.object_list, selectors.asked_before(request.user, page.object_list))
    context = {"page": page, "rows": rows, "search": search}
    return render(request, "web/runs.html", context)


@dataclass(frozen=True)
class RunRow:
    run: Run
    verdict: selectors.Verdict | None
    state: str
    state_label: str
    age: str
    earlier: Run | None = None  # the latest earlier run of the same question
    times: int = 1  # how many times the question was asked
    recommendation_changed: bool = False  # since the earlier run, both finished


def run_rows(runs, before: dict | None = None) -> list[RunRow]:
    now = timezone.now()
    rows = []
    for run in runs:
        state = run_state(run)
        verdict = selectors.run_verdict(run)
        earlier, times = (before or {}).get(run.run_id, (None, 1))
        was = selectors.run_verdict(earlier) if earlier is not None else None
        rows.append(
            RunRow(
                run,
                verdict,
                state,
                STATE_LABELS[state],
                present.ago(run.created, now),
                earlier,
                times,
                bool(verdict and was and verdict.option != was.option),
            )
        )
    return rows
