"""A worker pays the first page extraction's one-off costs when it starts, not in a run."""

from __future__ import annotations

import pytest
from celery.signals import worker_init, worker_process_init

import research.runs.worker  # connects the signals, as CELERY_IMPORTS does
from research.providers import extract


@pytest.fixture
def cold(monkeypatch):
    monkeypatch.setattr(extract, "_warm", type(extract._warm)())
    assert not extract.is_warm()


def test_a_starting_worker_process_warms_up_page_extraction(cold):
    worker_process_init.send(sender=None)
    assert extract.is_warm()


def test_a_worker_warms_up_before_its_pool_forks_so_its_children_start_warm():
    assert research.runs.worker._warm_up_extraction in [
        receiver() for _, receiver in worker_init.receivers
    ]
