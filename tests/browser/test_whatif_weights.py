"""What-if weights on the report page: a slider reorders the ranking in the browser alone,
and the new weights can be saved as a decision of their own."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, shot, sign_in
from tests.browser.sample_runs import finished_wide_run
from tests.research.web.report.whatif_node import node_rank

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


@pytest.fixture
def run(django_user_model, tmp_path):
    ada = django_user_model.objects.create_user("ada", password=PASSWORD)
    return finished_wide_run(ada, tmp_path)


def open_report(page, live_server, run):
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/runs/{run.run_id}/report/")
    expect(page.locator("#whatif [data-ranking-note]")).to_be_visible()


def a_reordering_move(page) -> tuple[int, list[str], list[str]]:
    """A slider (its index) that, pushed to 100, reorders the ranking: the order before and
    after, as the script computes it."""
    model = json.loads(page.locator("#whatif").get_attribute("data-model"))
    weights = [d["weight"] * 100 for d in model["dimensions"]]
    before = [r["option"] for r in node_rank(model, weights)]
    for index in range(len(weights)):
        moved = [100.0 if d == index else w for d, w in enumerate(weights)]
        after = [r["option"] for r in node_rank(model, moved)]
        if after != before:
            return index, before, after
    pytest.fail("no single slider reorders this run's ranking")


def shown_order(page) -> list[str]:
    return page.locator("ol.shares > li").evaluate_all("items => items.map(i => i.dataset.option)")


def test_a_slider_reorders_the_ranking_without_asking_the_server(page, live_server, run):
    open_report(page, live_server, run)
    index, before, after = a_reordering_move(page)
    assert shown_order(page) == before
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))

    page.locator("#whatif input[data-slider]").nth(index).fill("100")

    # "now leads" only when the leader changes; a swap below it says so instead.
    expect(page.locator("#whatif [data-ranking-note]")).to_contain_text(
        f"The ranking changed: {after[0]} now leads"
        if after[0] != before[0]
        else f"{before[0]} still leads; the order below it changed"
    )
    assert shown_order(page) == after
    assert page.locator("#whatif input[data-number]").nth(index).input_value() == "100"
    bars = page.locator(".chart-bar").evaluate_all(
        "bars => bars.map(b => "
        "[b.dataset.option, parseFloat(b.querySelector('rect, text').getAttribute('y'))])"
    )
    assert [name for name, _ in sorted(bars, key=lambda b: b[1])] == after
    assert asked == []
    shot(page, "whatif-reordered")

    page.get_by_role("button", name="Back to the run's weights").click()
    assert shown_order(page) == before
    expect(page.locator("#whatif [data-ranking-note]")).to_contain_text(
        "The ranking is the one decided"
    )


def test_saved_weights_become_a_decision_of_the_run_with_its_own_markdown(page, live_server, run):
    open_report(page, live_server, run)
    index, _, after = a_reordering_move(page)
    page.locator("#whatif input[data-number]").nth(index).fill("100")
    assert shown_order(page) == after

    page.get_by_role("button", name="Save as a new decision").click()

    page.wait_for_url(re.compile(rf"/runs/{run.run_id}/decisions/1/$"))
    expect(page.locator("[data-saved]")).to_contain_text("Decision 1 of this run")
    assert shown_order(page) == after  # the server decided what the browser showed
    with page.expect_download() as download:
        page.get_by_role("link", name="Download Markdown").click()
    assert download.value.suggested_filename.endswith("-1.md")
    page.goto(f"{live_server.url}/runs/{run.run_id}/report/")
    expect(page.locator('[data-saved-item="1"]')).to_be_visible()
    shot(page, "whatif-saved")


def test_the_weights_fit_a_phone(browser, live_server, run, request):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        open_report(page, live_server, run)
        panel = page.locator("#whatif")
        panel.scroll_into_view_if_needed()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        slider = page.locator("#whatif input[data-slider]").first.bounding_box()
        assert slider and slider["height"] >= 24 and slider["x"] >= 0
        shot(page, "whatif-phone")
    finally:
        context.close()
