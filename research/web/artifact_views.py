"""Every file of a run: listed, shown in the browser, and downloaded."""

from __future__ import annotations

import io
from pathlib import Path

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from research.store import LOG, ManifestDamaged, RunStore, store_for
from research.web import files
from research.web.run_views import LIVE, owned_run


@login_required
def artifacts(request: HttpRequest, run_id: str) -> HttpResponse:
    run = owned_run(request, run_id)
    store = store_for(run.run_id)
    context = {"run": run, "groups": files.Groups([], [], []), "live": run.status in LIVE}
    if store.exists():
        try:
            context["groups"] = files.run_files(store)
        except ManifestDamaged as damage:
            context["groups"] = files.Groups([], [], files.records_of(store))
            context["manifest_damage"] = damage
    context["damaged"] = [
        f for f in context["groups"].outputs + context["groups"].pages if f.problem
    ]
    return render(request, "web/artifacts.html", context)


@login_required
def artifact(request: HttpRequest, run_id: str, name: str) -> HttpResponse:
    run = owned_run(request, run_id)
    store = store_for(run.run_id)
    found, data = _find(store, name)
    context = {
        "run": run,
        "file": found,
        "too_large": found.bytes > files.MAX_SHOWN_BYTES,
        "live": run.status in LIVE,
    }
    if not context["too_large"]:
        if found.name == LOG:
            context["events"] = files.log_events(data)
        else:
            context["text"] = files.shown_text(found.name, data)
    return render(request, "web/artifact.html", context)


@login_required
def download(request: HttpRequest, run_id: str, name: str) -> FileResponse:
    run = owned_run(request, run_id)
    found, data = _find(store_for(run.run_id), name)
    return FileResponse(
        io.BytesIO(data),
        as_attachment=True,
        filename=f"{run.run_id}-{Path(found.name).name}",
        content_type=found.content_type,
    )


def _find(store: RunStore, name: str) -> tuple[files.RunFile, bytes]:
    if not store.exists():
        raise Http404("This run has no files.")
    try:
        return files.find(store, name)
    except files.NotAnArtifact:
        raise Http404("No such file in this run.") from None
