"""When no search engine can be reached from the server, the first screen says so in one
sentence with the reason; failed searches are one figure everywhere; and a run without
claims shows no score component it could not measure."""

from __future__ import annotations

import re
import socket

import pytest

from decisions.searches import failed_sentence
from research.artifacts import Candidates
from research.store import store_for
from tests.research.web.test_language import text_of
from tests.runs import run_question

pytestmark = pytest.mark.django_db

OFFLINE = "No search engine could be reached from this server: "
QUESTION = "For our notes app, choose between Quillsync and Loamdb"


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens: every search there is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def offline_run(ada, settings):
    spec = f"searxng:http://127.0.0.1:{closed_port()}"
    settings.SOURCES = {"web": spec}
    run, _ = run_question(QUESTION, [spec], dimensions=[("cost", 1), ("risk", 1)])
    run.owner = ada
    run.save(update_fields=["owner"])
    return run


def test_the_run_page_says_no_search_engine_could_be_reached_and_why(offline_run, ada_client):
    seen = text_of(ada_client.get(f"/runs/{offline_run.run_id}/"))
    assert seen.count(OFFLINE) == 1
    reason = seen.partition(OFFLINE)[2]
    assert "unreachable" in reason.lower() or "refused" in reason.lower()
    assert "found in the 0 pages read" not in seen


def test_the_reports_first_screen_says_it_in_one_sentence(offline_run, ada_client):
    report = store_for(offline_run.run_id).read_text("report.md")
    opening = report.split("## ")[0] + report.split("## ")[1]  # the warning and the summary
    assert OFFLINE in opening
    assert "found in the 0 pages read" not in report
    page = text_of(ada_client.get(f"/runs/{offline_run.run_id}/report/"))
    assert OFFLINE in page and "found in the 0 pages read" not in page


def test_failed_searches_are_one_figure_with_one_wording_everywhere(offline_run, ada_client):
    store = store_for(offline_run.run_id)
    made = len(store.read_model("round_1_candidates.json", Candidates).provider_calls)
    figure = f"{made} searches could not be made"
    report = store.read_text("report.md")
    run_page = text_of(ada_client.get(f"/runs/{offline_run.run_id}/"))
    report_page = text_of(ada_client.get(f"/runs/{offline_run.run_id}/report/"))
    assert figure in report and figure in report_page
    for said in (report, run_page, report_page):
        counts = {int(n) for n in re.findall(r"(\d+) (?:searches|search) could not", said)}
        counts |= {int(n) for n in re.findall(r"for (\d+) quer", said)}
        assert counts <= {made}, counts
        assert "searches or pages" not in said and "1 searches" not in said


def test_one_failed_search_is_one_search_in_either_language():
    assert failed_sentence(1, "en") == "1 search could not be made"
    assert failed_sentence(2, "en") == "2 searches could not be made"
    assert failed_sentence(1, "zh") == "1 次搜索无法进行"


def test_a_run_without_claims_shows_no_consistency_number(offline_run, ada_client):
    report = store_for(offline_run.run_id).read_text("report.md")
    assert "| Consistency | none: no claim to measure |" in report
    assert "| Consistency | 60.0 |" not in report
    page = text_of(ada_client.get(f"/runs/{offline_run.run_id}/report/"))
    assert "consistency none: no claim to measure" in page.lower()


def test_the_report_names_the_source_as_the_form_does_never_its_address(offline_run):
    report = store_for(offline_run.run_id).read_text("report.md")
    assert "Verdict searched web · web search (SearXNG)" in report
    assert "127.0.0.1" not in report


def test_some_failed_searches_are_the_same_figure_on_the_run_page_and_in_the_report(
    ada, ada_client, settings, notes_corpus
):
    down = f"searxng:http://127.0.0.1:{closed_port()}"
    settings.SOURCES = {"notes": f"local:{notes_corpus}", "web": down}
    run, store = run_question(
        "For our local-first notes app, choose between Quillsync, Loamdb and Tessera",
        [f"local:{notes_corpus}", down],
    )
    run.owner = ada
    run.save(update_fields=["owner"])
    calls = store.read_model("round_1_candidates.json", Candidates).provider_calls
    failed = sum(1 for c in calls if c.provider == down)
    assert 0 < failed < len(calls)
    figure = f"{failed} searches could not be made"
    run_page = text_of(ada_client.get(f"/runs/{run.run_id}/"))
    assert figure in run_page and OFFLINE not in run_page
    report = store.read_text("report.md")
    assert f"web · web search (SearXNG): {figure} (UNAVAILABLE" in report
    assert f"{failed} searches could not be made" in text_of(
        ada_client.get(f"/runs/{run.run_id}/report/")
    )
