"""Wikipedia summaries in English and Chinese, and the Wikidata item's typed statements."""

from __future__ import annotations

from research.outcomes import Outcome
from research.providers.primary import PrimaryResult, Subject
from research.providers.primary.wikidata import wikidata_time
from tests.research.providers.primary.fakeservices import FakeServices


def facts(result: PrimaryResult) -> dict[str, str]:
    return {fact.attribute: fact.value for fact in result.facts}


def test_the_summary_leads_to_the_item_and_the_item_to_the_chinese_article(
    primary, services: FakeServices
) -> None:
    result = primary("wikipedia").lookup(Subject("Vue.js"))

    assert result.outcome is Outcome.OK
    assert [record.url for record in result.records] == [
        "https://en.wikipedia.org/wiki/Vue.js",
        "https://www.wikidata.org/wiki/Q24589705",
        "https://zh.wikipedia.org/wiki/Vue.js",
    ]
    assert "Vue.js是一个用于创建用户界面的开源MVVM前端JavaScript框架" in result.records[2].text
    assert result.records[0].updated == "2026-10-30"


def test_wikidata_gives_developer_licence_inception_and_latest_version(
    primary, services: FakeServices
) -> None:
    result = primary("wikipedia").lookup(Subject("Vue.js"))

    assert facts(result) == {
        "developer": "Evan You",
        "licence": "MIT License",
        "inception": "2014-02",
        "latest_release": "3.5.13",
    }
    latest = result.facts_about("latest_release")[0]
    assert latest.quote == "Latest version of Vue.js (Wikidata P348): 3.5.13, published 2024-11-15"
    assert latest.event_date == "2024-11-15"
    assert latest.record_url == "https://www.wikidata.org/wiki/Q24589705"


def test_a_deprecated_version_is_never_the_latest_and_preferred_wins(
    primary, services: FakeServices
) -> None:
    result = primary("wikipedia").lookup(Subject("Vue.js"))

    assert "3.6.0-alpha.1" not in result.records[1].text
    assert facts(result)["latest_release"] == "3.5.13", "preferred over a later normal one"


def test_without_a_preferred_version_the_one_published_last_is_latest(
    primary, services: FakeServices
) -> None:
    result = primary("wikipedia").lookup(Subject("Flask", identifier="Flask (web framework)"))

    assert facts(result)["latest_release"] == "3.1.2"
    assert facts(result)["licence"] == "BSD licenses"
    assert facts(result)["inception"] == "2010-04-01"


def test_a_name_kept_only_as_a_multilingual_label_is_still_named(
    primary, services: FakeServices
) -> None:
    result = primary("wikipedia").lookup(Subject("Flask", identifier="Flask (web framework)"))

    assert facts(result)["developer"] == "Armin Ronacher"
    assert "mul" in services.asked("wikidata")[-1].query["languages"].split("|")


def test_the_wikidata_record_is_dated_by_the_items_last_edit(
    primary, services: FakeServices
) -> None:
    result = primary("wikipedia").lookup(Subject("Vue.js"))

    item = result.records[1]
    assert item.url == "https://www.wikidata.org/wiki/Q24589705"
    assert item.updated == "2026-10-01"
    assert "- Wikidata item last edited: 2026-10-01" in item.text


def test_a_name_that_is_also_a_common_word_reaches_its_software_through_wikidata(
    primary, services: FakeServices
) -> None:
    result = primary("wikipedia").lookup(Subject("Flask"))

    assert result.outcome is Outcome.OK
    assert [record.url for record in result.records] == [
        "https://www.wikidata.org/wiki/Q289281",
        "https://en.wikipedia.org/wiki/Flask_(web_framework)",
    ]
    summaries = [r.path.rsplit("/", 1)[-1] for r in services.asked("wikipedia-en")]
    assert summaries[:3] == ["Flask", "Flask_(software)", "Flask_(programming_language)"]
    # Wikidata's search finds the laboratory flask first; only the software is taken.
    assert "laboratory" not in " ".join(record.text for record in result.records)


def test_a_disambiguation_page_is_never_taken_for_the_article(
    primary, services: FakeServices
) -> None:
    services.path_modes[("wikidata", "/w/api.php")] = "error"

    result = primary("wikipedia").lookup(Subject("Flask"))

    assert result.outcome is Outcome.NO_HIT
    assert result.records == []
    assert result.detail.startswith(
        "'Flask' names several things on en Wikipedia (a disambiguation page); "
        "'Flask (software)' is not an article there; "
        "'Flask (programming language)' is not an article there; "
        "Wikidata's search could not be asked"
    )
    assert result.detail.endswith("give the article's exact title or its Wikidata id")


def test_a_chinese_failure_does_not_outrank_the_english_answer(
    primary, services: FakeServices
) -> None:
    services.modes["wikipedia-zh"] = "error"

    result = primary("wikipedia").lookup(Subject("Nonesuch"))

    assert result.outcome is Outcome.NO_HIT, "English Wikipedia looked and found nothing"
    assert result.detail.startswith("en Wikipedia has no such record")
    assert "besides, zh Wikipedia answered HTTP 500" in result.detail


def test_a_redirecting_title_is_followed_to_its_article(primary, services: FakeServices) -> None:
    result = primary("wikipedia").lookup(Subject("VueJS"))

    assert result.outcome is Outcome.OK
    assert result.records[0].title == "Vue.js (en Wikipedia)"


def test_a_wikidata_id_is_read_directly_and_its_articles_through_its_sitelinks(
    primary, services: FakeServices
) -> None:
    result = primary("wikipedia").lookup(Subject("Vue", identifier="Q24589705"))

    assert [record.url for record in result.records] == [
        "https://www.wikidata.org/wiki/Q24589705",
        "https://en.wikipedia.org/wiki/Vue.js",
        "https://zh.wikipedia.org/wiki/Vue.js",
    ]


def test_a_chinese_name_is_looked_up_in_chinese_first(primary, services: FakeServices) -> None:
    result = primary("wikipedia").lookup(Subject("河图引擎"))

    assert result.outcome is Outcome.NO_HIT
    asked = [request.service for request in services.requests]
    assert asked == ["wikipedia-zh", "wikipedia-en"]


def test_the_article_missing_under_one_title_is_found_under_the_items_own(
    primary, services: FakeServices
) -> None:
    # English Wikipedia has no "Weixin"; Chinese redirects it to 微信, whose item names
    # the English article: WeChat.
    result = primary("wikipedia").lookup(Subject("Weixin"))

    assert [record.url for record in result.records] == [
        "https://zh.wikipedia.org/wiki/微信",
        "https://www.wikidata.org/wiki/Q283233",
        "https://en.wikipedia.org/wiki/WeChat",
    ]
    summaries = [r for r in services.requests if r.service.startswith("wikipedia")]
    assert [(r.service, r.path.rsplit("/", 1)[-1]) for r in summaries] == [
        ("wikipedia-en", "Weixin"),
        ("wikipedia-zh", "Weixin"),
        ("wikipedia-zh", "微信"),
        ("wikipedia-en", "WeChat"),
    ]
    assert (
        result.facts_about("inception")[0].quote == "WeChat inception (Wikidata P571): 2011-01-21"
    )


def test_an_unknown_item_is_no_hit(primary, services: FakeServices) -> None:
    result = primary("wikipedia").lookup(Subject("Nothing", identifier="Q999999999"))

    assert result.outcome is Outcome.NO_HIT
    assert 'Could not find an entity with the ID "Q999999999"' in result.detail


def test_wikidata_down_leaves_the_summary_and_a_gap(primary, services: FakeServices) -> None:
    services.modes["wikidata"] = "error"

    result = primary("wikipedia").lookup(Subject("Vue.js"))

    assert result.outcome is Outcome.OK
    assert [record.url for record in result.records] == ["https://en.wikipedia.org/wiki/Vue.js"]
    assert result.facts == []
    assert [(gap.attribute, gap.outcome) for gap in result.gaps] == [
        ("wikidata", Outcome.UNAVAILABLE)
    ]


def test_wikidata_times_keep_their_precision() -> None:
    assert wikidata_time({"time": "+2014-02-00T00:00:00Z", "precision": 10}) == "2014-02"
    assert wikidata_time({"time": "+2010-04-01T00:00:00Z", "precision": 11}) == "2010-04-01"
    assert wikidata_time({"time": "+1991-00-00T00:00:00Z", "precision": 9}) == "1991"
    assert wikidata_time({"time": "+1900-00-00T00:00:00Z", "precision": 7}) is None
    assert wikidata_time({"time": "yesterday", "precision": 11}) is None
