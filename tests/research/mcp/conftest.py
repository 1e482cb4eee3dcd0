"""What every MCP test shares: a worker is taken to be running (tests/conftest.py), unless
the test is about whether one is (real_worker_check)."""

from __future__ import annotations

import pytest

from research.runs import workers


@pytest.fixture
def real_worker_check(monkeypatch, worker_running):
    """The real check, with nothing kept from an earlier test."""
    monkeypatch.setattr(workers, "worker_problem", ORIGINAL)
    workers.forget()
    yield
    workers.forget()


ORIGINAL = workers.worker_problem
