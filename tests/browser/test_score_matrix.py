"""The score matrix on a wide screen: opening a cell shows its workings in a row of their own,
and the cells around it keep their size."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot, sign_in
from tests.browser.sample_runs import finished_wide_run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"
SIZES = (
    "cells => cells.map(c => { const b = c.getBoundingClientRect(); return [b.width, b.height]; })"
)


@pytest.fixture
def report(page, live_server, django_user_model, tmp_path):
    ada = django_user_model.objects.create_user("ada", password=PASSWORD)
    run = finished_wide_run(ada, tmp_path)
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/runs/{run.run_id}/report/")
    return page


def sizes(row) -> list[list[float]]:
    return row.locator(":scope > td").evaluate_all(SIZES)


def test_an_open_cell_shows_its_workings_below_its_row_which_keeps_its_size(report):
    rows = report.locator("table.matrix > tbody > tr:not(.cell-detail)")  # the options
    first, second = rows.nth(0), rows.nth(1)
    before, below = sizes(first), sizes(second)
    cell = first.locator("td.cell").nth(1)
    cell.locator("summary").click()
    detail = report.locator("table.matrix > tbody > tr.cell-detail")
    detail.wait_for()

    # Every cell of the row, the open one too, keeps its width and height, and so does the
    # next option's row.
    assert sizes(first) == before
    assert sizes(second) == below
    assert detail.evaluate("row => row.previousElementSibling.querySelector('th').innerText") == (
        first.locator(":scope > th").inner_text()
    )
    workings = detail.locator(".cell-body")
    for part in ("Base", "Strength", "Consistency", "Timeliness"):
        assert workings.get_by_text(re.compile(part, re.I)).first.is_visible()
    title = cell.locator("summary .visually-hidden").inner_text().strip().rstrip(":")
    assert workings.locator(".cell-title").inner_text() == title
    assert cell.locator("summary").get_attribute("aria-controls") == workings.get_attribute("id")
    shot(report, "matrix-cell-open")


def test_one_cell_is_open_at_a_time_and_escape_closes_it(report):
    rows = report.locator("table.matrix > tbody > tr:not(.cell-detail)")  # the options
    option = rows.nth(2).locator(":scope > th").inner_text()
    first_cell = rows.nth(0).locator("td.cell").nth(0)
    other_cell = rows.nth(2).locator("td.cell").nth(3)  # another option, another dimension
    first_cell.locator("summary").click()
    other_cell.locator("summary").click()
    details = report.locator("table.matrix tr.cell-detail")
    expect(first_cell.locator("details")).not_to_have_attribute("open", "")
    expect(details).to_have_count(1)
    # The workings sit under the option they belong to.
    assert details.evaluate("row => row.previousElementSibling.querySelector('th').innerText") == (
        option
    )
    title = other_cell.locator("summary .visually-hidden").inner_text().strip().rstrip(":")
    assert details.locator(".cell-title").inner_text() == title

    report.keyboard.press("Escape")
    expect(details).to_have_count(0)
    expect(other_cell.locator("details")).not_to_have_attribute("open", "")
    assert other_cell.locator("summary").evaluate("s => s === document.activeElement")
    # Closed, the workings are back in their cell, and open there again.
    other_cell.locator("summary").click()
    assert report.locator("table.matrix tr.cell-detail .cell-title").inner_text() == title
