"""Ask again in the browser: a finished run asked again, and the page that compares the two."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from research.models import Run
from research.runs import tasks
from tests.browser.conftest import shot, sign_in
from tests.browser.sample_runs import finished_wide_run
from tests.runs import drive

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


def test_a_run_asked_again_links_to_what_changed(
    page, live_server, django_user_model, tmp_path, monkeypatch
):
    queued: list[str] = []
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: queued.append(run_id))
    ada = django_user_model.objects.create_user("ada", password=PASSWORD)
    first = finished_wide_run(ada, tmp_path)
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/runs/{first.run_id}/")

    page.get_by_role("button", name="Ask again").click()

    page.wait_for_url(re.compile(r"/runs/(?!" + first.run_id + r")\w+/$"))
    again = Run.objects.exclude(pk=first.pk).get()
    assert queued == [again.run_id]
    expect(page.locator(f'[data-again-of="{first.run_id}"]')).to_be_visible()
    drive(again.run_id)  # what the workers would do

    page.get_by_role("link", name="What changed").click()

    page.wait_for_url(f"**/runs/{first.run_id}/compare/{again.run_id}/")
    expect(page.get_by_role("heading", name="What changed")).to_be_visible()
    expect(page.locator("[data-recommendation]")).to_contain_text("unchanged")
    assert page.locator("#totals tbody tr").count() == 6
    shot(page, "compare-runs")
