"""A run started while no Celery worker is there says so on its page at once, in the
question's language, instead of waiting without a word."""

from __future__ import annotations

import pytest

from research.runs import workers
from tests.research.web.conftest import make_run

pytestmark = pytest.mark.django_db

ZH_QUESTION = "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？"


@pytest.fixture
def no_worker(monkeypatch):
    monkeypatch.setattr(workers, "worker_problem", lambda: workers.NO_WORKER)


def test_a_run_queued_while_no_worker_runs_says_so_at_once(ada, ada_client, no_worker):
    run = make_run(ada)
    for page in (f"/runs/{run.run_id}/", f"/runs/{run.run_id}/progress/"):
        seen = ada_client.get(page).text
        assert "Waiting for a worker." in seen and "make run" in seen, page


def test_in_chinese_the_run_page_says_no_worker_has_taken_it(ada, ada_client, no_worker):
    run = make_run(ada, question=ZH_QUESTION)
    seen = ada_client.get(f"/runs/{run.run_id}/progress/").text
    assert "正在等待工作进程。" in seen
    assert "Waiting for a worker." not in seen


def test_a_run_just_queued_with_a_worker_there_waits_quietly(ada, ada_client):
    run = make_run(ada)
    assert "Waiting for a worker." not in ada_client.get(f"/runs/{run.run_id}/progress/").text
