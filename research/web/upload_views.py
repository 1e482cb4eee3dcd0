"""The person's own documents (research.uploads): upload a file, add a page by URL, delete."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.files.uploadhandler import FileUploadHandler
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParser
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_POST

from research import uploads

FILE_NAME_HEADER = "filename"
# How a file chosen in the form's "documents" field opens its part of the request body.
_NAMED_PART = b'content-disposition: form-data; name="documents"; filename="'


class _Watched:
    """The request body as the multipart parser reads it, counting the named file parts."""

    def __init__(self, request: HttpRequest) -> None:
        self.request, self.named, self._tail = request, 0, b""

    def read(self, size: int = -1) -> bytes:
        chunk = self.request.read(size)
        seen = (self._tail + chunk).lower()
        # A name split across two reads is counted once: the tail is shorter than the marker.
        self.named += seen.count(_NAMED_PART) - self._tail.lower().count(_NAMED_PART)
        self._tail = seen[-(len(_NAMED_PART) - 1) :]
        return chunk


class FileNameWatcher(FileUploadHandler):
    """Django drops a file part whose name is not UTF-8 without a word (its header cannot be
    decoded), so the form would say no file was chosen. This parses the body itself with the
    other handlers, and counts the files the browser named, to tell how many were dropped."""

    named = 0

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        watched = _Watched(self.request)
        others = [h for h in self.request.upload_handlers if h is not self]
        try:
            return MultiPartParser(META, watched, others, encoding).parse()
        finally:
            self.named = watched.named

    def receive_data_chunk(self, raw_data, start):
        return raw_data

    def file_complete(self, file_size):
        return None


@csrf_exempt  # the watcher is installed before the CSRF check reads the body, then it checks
@login_required
@require_http_methods(["GET", "POST"])
def mine(request: HttpRequest) -> HttpResponse:
    watcher = FileNameWatcher(request)
    request.upload_handlers.insert(0, watcher)
    return _mine(request, watcher)


@csrf_protect
def _mine(request: HttpRequest, watcher: FileNameWatcher) -> HttpResponse:
    errors: list[str] = []
    added: list[uploads.StoredDocument] = []
    status = 200
    if request.method == "POST":
        files = request.FILES.getlist("documents")
        url = request.POST.get("url", "").strip()
        unreadable = max(0, watcher.named - len(files))
        if unreadable:
            errors.append(
                gettext(
                    "The name of a file you chose could not be read (it is not in UTF-8), so "
                    "the file was not added. Rename it with ordinary letters and digits, for "
                    "example report.pdf, and upload it again."
                )
            )
        elif not files and not url:
            errors.append(gettext("Choose a file to upload or paste a URL."))
        for upload in files:
            try:
                data = upload.read(uploads.max_bytes() + 1)
                added.append(uploads.save(request.user, upload.name or "", data))
            except uploads.UploadRefused as exc:
                errors.append(str(exc))
        if url:
            try:
                added.append(uploads.save_url(request.user, url))
            except uploads.UploadRefused as exc:
                errors.append(str(exc))
        for doc in added:
            if doc.asked_for:
                messages.info(request, kept_both(doc))
        if not errors:
            return redirect("web:my-sources")
        status = 400
    context = {
        "documents": uploads.documents(request.user),
        "errors": errors,
        "added": [doc.name for doc in added],
        "max_bytes": f"{uploads.max_bytes():,}",
        "source_name": uploads.SOURCE_NAME,
    }
    return render(request, "web/my_sources.html", context, status=status)


def kept_both(doc: uploads.StoredDocument) -> str:
    return gettext(
        "You already had a document named “%(asked)s”. Both are kept: the new one is "
        "“%(name)s”. Delete the one you no longer need."
    ) % {"asked": doc.asked_for, "name": doc.name}


@login_required
@require_POST
def delete(request: HttpRequest, name: str) -> HttpResponse:
    if not uploads.delete(request.user, name):
        raise Http404("no such document")
    return redirect("web:my-sources")
