"""What every MCP test shares: a worker is taken to be running, unless the test is about
whether one is (real_worker_check)."""

from __future__ import annotations

import pytest

from research.runs import workers


@pytest.fixture(autouse=True)
def worker_running(monkeypatch):
    """Starting a run checks that a Celery worker will take it; most tests are not about
    that, and a ping would cost them a second."""
    monkeypatch.setattr(workers, "worker_problem", lambda: None)


@pytest.fixture
def real_worker_check(monkeypatch, worker_running):
    """The real check, with nothing kept from an earlier test."""
    monkeypatch.setattr(workers, "worker_problem", ORIGINAL)
    workers.forget()
    yield
    workers.forget()


ORIGINAL = workers.worker_problem
