"""On a phone (390 CSS pixels wide, touch): every page fits the screen without scrolling
sideways, and its controls can be seen and tapped."""

from __future__ import annotations

import re

import pytest

from tests.browser.checks import assert_no_sideways_scroll, within_screen
from tests.browser.conftest import shot, sign_in
from tests.browser.sample_runs import LONG_URL, finished_wide_run, run_in_progress
from tests.research.web.conftest import started  # noqa: F401  (used by name)
from tests.runs import CORPUS_EN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 390
PASSWORD = "correct horse battery"


@pytest.fixture
def ada(settings, django_user_model):
    settings.SOURCES = [("notes", f"local:{CORPUS_EN}")]
    settings.DEFAULT_SOURCES = ["notes"]
    return django_user_model.objects.create_user("ada", password=PASSWORD)


def signed_in(phone, live_server, path: str = "/") -> None:
    sign_in(phone, live_server.url, "ada", PASSWORD)
    phone.wait_for_url(lambda url: "/accounts/login/" not in url)
    if path != "/":
        phone.goto(live_server.url + path)


def cell_heights(row) -> list[float]:
    return row.locator("td.cell").evaluate_all(
        "cells => cells.map(c => c.getBoundingClientRect().height)"
    )


@pytest.mark.usefixtures("started")
def test_the_question_form_fits_a_phone_and_starts_a_run(phone, live_server, ada):
    signed_in(phone, live_server, "/new/")
    assert_no_sideways_scroll(phone, WIDTH)
    question = phone.get_by_role("textbox", name="Question")
    assert within_screen(phone, question)
    question.tap()
    asked = "Which sync engine for our notes app: Quillsync, Loamdb or Tessera?"
    question.fill(asked)
    counter = phone.locator("#question-count")
    assert within_screen(phone, counter) and counter.inner_text().startswith(f"{len(asked)} ")

    # Own dimensions: the rows fit, and a row can be added and removed by touch.
    phone.locator("label.choice").filter(has_text="My own dimensions").tap()
    rows = phone.locator("[data-custom-rows] [data-row]")
    before = rows.count()
    phone.get_by_role("button", name=re.compile("add a dimension", re.I)).tap()
    assert rows.count() == before + 1
    assert all(within_screen(phone, rows.nth(n)) for n in range(rows.count()))
    phone.locator("[data-custom-rows] [data-remove-row]").last.tap()
    assert rows.count() == before
    phone.locator("label.choice").first.tap()  # back to the first preset
    assert_no_sideways_scroll(phone, WIDTH)
    shot(phone, "phone-1-question-form")

    start = phone.get_by_role("button", name="Start research")
    start.scroll_into_view_if_needed()
    assert within_screen(phone, start)
    start.tap()
    phone.wait_for_url(re.compile(r"/runs/[0-9a-f]+/$"))
    assert phone.get_by_role("heading", name=re.compile("Which sync engine")).is_visible()
    assert_no_sideways_scroll(phone, WIDTH)


# Its stages poll while it scrolls: on a busy machine a refresh can replace the button.
@pytest.mark.serial
def test_a_run_in_progress_fits_a_phone_with_its_stages_and_cancel_button(phone, live_server, ada):
    # A question with a long bare link in it, as people paste them.
    run = run_in_progress(ada, f"Should we keep Loamdb after {LONG_URL} or move to Quillsync?")
    signed_in(phone, live_server, f"/runs/{run.run_id}/")
    phone.locator("li.stage.st-running").wait_for()
    assert_no_sideways_scroll(phone, WIDTH)
    assert phone.locator("li.stage.st-done").count() == 2
    for stage in phone.locator("li.stage").all():
        assert within_screen(phone, stage)
    cancel = phone.get_by_role("button", name="Cancel run")
    cancel.scroll_into_view_if_needed()
    assert within_screen(phone, cancel)
    shot(phone, "phone-2-run-in-progress")


def test_a_finished_run_fits_a_phone_and_its_report_opens_by_touch(
    phone, live_server, ada, tmp_path
):
    run = finished_wide_run(ada, tmp_path)
    signed_in(phone, live_server, f"/runs/{run.run_id}/")
    assert_no_sideways_scroll(phone, WIDTH)
    open_report = phone.get_by_role("link", name=re.compile("open the report", re.I))
    assert within_screen(phone, open_report)
    shot(phone, "phone-3-run-finished")
    open_report.tap()
    phone.wait_for_url(re.compile(r"/report/$"))
    assert_no_sideways_scroll(phone, WIDTH)


def test_the_report_fits_a_phone_with_a_long_link_in_a_quote_and_a_wide_matrix(
    phone, live_server, ada, tmp_path
):
    run = finished_wide_run(ada, tmp_path)
    signed_in(phone, live_server, f"/runs/{run.run_id}/report/")
    assert_no_sideways_scroll(phone, WIDTH)

    # The contradiction quoting the long link shows it whole, wrapped inside its side.
    quote = phone.locator(".contradiction blockquote").filter(has_text=LONG_URL)
    assert quote.count() == 1, "the contradiction no longer quotes the long link"
    assert within_screen(phone, quote)

    # The chart is drawn whole at the screen's width, not cut off inside a scroller.
    chart = phone.locator("#totals svg.chart")
    assert within_screen(phone, chart)
    assert phone.locator("#totals").evaluate("e => e.scrollWidth <= e.clientWidth")
    assert phone.locator("#totals .tick").filter(has_text="100").is_visible()
    assert within_screen(phone, phone.locator("#totals .tick").filter(has_text="100"))

    # All six options and their six dimensions are there; a cell opens in place by touch
    # and the other cells of its option keep their size.
    rows = phone.locator("table.matrix > tbody > tr")
    assert rows.count() == 6
    first = rows.first
    assert first.locator("td.cell").count() == 6
    before = cell_heights(first)
    first.locator("td.cell summary").nth(1).tap()
    workings = first.locator("td.cell").nth(1).locator(".cell-body")
    assert within_screen(phone, workings)
    after = cell_heights(first)
    assert after[0] == before[0] and after[2:] == before[2:]
    assert_no_sideways_scroll(phone, WIDTH)
    shot(phone, "phone-4-report")

    download = phone.get_by_role("link", name=re.compile("download markdown", re.I))
    download.scroll_into_view_if_needed()
    assert within_screen(phone, download)


def test_the_evidence_viewer_fits_a_phone_with_the_long_link_highlighted(
    phone, live_server, ada, tmp_path
):
    run = finished_wide_run(ada, tmp_path)
    signed_in(phone, live_server, f"/runs/{run.run_id}/report/")
    phone.locator(".contradiction blockquote").filter(has_text=LONG_URL).locator("a.cite").tap()
    phone.wait_for_url(re.compile(r"/evidence/"))
    assert_no_sideways_scroll(phone, WIDTH)
    highlight = phone.locator("mark.q").filter(has_text=LONG_URL).first
    assert within_screen(phone, highlight)
    cited = phone.locator(".cited-list li").filter(has_text=LONG_URL)
    assert within_screen(phone, cited)
    shot(phone, "phone-5-evidence-viewer")
    back = phone.get_by_role("link", name=re.compile("back to the report", re.I))
    back.scroll_into_view_if_needed()
    back.tap()
    phone.wait_for_url(re.compile(r"/report/$"))


def test_the_account_page_is_one_tap_away_on_a_phone_and_makes_a_token(phone, live_server, ada):
    signed_in(phone, live_server, "/new/")
    account = phone.locator("header.site").get_by_role("link", name="ada")
    assert within_screen(phone, account)
    account.tap()
    phone.wait_for_url(re.compile(r"/accounts/$"))
    assert_no_sideways_scroll(phone, WIDTH)
    assert within_screen(phone, phone.get_by_role("link", name="Change password"))

    label = phone.get_by_role("textbox", name="New token")
    label.tap()
    label.fill("phone")
    phone.get_by_role("button", name="Create token").tap()
    secret = phone.locator("#new-token")
    secret.wait_for()
    assert within_screen(phone, secret) and secret.input_value().startswith("vdt_")
    secret.tap()  # one tap selects the whole token, ready to copy
    selected = secret.evaluate("f => f.value.slice(f.selectionStart, f.selectionEnd)")
    assert selected == secret.input_value()
    assert within_screen(phone, phone.locator(".client-config pre").first)
    revoke = phone.get_by_role("button", name="Revoke phone")
    revoke.scroll_into_view_if_needed()
    assert within_screen(phone, revoke)
    assert_no_sideways_scroll(phone, WIDTH)
    shot(phone, "phone-6-account")

    phone.get_by_role("link", name="Change password").tap()
    phone.wait_for_url(re.compile(r"/accounts/password/$"))
    assert_no_sideways_scroll(phone, WIDTH)
    assert within_screen(phone, phone.get_by_role("button", name=re.compile("change", re.I)))
