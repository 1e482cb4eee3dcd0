"""A run's own pages (its progress, files, report and evidence) speak the question's
language, whatever the browser's: a Chinese question's report is read in Chinese. Every
other page keeps the language LocaleMiddleware chose (the header's switch, else the
browser's Accept-Language)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from research.i18n import django_language
from research.selectors import runs_for
from research.stages.plan.rules import question_language


class RunLanguage:
    """Middleware, after LocaleMiddleware: on a page of one run, its question's language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> None:
        run_id = kwargs.get("run_id")
        if not run_id or not request.user.is_authenticated:
            return
        question = (
            runs_for(request.user).filter(run_id=run_id).values_list("question", flat=True).first()
        )
        if question:
            language = django_language(question_language(question))
            translation.activate(language)
