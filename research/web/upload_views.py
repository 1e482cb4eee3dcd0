"""The person's own documents (research.uploads): upload a file, add a page by URL, delete."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from research import uploads

FILE_NAME_HEADER = "filename"


@login_required
@require_http_methods(["GET", "POST"])
def mine(request: HttpRequest) -> HttpResponse:
    errors: list[str] = []
    added: list[str] = []
    status = 200
    if request.method == "POST":
        files = request.FILES.getlist("documents")
        url = request.POST.get("url", "").strip()
        if not files and not url:
            errors.append(gettext("Choose a file to upload or paste a URL."))
        for upload in files:
            try:
                data = upload.read(uploads.max_bytes() + 1)
                added.append(uploads.save(request.user, upload.name or "", data).name)
            except uploads.UploadRefused as exc:
                errors.append(str(exc))
        if url:
            try:
                added.append(uploads.save_url(request.user, url).name)
            except uploads.UploadRefused as exc:
                errors.append(str(exc))
        if not errors:
            return redirect("web:my-sources")
        status = 400
    context = {
        "documents": uploads.documents(request.user),
        "errors": errors,
        "added": added,
        "max_bytes": f"{uploads.max_bytes():,}",
        "source_name": uploads.SOURCE_NAME,
    }
    return render(request, "web/my_sources.html", context, status=status)


@login_required
@require_POST
def delete(request: HttpRequest, name: str) -> HttpResponse:
    if not uploads.delete(request.user, name):
        raise Http404("no such document")
    return redirect("web:my-sources")
