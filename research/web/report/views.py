"""The report pages of one run: the report, the evidence viewer and the Markdown export.

Thin views: find the user's run (another user's is a 404), read its artifacts through the
run store, hand them to research.web.report.report_page / evidence_page, render.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_POST

from reports.export import absolute_page_links, export_filename
from research import services
from research.artifacts import Crosscheck, Plan
from research.models import Run
from research.names import CROSSCHECK, DECISION, NOTES, REPORT, saved_artifact, stage_label
from research.selectors import run_damage, run_for, saved_decision, saved_decisions
from research.store import (
    ArtifactDamaged,
    ManifestDamaged,
    RunStore,
    StoreError,
    readers,
    store_for,
)
from research.web.mending import mend
from research.web.report import whatif
from research.web.report.evidence_page import evidence_page
from research.web.report.matrix import claim_label
from research.web.report.report_page import report_page
from research.web.report.run_files import Quoter, RunFiles, load, report_ready
from research.web.report.strings import WebStrings


def _owned_run(request: HttpRequest, run_id: str, say: bool = True) -> tuple[Run, RunStore]:
    try:
        run = run_for(request.user, run_id)
        store = store_for(run.run_id)
    except (Run.DoesNotExist, StoreError):
        raise Http404("No such run.") from None
    mend(request, run, say=say)
    return run, store


def _finished(run: Run, store: RunStore) -> bool:
    return run.status == Run.Status.DONE and report_ready(store)


def _lost_file(run: Run, store: RunStore) -> ArtifactDamaged | None:
    """Why a finished run has no report to show: the file that is missing or damaged."""
    if run.status != Run.Status.DONE or (report_ready(store) and store.exists()):
        return None
    return run_damage(run)


def _not_ready(request: HttpRequest, run: Run, store: RunStore, status: int = 200) -> HttpResponse:
    language = _language(store)
    t = WebStrings(language)
    context = {
        "L": t.labels(),
        "run": run,
        "status": t("not_ready_status", status=_status(run.status, t)),
        "failed": run.status == Run.Status.FAILED,
        "run_url": _run_url(run.run_id),
    }
    return render(request, "web/report/not_ready.html", context, status=status)


def _damaged(
    request: HttpRequest, run: Run, store: RunStore, damage: ArtifactDamaged, status: int = 200
) -> HttpResponse:
    """Which file is damaged and how, and the button that repairs it: re-running the stage
    that wrote it (or, for the manifest, rebuilding it from the files still sound)."""
    t = WebStrings(_language(store))
    stage = damage.stage if run.status not in (Run.Status.QUEUED, Run.Status.RUNNING) else None
    context = {
        "L": t.labels(),
        "run": run,
        "damage": damage,
        "manifest": isinstance(damage, ManifestDamaged),
        "rerun_stage": None if isinstance(damage, ManifestDamaged) else stage,
        "rerun_label": t("damaged_rerun", stage=stage_label(stage)) if stage else "",
        "run_url": _run_url(run.run_id),
    }
    return render(request, "web/report/damaged.html", context, status=status)


def _status(status: str, t: WebStrings) -> str:
    key = f"status_{status}"
    return t(key) if key in t.labels() else status


def _language(store: RunStore) -> str:
    plan = _plan(store)
    return plan.language if plan else "en"


def _plan(store: RunStore) -> Plan | None:
    try:
        return readers.plan(store)
    except (OSError, ValueError, StoreError):
        return None


def _crosscheck(store: RunStore) -> Crosscheck | None:
    if not store.has(CROSSCHECK):
        return None
    return readers.crosscheck(store)


def _run_url(run_id: str) -> str:
    # The run page is the root of the URLs this app is included under.
    return reverse("web:run", args=[run_id])


@login_required
def report(request: HttpRequest, run_id: str) -> HttpResponse:
    run, store = _owned_run(request, run_id)
    if (damage := _lost_file(run, store)) is not None:
        return _damaged(request, run, store, damage)
    if not _finished(run, store):
        return _not_ready(request, run, store)
    try:
        files = load(store)
    except ArtifactDamaged as damage:
        return _damaged(request, run, store, damage)
    return _report(request, run, files, saved=None)


def _report(request: HttpRequest, run: Run, files: RunFiles, saved) -> HttpResponse:
    """The report page of the run's own decision, or of one saved beside it."""
    run_id = run.run_id
    context = report_page(files, lambda sid: _evidence_url(run_id, sid))
    context |= {
        "run": run,
        "run_url": _run_url(run_id),
        # The numbers the what-if script recomputes from, as JSON in an attribute: the
        # page has no inline script, not even a data block.
        "whatif_json": json.dumps(whatif.model(files), ensure_ascii=False),
        "sliders": whatif.sliders(files),
        "reweigh_url": reverse("web:reweigh", args=[run_id]),
        "saved_decisions": saved_decisions(run),
        "saved": saved,
        "can_correct": saved is None,
        "back": "#matrix",
        "saved_title": WebStrings(files.plan.language)("saved_decision", number=saved.number)
        if saved
        else "",
        "export_url": reverse("web:saved-export", args=[run_id, saved.number])
        if saved
        else reverse("web:export", args=[run_id]),
    }
    return render(request, "web/report/report.html", context)


@login_required
@require_POST
def reweigh(request: HttpRequest, run_id: str) -> HttpResponse:
    """Save the report page's what-if weights as a decision of the run's own."""
    run, _ = _owned_run(request, run_id)
    names, values = request.POST.getlist("dimension"), request.POST.getlist("weight")
    try:
        saved = services.save_weights(run, dict(zip(names, values, strict=False)), _who(request))
    except (services.WeightsInvalid, StoreError) as exc:
        messages.error(request, str(exc))
        return redirect(reverse("web:report", args=[run_id]) + "#whatif")
    return redirect("web:saved", run_id=run_id, number=saved.number)


@login_required
@require_POST
def correct(request: HttpRequest, run_id: str) -> HttpResponse:
    """Mark a claim misread or a contradiction not real, and decide the run again."""
    run, _ = _owned_run(request, run_id)
    post = request.POST
    try:
        services.correct(
            run,
            post.get("target", ""),
            post.get("target_id", ""),
            post.get("kind", ""),
            _who(request),
            value=post.get("value", ""),
            note=post.get("note", ""),
        )
    except (services.CorrectionInvalid, StoreError) as exc:
        messages.error(request, str(exc))
    return _back_to_report(run_id, post.get("back", ""))


@login_required
def correction_form(request: HttpRequest, run_id: str, claim_id: str) -> HttpResponse:
    """The form that marks one claim of the run misread: what is wrong, what it should be."""
    run, store = _owned_run(request, run_id)
    if not _finished(run, store):
        return _not_ready(request, run, store)
    files = load(store)
    claim = files.read_claims.get(claim_id)
    if claim is None:
        raise Http404("No such claim in this run.")
    t = WebStrings(files.plan.language)
    quote = Quoter(files.numbers, lambda sid: _evidence_url(run_id, sid))
    context = {
        "L": t.labels(),
        "run": run,
        "claim": claim,
        "label": claim_label(claim, t),
        "quote": quote(claim.source_id, claim.quote),
        "plan_options": files.plan.options,
        "plan_dimensions": [d.name for d in files.plan.dimensions],
    }
    return render(request, "web/report/correct.html", context)


@login_required
@require_POST
def undo_correction(request: HttpRequest, run_id: str, correction_id: str) -> HttpResponse:
    run, _ = _owned_run(request, run_id)
    try:
        services.undo_correction(run, correction_id, _who(request))
    except services.CorrectionInvalid:
        raise Http404("No such correction.") from None
    except StoreError as exc:
        messages.error(request, str(exc))
    return _back_to_report(run_id, request.POST.get("back", ""))


def _back_to_report(run_id: str, anchor: str) -> HttpResponse:
    anchor = anchor if re.fullmatch(r"#[A-Za-z0-9_-]{1,60}", anchor) else "#matrix"
    return redirect(reverse("web:report", args=[run_id]) + anchor)


def _who(request: HttpRequest) -> str:
    return request.user.get_username()


def _saved(request: HttpRequest, run_id: str, number: int):
    run, store = _owned_run(request, run_id)
    try:
        return run, store, saved_decision(run, number)
    except LookupError:
        raise Http404("No such decision.") from None


@login_required
def saved_report(request: HttpRequest, run_id: str, number: int) -> HttpResponse:
    run, store, saved = _saved(request, run_id, number)
    try:
        files = load(store)
        decision = store.read_model(saved_artifact(number, DECISION), type(files.decision))
    except ArtifactDamaged as damage:
        return _damaged(request, run, store, damage)
    plan = files.plan.model_copy(update={"dimensions": saved.weights})
    return _report(request, run, replace(files, plan=plan, decision=decision), saved=saved)


@login_required
def saved_export(request: HttpRequest, run_id: str, number: int) -> HttpResponse:
    run, store, _ = _saved(request, run_id, number)
    try:
        text = store.read_text(saved_artifact(number, REPORT))
    except ArtifactDamaged as damage:
        return _damaged(request, run, store, damage, status=409)
    return _markdown(request, run_id, text, export_filename(run_id).replace(".md", f"-{number}.md"))


def _evidence_url(run_id: str, source_id: str) -> str:
    return reverse("web:evidence", args=[run_id, source_id])


@login_required
def evidence(request: HttpRequest, run_id: str, source_id: str) -> HttpResponse:
    run, store = _owned_run(request, run_id)
    try:
        return _evidence(request, run, store, source_id)
    except ArtifactDamaged as damage:
        return _damaged(request, run, store, damage)


def _evidence(request: HttpRequest, run: Run, store: RunStore, source_id: str) -> HttpResponse:
    run_id = run.run_id
    plan = _plan(store)
    if plan is None or not store.has(NOTES):
        return _not_ready(request, run, store)
    notes = readers.notes(store)
    src = next((s for s in notes.sources if s.source_id == source_id), None)
    if src is None:
        raise Http404("No such source in this run.")
    text = store.read_text(src.page) if src.page else None
    check = _crosscheck(store)
    finished = _finished(run, store)
    corrections = readers.corrections(store) if finished else None
    context = evidence_page(src, notes, plan, check, text, corrections)
    context |= {
        "can_correct": finished and check is not None,
        "back": "#matrix",
        "run": run,
        "report_url": reverse("web:report", args=[run_id]),
        "run_url": _run_url(run_id),
    }
    return render(request, "web/report/evidence.html", context)


@login_required
def export_markdown(request: HttpRequest, run_id: str) -> HttpResponse:
    run, store = _owned_run(request, run_id, say=False)
    if (damage := _lost_file(run, store)) is not None:
        return _damaged(request, run, store, damage, status=409)
    if not _finished(run, store) or not store.has(REPORT):
        return _not_ready(request, run, store, status=409)
    try:
        report_text = readers.report(store)
    except ArtifactDamaged as damage:
        return _damaged(request, run, store, damage, status=409)
    return _markdown(request, run_id, report_text, export_filename(run_id))


def _markdown(request: HttpRequest, run_id: str, report_text: str, filename: str) -> HttpResponse:
    text = absolute_page_links(
        report_text, lambda sid: request.build_absolute_uri(_evidence_url(run_id, sid))
    )
    response = HttpResponse(text.encode("utf-8"), content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=filename
    )
    return response
