"""axe-core finds no serious or critical accessibility problem on the pages a person uses,
on a desktop screen and on a phone."""

from __future__ import annotations

import re

import pytest

from tests.browser.checks import serious_violations
from tests.browser.conftest import sign_in
from tests.browser.sample_runs import LONG_URL, finished_wide_run, run_in_progress
from tests.runs import CORPUS_EN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


@pytest.fixture
def ada(settings, django_user_model):
    settings.SOURCES = [("notes", f"local:{CORPUS_EN}")]
    settings.DEFAULT_SOURCES = ["notes"]
    return django_user_model.objects.create_user("ada", password=PASSWORD)


@pytest.mark.parametrize("screen", ["page", "phone"], ids=["desktop", "phone"])
def test_no_page_has_a_serious_or_critical_accessibility_problem(
    screen, request, live_server, ada, tmp_path
):
    page = request.getfixturevalue(screen)
    base = live_server.url
    finished = finished_wide_run(ada, tmp_path)
    running = run_in_progress(ada)
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        page.wait_for_load_state()
        problems = serious_violations(page)
        if problems:
            found[name] = problems

    sign_in(page, base, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{base}/new/")
    check("question form")
    page.get_by_role("button", name="Start research").click()  # an empty question
    page.locator("#form-errors").wait_for()
    check("question form with its errors")

    page.goto(f"{base}/runs/{running.run_id}/")
    page.locator("li.stage.st-running").wait_for()
    check("run page, in progress")
    page.goto(f"{base}/runs/{finished.run_id}/")
    check("run page, finished")

    page.goto(f"{base}/runs/{finished.run_id}/report/")
    page.locator("table.matrix td.cell summary").nth(1).click()
    page.locator("table.matrix .cell-body:visible").wait_for()
    check("report, a score cell open")

    page.locator(".contradiction blockquote").filter(has_text=LONG_URL).locator("a.cite").click()
    page.wait_for_url(re.compile(r"/evidence/"))
    check("evidence viewer")

    page.goto(f"{base}/accounts/")
    page.get_by_role("textbox", name="New token").fill("laptop")
    page.get_by_role("button", name="Create token").click()
    page.locator("#new-token").wait_for()
    check("account page, a new token shown")

    assert not found, "\n".join(
        f"{name}:\n  " + "\n  ".join(problems) for name, problems in found.items()
    )
