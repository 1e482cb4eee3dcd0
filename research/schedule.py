"""The clock: Celery beat (CELERY_BEAT_SCHEDULE) sends `reask_due` every hour, and it asks
again every scheduled question that is due (research.services.start_due_reasks). Like the
pages and the commands, it is a surface: it only calls services."""

from __future__ import annotations

from django.utils import timezone

from research import services
from research.celery import app


@app.task(name="research.schedule.reask_due", ignore_result=True)
def reask_due() -> int:
    """Ask again what is due now; the number of runs started."""
    return len(services.start_due_reasks(timezone.now()))
