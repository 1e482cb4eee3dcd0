"""The admin for runs and stages. Staff see only their own runs; superusers see every run.

Runs are not added here: a question becomes a run through submit_question (the web form or
the CLI), which also queues it. A row added by hand would wait in "Queued" forever.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from research.models import Run, StageRun


class StageRunInline(admin.TabularInline):
    model = StageRun
    extra = 0
    can_delete = False
    readonly_fields = [
        "stage",
        "status",
        "attempts",
        "started",
        "finished",
        "counts",
        "outcomes",
        "error",
    ]

    def has_add_permission(self, request: HttpRequest, obj: Run | None = None) -> bool:
        return False


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ["run_id", "question", "owner", "status", "current_stage", "created"]
    list_filter = ["status", "current_stage"]
    search_fields = ["run_id", "question"]
    readonly_fields = ["run_id", "created", "updated", "finished"]
    inlines = [StageRunInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Run]:
        return _own(super().get_queryset(request), request, "owner")

    def get_readonly_fields(self, request: HttpRequest, obj: Run | None = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        return fields if request.user.is_superuser else [*fields, "owner"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(StageRun)
class StageRunAdmin(admin.ModelAdmin):
    list_display = ["run", "stage", "status", "attempts", "started", "finished"]
    list_filter = ["stage", "status"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[StageRun]:
        return _own(super().get_queryset(request), request, "run__owner")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


def _own(queryset: QuerySet, request: HttpRequest, owner_field: str) -> QuerySet:
    if request.user.is_superuser:
        return queryset
    return queryset.filter(**{owner_field: request.user})
