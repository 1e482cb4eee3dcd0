"""Report pages of one run, under /runs/<run_id>/."""

from django.urls import path

from decisions import views

app_name = "decisions"

urlpatterns = [
    path("report/", views.report, name="report"),
    path("evidence/<str:source_id>/", views.evidence, name="evidence"),
    path("export.md", views.export_markdown, name="export"),
]
