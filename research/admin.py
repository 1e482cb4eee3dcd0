"""The admin for runs, stages and API tokens. Staff see only their own runs and tokens;
superusers see everyone's.

Runs are not added here: a question becomes a run through submit_question (the web form or
the CLI), which also queues it. A row added by hand would wait in "Queued" forever.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest

from research.models import ApiToken, Run, StageRun


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


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are made here with a fresh secret, shown once in a message; deleting one revokes
    it. The secret itself is never stored, so it cannot be shown or edited later."""

    list_display = ["name", "user", "prefix", "created", "last_used"]
    search_fields = ["name", "prefix", "user__username"]
    fields = ["user", "name", "prefix", "created", "last_used"]
    readonly_fields = ["prefix", "created", "last_used"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ApiToken]:
        return _own(super().get_queryset(request), request, "user")

    def get_readonly_fields(self, request: HttpRequest, obj: ApiToken | None = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        return fields if obj is None else [*fields, "user"]

    def formfield_for_foreignkey(self, db_field, request: HttpRequest, **kwargs):
        if db_field.name == "user" and not request.user.is_superuser:
            kwargs["queryset"] = get_user_model().objects.filter(pk=request.user.pk)
            kwargs["initial"] = request.user.pk
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: ApiToken, form, change: bool) -> None:
        secret = "" if change else obj.new_secret()
        super().save_model(request, obj, form, change)
        if secret:
            messages.warning(
                request,
                f"The new token for {obj.user.get_username()} is {secret} . Copy it now: it is "
                "shown only this once, and only its fingerprint is kept.",
            )


def _own(queryset: QuerySet, request: HttpRequest, owner_field: str) -> QuerySet:
    if request.user.is_superuser:
        return queryset
    return queryset.filter(**{owner_field: request.user})
