"""A person's whole visit: sign in, ask, watch the stages run, read, check, export.

The question runs on a real Celery worker over a real Redis, against the fictional notes
corpus, while the browser watches the run page update itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from tests.browser.conftest import shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NOTES = Path(django_settings.BASE_DIR) / "tests" / "fixtures" / "corpus" / "notes_en"
QUESTION = (
    "For our team's local-first notes app, choose between Quillsync, Loamdb and Tessera, "
    "weighing licence risk, maintenance activity and customisation cost"
)
PASSWORD = "correct horse battery"


@pytest.fixture
def asker(settings, django_user_model, workers):
    settings.SOURCES = [("notes", f"local:{NOTES}")]
    settings.DEFAULT_SOURCES = []
    workers.start()
    return django_user_model.objects.create_user("ada", password=PASSWORD)


def ask(page, base: str) -> None:
    page.goto(f"{base}/new/")
    page.get_by_role("textbox", name="Question").fill(QUESTION)
    page.locator("input[name=preset][value=custom]").check()
    rows = page.locator("[data-custom-rows] input[name=dimension_name]")
    weights = page.locator("[data-custom-rows] input[name=dimension_weight]")
    for n, (name, weight) in enumerate(
        [("licence risk", "40"), ("maintenance activity", "35"), ("customisation cost", "25")]
    ):
        if rows.count() <= n:
            page.get_by_role("button", name=re.compile("add a dimension", re.I)).click()
        rows.nth(n).fill(name)
        weights.nth(n).fill(weight)
    # The rows start from the preset's; drop the ones this question does not weigh.
    while rows.count() > 3:
        page.locator("[data-custom-rows] [data-remove-row]").last.click()
    page.locator("input[name=sources][value=notes]").check()
    shot(page, "1-question-form")
    page.get_by_role("button", name="Start research").click()


def test_a_question_runs_live_in_the_browser_and_its_report_reads_checks_and_exports(
    page, live_server, asker, tmp_path
):
    sign_in(page, live_server.url, "ada", PASSWORD)
    ask(page, live_server.url)
    page.wait_for_url(re.compile(r"/runs/[0-9a-f]+/$"))
    run_url = page.url
    loads, polls = [], []
    page.on("load", lambda: loads.append(page.url))
    page.on("request", lambda r: polls.append(r.url) if "/progress/" in r.url else None)
    shot(page, "2-run-page-started")

    # The stages complete while the page updates itself: no reload, no navigation.
    page.get_by_role("link", name=re.compile("open the report", re.I)).wait_for(timeout=120_000)
    assert loads == [] and page.url == run_url
    assert polls, "the run page never asked for its progress"
    assert page.locator("li.stage.st-done").count() == 5
    shot(page, "3-run-page-done")

    page.get_by_role("link", name=re.compile("open the report", re.I)).click()
    page.wait_for_url(re.compile(r"/report/$"))
    assert page.get_by_text(
        re.compile(r"Quillsync|Loamdb|Tessera|No recommendation")
    ).first.is_visible()
    shot(page, "4-report")
    shot(page, "4-report-first-screen", full_page=False)

    # A score cell opens into its four components, shown in a row under its option's.
    cell = page.locator("details").filter(has_text=re.compile("Base", re.I)).first
    cell.locator("summary").click()
    workings = page.locator("table.matrix tr.cell-detail .cell-body")
    workings.wait_for()
    for part in ("Base", "Strength", "Consistency", "Timeliness"):
        assert workings.get_by_text(re.compile(part, re.I)).first.is_visible()
    shot(page, "5-report-cell-open")

    # Evidence opens in the viewer with the cited quote highlighted.
    workings.locator("a[href*='/evidence/']").first.click()
    page.wait_for_url(re.compile(r"/evidence/"))
    assert page.locator("mark").count() >= 1
    shot(page, "6-evidence-viewer")

    # Download Markdown from the report.
    page.go_back()
    with page.expect_download() as download_info:
        page.get_by_role("link", name=re.compile("download markdown", re.I)).click()
    download = download_info.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert saved.suffix == ".md"
    assert "# Decision report" in text
    # Links to stored extracts point at the evidence viewer, not at a relative file.
    assert not re.search(r"\]\(round_3_pages/", text)
    assert re.search(r"\]\(https?://[^)]+/evidence/", text)
