from django.contrib import admin

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


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ["run_id", "question", "owner", "status", "current_stage", "created"]
    list_filter = ["status", "current_stage"]
    search_fields = ["run_id", "question"]
    readonly_fields = ["run_id", "created", "updated", "finished"]
    inlines = [StageRunInline]


@admin.register(StageRun)
class StageRunAdmin(admin.ModelAdmin):
    list_display = ["run", "stage", "status", "attempts", "started", "finished"]
    list_filter = ["stage", "status"]
