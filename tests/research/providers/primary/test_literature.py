"""Papers: arXiv (Atom) and Europe PMC (JSON, paged by cursor), abstracts and open access."""

from __future__ import annotations

from research.outcomes import Outcome
from research.providers.primary import Subject
from research.providers.primary.arxiv import search_query
from tests.research.providers.primary.fakeservices import FakeServices

# --- arXiv --------------------------------------------------------------------------------------


def test_arxiv_searches_the_option_and_the_questions_words(primary, services: FakeServices) -> None:
    result = primary("arxiv").lookup(Subject("XGBoost", query="LightGBM benchmark", limit=3))

    assert result.outcome is Outcome.OK
    asked = services.asked("arxiv")[0]
    assert asked.query["search_query"] == "all:XGBoost AND all:LightGBM AND all:benchmark"
    assert asked.query["max_results"] == "3"
    assert [record.url for record in result.records] == ["http://arxiv.org/abs/2409.01234v2"]


def test_an_arxiv_paper_is_stored_with_its_abstract_dates_and_open_pdf(
    primary, services: FakeServices
) -> None:
    result = primary("arxiv").lookup(Subject("XGBoost", query="LightGBM"))

    record = result.records[0]
    assert "We benchmark gradient boosting libraries on 40 tabular datasets." in record.text
    assert "Gradient Boosting at Scale: A Benchmark of LightGBM and XGBoost" in record.title
    assert (record.published, record.updated) == ("2024-09-02", "2025-01-15")
    paper, pdf = result.facts
    assert paper.attribute == "paper" and paper.event_date == "2024-09-02"
    assert paper.source_kind == "primary"
    assert (pdf.attribute, pdf.value) == (
        "open_access_full_text",
        "http://arxiv.org/pdf/2409.01234v2",
    )


def test_arxiv_reads_a_paper_by_its_identifier(primary, services: FakeServices) -> None:
    result = primary("arxiv").lookup(Subject("CatBoost", identifier="arXiv:2301.00002"))

    assert services.asked("arxiv")[0].query == {"id_list": "2301.00002"}
    assert "Journal reference: J. Mach. Learn. Res. 24 (2023) 1-30" in result.records[0].text


def test_arxivs_error_feed_is_a_refusal_with_its_reason(primary, services: FakeServices) -> None:
    result = primary("arxiv").lookup(Subject("x", identifier="1234.12345"))

    assert result.outcome is Outcome.UNAVAILABLE
    assert "incorrect id format for 1234.12345" in result.detail
    assert result.records == []


def test_arxiv_finding_nothing_is_no_hit(primary, services: FakeServices) -> None:
    result = primary("arxiv").lookup(Subject("Quillnote", query="offline sync"))

    assert result.outcome is Outcome.NO_HIT
    assert "all:Quillnote AND all:offline AND all:sync" in result.detail


def test_arxiv_queries_keep_a_multiword_option_as_one_phrase() -> None:
    assert search_query("gradient boosting", "Benchmark boosting") == (
        'all:"gradient boosting" AND all:Benchmark'
    )
    assert search_query("", "") == ""


# --- Europe PMC ---------------------------------------------------------------------------------


def test_europe_pmc_pages_by_cursor_until_it_has_enough(primary, services: FakeServices) -> None:
    provider = primary("europepmc")
    provider.page_size = 1

    result = provider.lookup(Subject("semaglutide", query="cardiovascular", limit=2))

    assert result.outcome is Outcome.OK
    cursors = [asked.query["cursorMark"] for asked in services.asked("europepmc")]
    assert len(cursors) == 2 and cursors[0] == "*" and cursors[1] != "*"
    assert [record.url for record in result.records] == [
        "https://europepmc.org/article/MED/27633186",
        "https://europepmc.org/article/MED/31189511",
    ]


def test_europe_pmc_stops_when_the_cursor_stops_moving(primary, services: FakeServices) -> None:
    provider = primary("europepmc")
    provider.page_size = 2

    result = provider.lookup(Subject("semaglutide", limit=10))

    assert len(result.records) == 3
    assert len(services.asked("europepmc")) == 2
    assert services.asked("europepmc")[0].query["resultType"] == "core"


def test_a_europe_pmc_paper_keeps_its_abstract_without_markup(
    primary, services: FakeServices
) -> None:
    result = primary("europepmc").lookup(Subject("semaglutide", query="cardiovascular"))

    text = result.records[0].text
    assert "(hazard ratio, 0.74; 95% CI, 0.58 to 0.95)" in text
    assert "<i>" not in text and "<h4>" not in text
    paper = result.facts_about("paper")[0]
    assert paper.event_date == "2016-09-15"
    assert "(The New England journal of medicine), first published 2016-09-15" in paper.quote


def test_europe_pmc_links_open_access_full_text_only_where_there_is_one(
    primary, services: FakeServices
) -> None:
    result = primary("europepmc").lookup(Subject("semaglutide", query="cardiovascular"))

    links = {fact.record_url: fact.value for fact in result.facts_about("open_access_full_text")}
    assert links == {
        "https://europepmc.org/article/MED/31189511": "https://europepmc.org/articles/PMC6706144"
    }, "Europe PMC's own HTML first; the subscription-only paper gets no link"


def test_europe_pmc_finding_nothing_is_no_hit(primary, services: FakeServices) -> None:
    result = primary("europepmc").lookup(Subject("quillnotamab"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == 'Europe PMC found nothing for "quillnotamab"'


def test_a_failed_later_page_keeps_the_papers_and_says_what_is_missing(
    primary, services: FakeServices
) -> None:
    provider = primary("europepmc")
    provider.page_size = 1
    services.modes["europepmc"] = "fails-after-first"

    result = provider.lookup(Subject("semaglutide", limit=3))

    assert result.outcome is Outcome.OK
    assert len(result.records) == 1
    [gap] = result.gaps
    assert (gap.attribute, gap.outcome) == ("papers", Outcome.UNAVAILABLE)
    assert gap.detail.startswith("the next page of results: could not look")


def test_a_request_that_fails_once_is_tried_again(primary, services: FakeServices) -> None:
    services.modes["europepmc"] = "flaky"

    result = primary("europepmc").lookup(Subject("semaglutide", limit=2))

    assert result.outcome is Outcome.OK
    assert len(services.asked("europepmc")) == 2
