"""arXiv, Europe PMC, ClinicalTrials.gov, Wikipedia and Wikidata read the answers those
services really sent (../shared/api-recordings, see SOURCES.md there) and state the right
facts from them: papers, trials with their posted results, articles and items."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from research.outcomes import Outcome
from research.providers.primary import PrimaryProvider, PrimaryResult, Subject, build_primary
from research.providers.primary.wikidata import item_names
from tests.research.providers.primary.recordings import (
    ATOM,
    JSON,
    Asked,
    RecordedServices,
    Reply,
    file_route,
    needs_recordings,
    recording,
    wrapped_route,
)
from tests.research.providers.primary.world import NOW_EPOCH

pytestmark = needs_recordings

# --- what each request is answered with ---------------------------------------------------

ARXIV_IDS = {
    "2104.12255v1": "id_2104.12255v1_s0_m100_6ae69987ffe1.json",
    "1707.08567": "id_1707.08567_s0_m100_6a1afebfc6a3.json",
    "0808.05394,1707.08567": "id_0808.05394_1707.08567_s0_m100_42e5aa0ec3af.json",
    "0000.0000": "id_0000.0000_s0_m100_8b51d9633a68.json",
    "abc": "id_abc_s0_m100_b79c8dcf6bc3.json",  # refused with HTTP 400 and an error feed
}
ARXIV_SEARCHES = {"all:testing": "q_testing_s0_m10_bc5a6c384fe9.json"}


def arxiv_pick(asked: Asked) -> str | None:
    if asked.path != "/query":
        return None
    if asked.query.get("id_list"):
        return ARXIV_IDS.get(asked.query["id_list"])
    return ARXIV_SEARCHES.get(asked.query.get("search_query", ""))


# Europe PMC's recordings, by the words the provider searches for.
EUROPEPMC = {
    '"BRCA1" BRCT domain missense': "biomcp_search_pmid_20516115.json",
    '"ATM" c.7390T>C': "biomcp_variant_search.json",
    "asdkfjhasdkfjhasdfasdasdasdfgsagsd": "search_no_results.json",
    # Recorded as asked for `lite` (no journal details, no full-text links): served as
    # the answer Europe PMC gives when it leaves those out.
    "cancer": "search_cancer.json",
}

PHELAN_NEXT = "ZVt07cGHkvI2wRk2CJf6_LLq14bEL8swd7KrgP4dnDeTsPkw"


def europepmc(asked: Asked) -> Reply | None:
    name = EUROPEPMC.get(asked.query.get("query", "")) if asked.path == "/search" else None
    return (200, JSON, recording("europepmc", name)) if name else None


def clinicaltrials(asked: Asked) -> Reply | None:
    if asked.path != "/studies":
        return None
    if asked.query.get("query.intr") == "Keytruda":
        name = "biomcp_search_keytruda_limit3_20260811.json"
    elif asked.query.get("query.term") == "Phelan-McDermid Syndrome":
        token = asked.query.get("pageToken")
        name = "biomcp_search_phelan_next_20260811.json" if token == PHELAN_NEXT else ""
        name = name or ("biomcp_search_phelan_limit5_20260811.json" if not token else "")
    else:
        return None
    return (200, JSON, recording("clinicaltrials", name)) if name else None


CLINICALTRIALS = {
    "/studies/NCT06382129": "biomcp_get_nct06382129_20260811.json",
    "/studies/NCT03722472": "cyanheads_nct03722472_minimized.json",
}
WIKIPEDIA = {
    "/api/rest_v1/page/summary/Dart": "dartnotes_sum_Dart.json",
    "/api/rest_v1/page/summary/Dart_(programming_language)": (
        "dartnotes_sum_Dart_programming_language.json"
    ),
    "/api/rest_v1/page/summary/Flutter_(software)": "dartnotes_sum_Flutter_software.json",
    "/api/rest_v1/page/summary/Mercury": "ottershelf_sum_mercury.json",
    "/api/rest_v1/page/summary/Serendipity": "ottershelf_sum_serendipity.json",
    "/api/rest_v1/page/summary/Douglas_Adams": "wptools_rest_summary_Douglas_Adams.json",
}
WIKIDATA_ITEMS = {
    "Q42": "wptools_wbgetentities_Q42.json",
    "Q483718": "wptools_wbgetentities_Q483718.json",
}
WIKIDATA_NAMES = "wptools_wbgetentities_labels_1.json"


def wikidata(asked: Asked) -> Reply | None:
    if asked.path != "/w/api.php" or asked.query.get("action") != "wbgetentities":
        return None
    if asked.query.get("props") == "labels":
        return 200, JSON, recording("wikidata", WIKIDATA_NAMES)
    name = WIKIDATA_ITEMS.get(asked.query.get("ids", ""))
    return (200, JSON, recording("wikidata", name)) if name else None


# Which recording each test reads: the suite fails when a recording has none
# (test_every_recording_is_replayed).
REPLAYED = {
    "arxiv": {*ARXIV_IDS.values(), *ARXIV_SEARCHES.values()},
    "europepmc": set(EUROPEPMC.values()),
    "clinicaltrials": {
        "biomcp_search_keytruda_limit3_20260811.json",
        "biomcp_search_phelan_limit5_20260811.json",
        "biomcp_search_phelan_next_20260811.json",
        *CLINICALTRIALS.values(),
    },
    "wikipedia": set(WIKIPEDIA.values()),
    "wikidata": {*WIKIDATA_ITEMS.values(), WIKIDATA_NAMES},
}


@pytest.fixture(scope="module")
def recorded() -> Iterator[RecordedServices]:
    services = (
        RecordedServices()
        .route("arxiv", wrapped_route("arxiv", arxiv_pick, ATOM))
        .route("europepmc", europepmc)
        .route("clinicaltrials", clinicaltrials)
        .route("clinicaltrials", file_route("clinicaltrials", CLINICALTRIALS))
        .route("wikipedia-en", file_route("wikipedia", WIKIPEDIA))
        .route("wikidata", wikidata)
        .start()
    )
    yield services
    services.stop()


@pytest.fixture
def provider(recorded, settings, tmp_path) -> Iterator[Callable[[str], PrimaryProvider]]:
    settings.PRIMARY_URLS = recorded.urls()
    settings.PRIMARY_CACHE_DIR = tmp_path / "primary-cache"
    built: list[PrimaryProvider] = []

    def make(name: str) -> PrimaryProvider:
        made = build_primary(name, sleep=lambda _: None, clock=lambda: NOW_EPOCH, pace=0)
        built.append(made)
        return made

    recorded.asked.clear()
    yield make
    for made in built:
        made.close()


def quotes(result: PrimaryResult, attribute: str) -> list[str]:
    return [fact.quote for fact in result.facts_about(attribute)]


def lines(result: PrimaryResult, index: int = 0) -> list[str]:
    return result.records[index].text.splitlines()


# --- arXiv -----------------------------------------------------------------------------------


def test_arxiv_reads_a_paper_by_its_versioned_identifier(provider):
    result = provider("arxiv").lookup(Subject("BLS signatures", identifier="2104.12255v1"))

    assert result.outcome is Outcome.OK
    [record] = result.records
    assert record.url == "https://arxiv.org/abs/2104.12255v1"
    assert quotes(result, "paper") == ['arXiv:2104.12255v1 "0", first version 2021-04-20']
    assert [f.value for f in result.facts_about("open_access_full_text")] == [
        "https://arxiv.org/pdf/2104.12255v1"
    ]
    assert "- Authors: Quan Thoi Minh Nguyen" in lines(result)
    assert "- Primary category: cs.CR" in lines(result)
    assert "What is the funniest number in cryptography? 0." in record.text
    assert record.published == "2021-04-20"


def test_arxiv_reads_a_paper_without_its_version(provider):
    result = provider("arxiv").lookup(Subject("AEW10", identifier="arXiv:1707.08567"))

    [record] = result.records
    assert record.title == (
        "Proceedings of Workshop AEW10: Concepts in Information Theory and Communications "
        "(arXiv:1707.08567v1)"
    )
    assert record.published == "2017-07-27"


def test_arxiv_says_which_of_several_papers_it_does_not_have(provider):
    result = provider("arxiv").lookup(Subject("AEW10", identifier="0808.05394, 1707.08567"))

    assert result.outcome is Outcome.OK
    assert [record.url for record in result.records] == ["https://arxiv.org/abs/1707.08567v1"]
    assert [(gap.outcome, gap.detail) for gap in result.gaps] == [
        (Outcome.NO_HIT, "arXiv has no paper 0808.05394")
    ]


def test_arxiv_found_nothing_for_an_identifier_it_has_no_paper_for(provider):
    result = provider("arxiv").lookup(Subject("nothing", identifier="0000.0000"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == "arXiv found no papers for 0000.0000"


def test_arxivs_refusal_is_could_not_look_with_its_own_message(provider):
    result = provider("arxiv").lookup(Subject("x", identifier="arXiv:abc"))

    assert result.outcome is Outcome.UNAVAILABLE, "a refusal is not 'found nothing'"
    assert result.detail == "arXiv answered HTTP 400: incorrect id format for abc"
    assert result.records == []


def test_arxiv_search_reads_every_paper_of_the_page(provider):
    result = provider("arxiv").lookup(Subject("testing", limit=10))

    assert result.outcome is Outcome.OK
    assert len(result.records) == 10
    assert result.records[0].title == (
        "Testing Deep Learning Models: A First Comparative Study of Multiple Testing "
        "Techniques (arXiv:2202.12139v1)"
    )
    assert result.records[0].published == "2022-02-24"
    assert len(result.facts_about("open_access_full_text")) == 10


# --- Europe PMC ------------------------------------------------------------------------------


def test_europe_pmc_reads_a_paper_with_its_journal_date_and_identifiers(provider):
    result = provider("europepmc").lookup(Subject("BRCA1", query="BRCT domain missense", limit=1))

    [record] = result.records
    assert record.title == (
        "Comprehensive analysis of missense variations in the BRCT domain of BRCA1 by "
        "structural and functional assays"
    )
    assert record.url == "https://europepmc.org/article/MED/20516115"
    assert record.published == "2010-06-01"
    assert "- Journal: Cancer Res" in lines(result)
    assert (
        "- Identifiers: PMID 20516115, PMCID PMC3040717, DOI 10.1158/0008-5472.can-09-4563"
        in lines(result)
    )
    # In Europe PMC, not open access: free to read.
    assert [f.value for f in result.facts_about("free_full_text")] == [
        "https://europepmc.org/article/PMC/PMC3040717"
    ]
    assert result.facts_about("open_access_full_text") == []


def test_europe_pmc_keeps_a_word_whole_around_its_markup(provider):
    result = provider("europepmc").lookup(Subject("ATM", query="c.7390T>C", limit=25))

    assert len(result.records) == 5
    assert result.records[0].title == (
        "Rare Germline Variants in DNA Repair Genes Detected in BRCA-Negative Finnish "
        "Patients with Early-Onset Breast Cancer"
    )
    assert result.facts_about("open_access_full_text")[0].value == (
        "https://europepmc.org/article/PMC/PMC11393874"
    )


def test_europe_pmc_found_nothing_is_no_hit(provider):
    result = provider("europepmc").lookup(Subject("", query="asdkfjhasdkfjhasdfasdasdasdfgsagsd"))

    assert result.outcome is Outcome.NO_HIT
    assert result.detail == "Europe PMC found nothing for asdkfjhasdkfjhasdfasdasdasdfgsagsd"


def test_europe_pmc_reads_the_lite_answer_too(provider):
    result = provider("europepmc").lookup(Subject("", query="cancer", limit=25))

    assert len(result.records) == 25
    first = result.records[0]
    assert first.title == (
        "Abscopal response in a patient with fibrolamellar hepatocellular carcinoma "
        "following radiotherapy"
    )
    assert "- Journal: Lancet" in lines(result)
    assert first.published == "2025-12-01"
    free = {f.record_url: f.value for f in result.facts_about("free_full_text")}
    assert free["https://europepmc.org/article/MED/39709208"] == (
        "https://europepmc.org/article/PMC/PMC12124214"
    )


# --- ClinicalTrials.gov ----------------------------------------------------------------------


def test_clinicaltrials_reads_the_studies_of_a_drug(provider, recorded):
    result = provider("clinicaltrials").lookup(Subject("Keytruda", limit=3))

    assert result.outcome is Outcome.OK
    assert [record.url.rsplit("/", 1)[-1] for record in result.records] == [
        "NCT05431270",
        "NCT03590054",
        "NCT04795661",
    ]
    assert quotes(result, "trial_status")[0] == (
        "Status of NCT05431270: recruiting; started 2022-08-11; completion 2028-08"
    )
    assert quotes(result, "trial_sponsor")[0] == "Lead sponsor of NCT05431270: Phanes Therapeutics"
    assert quotes(result, "trial_design")[0] == (
        "Design of NCT05431270: interventional, Phase 1, Phase 2, 40 participants"
    )
    assert "Pembrolizumab + Carboplatin + Pemetrexed" in quotes(result, "trial_interventions")[0]
    assert len(recorded.asked) == 1, "three studies were asked for and came in one page"


def test_clinicaltrials_follows_the_recorded_next_page(provider, recorded):
    result = provider("clinicaltrials").lookup(
        Subject("", query="Phelan-McDermid Syndrome", limit=10)
    )

    assert len(result.records) == 10
    assert [asked.query.get("pageToken") for asked in recorded.asked] == [None, PHELAN_NEXT]
    assert result.records[5].title.startswith("NCT05187377: A Controlled Trial of Growth Hormone")
    assert "- Ages eligible for NCT02710084: 5 Years to 17 Years" in lines(result)


def test_clinicaltrials_reads_one_study_with_its_drugs_other_names(provider):
    result = provider("clinicaltrials").lookup(Subject("BL-B01D1", identifier="NCT06382129"))

    assert quotes(result, "trial_interventions") == [
        "Interventions of NCT06382129: BL-B01D1 (also iza-bren, izalontamab brengitecan, "
        "BMS-986507); Docetaxel"
    ]
    assert quotes(result, "trial_design") == [
        "Design of NCT06382129: interventional, Phase 3, 698 participants"
    ]
    assert result.facts_about("trial_status")[0].value == "active not recruiting"
    assert [gap.detail for gap in result.gaps] == ["no results posted for NCT06382129"]
    assert "after failure of anti-PD-1/PD-L1 monoclonal antibodies" in result.records[0].text


def test_clinicaltrials_states_the_posted_results_of_a_completed_trial(provider):
    result = provider("clinicaltrials").lookup(Subject("ID93 + GLA-SE", identifier="NCT03722472"))

    record = result.records[0]
    assert (record.published, record.updated) == ("2018-10-29", "2023-06-01")
    results = result.facts_about("trial_primary_result")
    assert [fact.value for fact in results] == [
        "Local Injection Site Reactogenicity",
        "Systemic Reactogenicity",
        "All Adverse Events",
        "Serious Adverse Events",
    ]
    assert results[0].quote == (
        "Primary outcome result of NCT03722472: Local Injection Site Reactogenicity (7 days "
        "following each injection): Single-vial Presentation ID93 + GLA-SE 22 participants; "
        "Two-vial Presentation ID93 + GLA-SE 21 participants"
    )
    assert {fact.event_date for fact in results} == {"2023-06-01"}
    assert quotes(result, "trial_design") == [
        "Design of NCT03722472: interventional, Phase 1, randomized, parallel assignment, "
        "quadruple masking, 48 participants (actual)"
    ]
    # Counts per group with no analysis between them: no effect is claimed.
    assert result.facts_about("trial_effect") == []
    assert result.facts_about("trial_p_value") == []


# --- Wikipedia -------------------------------------------------------------------------------


def test_wikipedia_reaches_the_language_past_the_disambiguation_page(provider, recorded):
    result = provider("wikipedia").lookup(Subject("Dart"))

    assert result.outcome is Outcome.OK
    article = result.records[0]
    assert article.url == "https://en.wikipedia.org/wiki/Dart_(programming_language)"
    assert article.updated == "2026-03-28"
    assert "- Description: Programming language" in article.text.splitlines()
    assert "designed by Lars Bak and Kasper Lund and developed by Google" in article.text
    assert all("may refer to" not in record.text for record in result.records)
    items = [asked.query.get("ids") for asked in recorded.asked if asked.service == "wikidata"]
    assert items == ["Q406009"], "the language's item, not the disambiguation page's"


def test_wikipedia_takes_no_meaning_of_mercury_for_the_product(provider):
    result = provider("wikipedia").lookup(Subject("Mercury"))

    assert result.outcome is Outcome.NO_HIT
    assert result.records == []
    assert result.detail.startswith(
        "'Mercury' names several things on en Wikipedia (a disambiguation page); "
        "'Mercury (software)' is not an article there; "
        "'Mercury (programming language)' is not an article there"
    )


def test_wikipedia_reads_an_article_by_its_exact_title(provider):
    result = provider("wikipedia").lookup(Subject("Flutter", identifier="Flutter (software)"))

    article = result.records[0]
    assert article.title == "Flutter (software) (en Wikipedia)"
    assert article.updated == "2026-04-05"
    assert "Flutter is an open-source UI software development kit created by Google" in (
        article.text
    )


def test_wikipedia_takes_a_words_own_article_as_it_is(provider):
    result = provider("wikipedia").lookup(Subject("Serendipity"))

    assert result.outcome is Outcome.OK
    assert result.records[0].url == "https://en.wikipedia.org/wiki/Serendipity"
    assert result.records[0].updated == "2026-09-13"


def test_wikipedia_reads_the_older_summary_without_its_links(provider):
    result = provider("wikipedia").lookup(Subject("Douglas Adams"))

    [article] = result.records
    assert article.url == "https://en.wikipedia.org/wiki/Douglas_Adams"
    assert article.title == "Douglas Adams (en Wikipedia)"
    assert article.updated == "2017-08-03"
    assert "- Description: English writer and humorist" in article.text.splitlines()


# --- Wikidata --------------------------------------------------------------------------------


def test_wikidata_reads_an_item_and_its_articles_through_the_sitelinks(provider):
    result = provider("wikipedia").lookup(Subject("Douglas Adams", identifier="Q42"))

    assert result.outcome is Outcome.OK
    item, article = result.records
    assert item.url == "https://www.wikidata.org/wiki/Q42"
    assert item.title == "Douglas Adams (Q42) on Wikidata"
    assert item.updated == "2017-11-18", "dated by the item's last edit"
    assert "- Official website (Wikidata P856): http://www.douglasadams.com/" in (
        item.text.splitlines()
    )
    assert article.url == "https://en.wikipedia.org/wiki/Douglas_Adams"
    assert ("latest_release", Outcome.NO_HIT) in [(g.attribute, g.outcome) for g in result.gaps]
    assert ("summary_zh", Outcome.NO_HIT) in [(g.attribute, g.outcome) for g in result.gaps]


def test_wikidata_reads_a_statement_of_no_value_as_not_ended(provider):
    result = provider("wikipedia").lookup(Subject("Foo Fighters", identifier="Q483718"))

    [item] = result.records
    assert item.updated == "2017-12-17"
    assert "- Foo Fighters not dissolved or discontinued: Wikidata P576 states no value" in (
        item.text.splitlines()
    )
    assert result.facts_about("discontinued") == []


def test_wikidata_names_items_by_their_labels_and_keeps_unknown_ids(provider):
    wikipedia = provider("wikipedia")

    with wikipedia._call() as call:
        names, gaps = item_names(wikipedia, ["Q145", "Q1860", "Q7066", "Q99999999"], call)

    assert names == {
        "Q145": "United Kingdom",
        "Q1860": "English",
        "Q7066": "atheism",
        "Q99999999": "Q99999999",
    }
    assert gaps == []
