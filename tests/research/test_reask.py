"""Asking a question again on a schedule: the owner opts a finished run in (weekly or
monthly) and out again; the clock's task starts each due re-ask once, as "Ask again" does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from research import schedule, services
from research.models import Reask, Run
from research.runs import tasks
from research.store import store_for
from tests.runs import new_run

pytestmark = pytest.mark.django_db

MONDAY = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


@pytest.fixture
def started(monkeypatch) -> list[tuple[str, str]]:
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: calls.append((run_id, stage)))
    return calls


@pytest.fixture
def finished(runs_dir, ada):
    def make(owner=None, question: str | None = None) -> Run:
        run = new_run(question, owner=owner or ada) if question else new_run(owner=owner or ada)
        run.status = Run.Status.DONE
        run.save()
        return run

    return make


def _scheduled(run: Run, interval: str, due: datetime) -> Reask:
    return Reask.objects.create(
        owner=run.owner, run=run, interval=interval, next_due=due, day=due.day
    )


def _asked_again(of: Run) -> list[Run]:
    return [
        r
        for r in Run.objects.exclude(pk=of.pk)
        if store_for(r.run_id).index()["params"].get("again_of") == of.run_id
    ]


def test_the_task_starts_the_due_reasks_only_and_moves_them_on(
    finished, started, django_capture_on_commit_callbacks
):
    due, later = finished(), finished(question="Choose between Alderstream and Brightwell")
    _scheduled(due, "weekly", MONDAY - timedelta(minutes=1))
    _scheduled(later, "monthly", MONDAY + timedelta(minutes=1))

    with django_capture_on_commit_callbacks(execute=True):
        first = services.start_due_reasks(MONDAY)

    [again] = _asked_again(due)
    assert [r.run_id for r in first] == [again.run_id]
    assert started == [(again.run_id, "retrieve")]
    assert _asked_again(later) == []  # not early
    assert (again.question, again.options, again.owner) == (due.question, due.options, due.owner)
    index = store_for(again.run_id).index()
    assert index["params"]["again_on_schedule"] == "weekly"
    reask = Reask.objects.get(run=due)
    assert reask.next_due == MONDAY - timedelta(minutes=1) + timedelta(days=7)
    assert reask.last_started == again

    with django_capture_on_commit_callbacks(execute=True):
        assert services.start_due_reasks(MONDAY) == []  # not twice
    assert len(_asked_again(due)) == 1 and len(started) == 1

    with django_capture_on_commit_callbacks(execute=True):
        services.start_due_reasks(MONDAY + timedelta(days=7))
    assert len(_asked_again(due)) == 2 and len(_asked_again(later)) == 1


def test_a_monthly_reask_moves_a_calendar_month_and_a_missed_stretch_starts_one_run(
    finished, started
):
    run = finished()
    _scheduled(run, "monthly", datetime(2026, 1, 31, 8, 0, tzinfo=UTC))

    services.start_due_reasks(datetime(2026, 5, 2, tzinfo=UTC))  # the clock was off for months

    assert len(_asked_again(run)) == 1
    assert Reask.objects.get(run=run).next_due == datetime(2026, 5, 31, 8, 0, tzinfo=UTC)


def test_no_reask_for_a_disabled_owner_or_a_run_that_is_gone(finished, started, bob):
    mine, bobs = finished(), finished(owner=bob)
    _scheduled(mine, "weekly", MONDAY)
    _scheduled(bobs, "weekly", MONDAY)
    bob.is_active = False
    bob.save()
    mine.delete()

    assert services.start_due_reasks(MONDAY + timedelta(hours=1)) == []
    assert Run.objects.count() == 1 and Reask.objects.count() == 1


def test_the_celery_task_asks_again_what_is_due_now(finished, started):
    run = finished()
    _scheduled(run, "weekly", datetime(2020, 1, 1, tzinfo=UTC))

    assert schedule.reask_due() == 1
    assert len(_asked_again(run)) == 1
    assert Reask.objects.get(run=run).next_due > datetime.now(UTC)


def test_beat_sends_the_task_every_hour_and_a_worker_loads_it():
    from django.conf import settings

    [entry] = settings.CELERY_BEAT_SCHEDULE.values()
    assert entry == {"task": schedule.reask_due.name, "schedule": 3600}
    assert "research.schedule" in settings.CELERY_IMPORTS


def test_the_run_page_opts_in_and_out(finished, ada_client):
    run = finished()
    url = reverse("web:schedule", args=[run.run_id])
    page = ada_client.get(reverse("web:run", args=[run.run_id])).text
    assert 'data-reask="off"' in page and url in page

    before = datetime.now(UTC)
    response = ada_client.post(url, {"interval": "monthly"}, follow=True)

    reask = Reask.objects.get(run=run)
    assert (reask.interval, reask.owner) == ("monthly", run.owner)
    assert before + timedelta(days=27) < reask.next_due < before + timedelta(days=32)
    assert 'data-reask="monthly"' in response.text
    assert "will be asked again every month" in response.text

    response = ada_client.post(url, {"interval": "off"}, follow=True)
    assert not Reask.objects.exists()
    assert 'data-reask="off"' in response.text


def test_a_chinese_questions_schedule_form_and_message_are_chinese(finished, ada_client):
    run = finished(question="本地优先的笔记应用，选 Quillsync、Loamdb 还是 Tessera？")
    response = ada_client.post(
        reverse("web:schedule", args=[run.run_id]),
        {"interval": "weekly"},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "定期再问" in response.text
    assert "这个问题将每周再问一次" in response.text


def test_a_live_run_or_a_made_up_interval_is_not_scheduled(finished, ada_client):
    run = finished()
    url = reverse("web:schedule", args=[run.run_id])
    response = ada_client.post(url, {"interval": "hourly"}, follow=True)
    assert "is not one of weekly, monthly" in response.text
    run.status = Run.Status.RUNNING
    run.save()
    response = ada_client.post(url, {"interval": "weekly"}, follow=True)
    assert "still going" in response.text
    assert not Reask.objects.exists()


def test_someone_elses_run_cannot_be_scheduled(finished, bob_client):
    run = finished()
    response = bob_client.post(reverse("web:schedule", args=[run.run_id]), {"interval": "weekly"})
    assert response.status_code == 404
    assert not Reask.objects.exists()


def test_a_run_asked_on_a_schedule_says_so_and_links_to_the_first(finished, started, ada_client):
    run = finished()
    _scheduled(run, "weekly", MONDAY)
    [again] = services.start_due_reasks(MONDAY)

    page = ada_client.get(reverse("web:run", args=[again.run_id])).text

    assert f'data-again-of="{run.run_id}"' in page
    assert reverse("web:compare", args=[run.run_id, again.run_id]) in page
    assert "on a schedule, every week" in page
    first = ada_client.get(reverse("web:run", args=[run.run_id])).text
    assert "data-on-schedule" not in first and 'data-reask="weekly"' in first
