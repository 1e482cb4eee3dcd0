"""Correcting the reader in the browser: a claim marked not a claim changes its cell's score,
the cell says who corrected it, and undoing it brings the score back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from research.store import store_for
from tests.browser.conftest import shot, sign_in
from tests.browser.sample_runs import finished_wide_run
from tests.runs import a_claim_that_moves_its_cell

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


def open_cell(page, option: str, dimension: str):
    row = page.locator("table.matrix > tbody > tr", has=page.locator("th", has_text=option))
    cell = row.first.locator(f'td.cell[data-label="{dimension}"]')
    cell.locator("summary").first.click()
    return cell


def score_of(cell) -> str:
    return cell.locator("summary .score").inner_text().strip()


def test_a_correction_changes_a_cells_score_and_undo_brings_it_back(
    page, live_server, django_user_model, tmp_path
):
    ada = django_user_model.objects.create_user("ada", password=PASSWORD)
    run = finished_wide_run(ada, tmp_path)
    claim_id, target = a_claim_that_moves_its_cell(store_for(run.run_id))
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/runs/{run.run_id}/report/")

    cell = open_cell(page, target.option, target.dimension)
    assert score_of(cell) == f"{target.score:.1f}"
    workings = page.locator(".cell-body:visible").first
    item = workings.locator("ul.evidence > li", has=page.locator("code", has_text=claim_id))
    item.get_by_role("link", name="Misread?").click()
    page.wait_for_url(f"**/corrections/claims/{claim_id}/")
    page.get_by_label("What is wrong").select_option("not_a_claim")
    page.get_by_label("Note (optional)").fill("a table heading")
    shot(page, "correction-form")
    page.get_by_role("button", name="Correct and decide again").click()

    page.wait_for_url(f"**/runs/{run.run_id}/report/#matrix")
    cell = open_cell(page, target.option, target.dimension)
    changed = score_of(cell)
    assert changed != f"{target.score:.1f}"
    gone = page.locator(f'[data-corrected-away="{claim_id}"]:visible')
    expect(gone).to_contain_text("corrected by ada: not a claim")
    expect(gone).to_contain_text("a table heading")
    shot(page, "correction-made")

    gone.get_by_role("button", name="Undo").click()

    page.wait_for_url(f"**/runs/{run.run_id}/report/#matrix")
    cell = open_cell(page, target.option, target.dimension)
    assert score_of(cell) == f"{target.score:.1f}"
    assert page.locator(f'[data-corrected-away="{claim_id}"]').count() == 0
