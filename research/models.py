from __future__ import annotations

import hashlib
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
    # The random key of the web form that asked for the run: the same form sent again (its
    # answer lost on the way back) finds this run instead of making a second one.
    submission_key = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "submission_key"],
                condition=~models.Q(submission_key=""),
                name="one_run_per_submission",
            )
        ]

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


API_TOKEN_PREFIX = "vdt_"
_VISIBLE = len(API_TOKEN_PREFIX) + 8


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class ApiToken(models.Model):
    """A Bearer token for the MCP endpoint (/mcp) that acts for its user.

    Only the sha256 of the secret is stored. The secret has 256 random bits, so a plain hash
    is enough (no salt or slow hash: there is nothing to guess), and a token is found by its
    digest alone. The secret is shown once, when the token is made; a lost one is revoked
    (deleted) and replaced, never recovered. `prefix`, the secret's first characters, lets a
    person tell their tokens apart.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=80, help_text="what the token is for, e.g. a laptop")
    prefix = models.CharField(max_length=16, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created"]
        verbose_name = "API token"
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="one_token_name_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def new_secret(self) -> str:
        """Give this (unsaved) token a fresh secret and return it: the only time it is seen."""
        secret = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
        self.prefix = secret[:_VISIBLE]
        self.digest = token_digest(secret)
        return secret

    @classmethod
    def issue(cls, user, name: str) -> tuple[ApiToken, str]:
        token = cls(user=user, name=name)
        secret = token.new_secret()
        token.save()
        return token, secret

    @classmethod
    def find(cls, secret: str) -> ApiToken | None:
        """The token with this secret, if its user is active; None for anything else."""
        if not secret.startswith(API_TOKEN_PREFIX) or len(secret) > 200:
            return None
        return (
            cls.objects.select_related("user")
            .filter(digest=token_digest(secret), user__is_active=True)
            .first()
        )


class Reask(models.Model):
    """A finished run's question, asked again on a schedule: every `interval`, once
    `next_due` has passed, the clock (research.schedule) asks `run` again as "Ask again"
    does, and moves `next_due` on."""

    class Interval(models.TextChoices):
        WEEKLY = "weekly", "Weekly"
        MONTHLY = "monthly", "Monthly"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reasks"
    )
    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="reask")
    interval = models.CharField(max_length=8, choices=Interval.choices)
    next_due = models.DateTimeField(db_index=True)
    # A monthly re-ask's day of the month (31: the month's last day when it has fewer), so
    # one asked on the 31st does not drift to the 28th after February.
    day = models.PositiveSmallIntegerField(null=True, blank=True)
    last_started = models.ForeignKey(
        Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["next_due"]

    def __str__(self) -> str:
        return f"{self.run.run_id} {self.interval}, next {self.next_due:%Y-%m-%d %H:%M}"
