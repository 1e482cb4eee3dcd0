"""The run as a graph on a finished run's page: drawn, readable on a phone without the page
scrolling sideways, and its table of the same trails opens."""

from __future__ import annotations

import pytest

from tests.browser.checks import assert_no_sideways_scroll, serious_violations
from tests.browser.conftest import shot, sign_in
from tests.browser.sample_runs import finished_wide_run
from tests.runs import CORPUS_EN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


@pytest.fixture
def ada(settings, django_user_model):
    settings.SOURCES = [("notes", f"local:{CORPUS_EN}")]
    settings.DEFAULT_SOURCES = ["notes"]
    return django_user_model.objects.create_user("ada", password=PASSWORD)


def test_a_finished_run_shows_its_graph_on_a_phone(phone, live_server, ada, tmp_path):
    run = finished_wide_run(ada, tmp_path)
    sign_in(phone, live_server.url, "ada", PASSWORD)
    phone.wait_for_url(lambda url: "/accounts/login/" not in url)
    phone.goto(f"{live_server.url}/runs/{run.run_id}/")

    graph = phone.get_by_role("img", name="The trail of each option and dimension")
    graph.scroll_into_view_if_needed()
    assert graph.is_visible()
    trails = phone.locator("svg.trail-graph g.trail")
    assert trails.count() == 36  # six options by six dimensions
    assert trails.first.locator("text.end").text_content().strip()
    # The drawing scrolls inside its own box; the page itself never does.
    box = phone.locator("[data-plan-graph] .graph-box").first
    widths = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert widths[0] > widths[1]
    assert_no_sideways_scroll(phone, 390)
    shot(phone, "phone-run-graph", full_page=False)

    phone.get_by_text("The graph as a table").tap()
    rows = phone.locator("details.graph-table tbody tr")
    assert rows.count() == 36 and rows.first.is_visible()
    assert_no_sideways_scroll(phone, 390)
    assert serious_violations(phone) == []
