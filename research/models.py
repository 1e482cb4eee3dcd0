from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_run_id() -> str:
    return secrets.token_hex(6)


class Run(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    run_id = models.CharField(max_length=64, unique=True, default=new_run_id, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="runs",
    )
    question = models.TextField()
    options = models.JSONField(default=list)
    dimensions = models.JSONField(default=list, help_text="[{name, weight}]")
    preset = models.CharField(max_length=40, blank=True)
    sources = models.JSONField(default=list)
    limits = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    current_stage = models.CharField(max_length=16, blank=True)
    error = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.run_id}: {self.question[:60]}"


class StageRun(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        SKIPPED = "skipped", "Skipped (output already valid)"
        FAILED = "failed", "Failed"

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="stages")
    stage = models.CharField(max_length=16)
    position = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    counts = models.JSONField(default=dict, blank=True)
    outcomes = models.JSONField(default=dict, blank=True, help_text="provider outcome -> count")
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["run", "position"]
        constraints = [
            models.UniqueConstraint(fields=["run", "stage"], name="one_stage_row_per_run")
        ]

    def __str__(self) -> str:
        return f"{self.run.run_id}/{self.stage}: {self.status}"

    @property
    def seconds(self) -> float | None:
        if self.started and self.finished:
            return (self.finished - self.started).total_seconds()
        return None
