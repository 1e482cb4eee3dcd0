"""Verdict's research engine. Its Celery app (research.celery) is loaded by what needs it:
the tasks, the worker (`celery -A research`, which finds research.celery) and the broker
checks, not by every process that sets Django up."""

import os

# Every entry point (manage.py, Celery, `python -m research.…` and `tools.…`) reads these
# settings unless told otherwise.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "research.settings")
