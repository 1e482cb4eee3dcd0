"""The web pages: the question form, the runs list, and every page of a run (its progress,
its files, its report, the evidence behind it and the Markdown export)."""

from django.urls import path

from research.web import artifact_views, run_views, upload_views, views
from research.web.report import views as report_views

app_name = "web"

urlpatterns = [
    path("", views.new_question, name="home"),
    path("new/", views.new_question, name="new"),
    path("new/reading/", views.question_reading, name="question-reading"),
    path("runs/", views.runs, name="runs"),
    path("sources/mine/", upload_views.mine, name="my-sources"),
    path("sources/mine/<str:name>/delete/", upload_views.delete, name="my-source-delete"),
    path("runs/<str:run_id>/", run_views.run_page, name="run"),
    path("runs/<str:run_id>/progress/", run_views.progress, name="progress"),
    path("runs/<str:run_id>/cancel/", run_views.cancel, name="cancel"),
    path("runs/<str:run_id>/rerun/", run_views.rerun, name="rerun"),
    path("runs/<str:run_id>/repair/", run_views.repair, name="repair"),
    path("runs/<str:run_id>/again/", run_views.ask_again, name="again"),
    path("runs/<str:run_id>/schedule/", run_views.schedule, name="schedule"),
    path("runs/<str:run_id>/compare/<str:other>/", run_views.compare, name="compare"),
    path("runs/<str:run_id>/report/", report_views.report, name="report"),
    path("runs/<str:run_id>/evidence/<str:source_id>/", report_views.evidence, name="evidence"),
    path("runs/<str:run_id>/export.md", report_views.export_markdown, name="export"),
    path("runs/<str:run_id>/decisions/", report_views.reweigh, name="reweigh"),
    path("runs/<str:run_id>/corrections/", report_views.correct, name="correct"),
    path(
        "runs/<str:run_id>/corrections/claims/<str:claim_id>/",
        report_views.correction_form,
        name="correction-form",
    ),
    path(
        "runs/<str:run_id>/corrections/<str:correction_id>/undo/",
        report_views.undo_correction,
        name="undo-correction",
    ),
    path("runs/<str:run_id>/decisions/<int:number>/", report_views.saved_report, name="saved"),
    path(
        "runs/<str:run_id>/decisions/<int:number>/export.md",
        report_views.saved_export,
        name="saved-export",
    ),
    path("runs/<str:run_id>/artifacts/", artifact_views.artifacts, name="artifacts"),
    path(
        "runs/<str:run_id>/artifacts/view/<path:name>",
        artifact_views.artifact,
        name="artifact",
    ),
    path(
        "runs/<str:run_id>/artifacts/download/<path:name>",
        artifact_views.download,
        name="download",
    ),
]
