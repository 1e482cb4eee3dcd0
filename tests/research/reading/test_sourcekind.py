from __future__ import annotations

import pytest

from research.reading.sourcekind import INTERESTED, REVIEW, classify

OPTIONS = ["Quillsync", "Loamdb", "河图引擎"]
RIVALS = ["Marrowline", "Pebblestack"]


@pytest.mark.parametrize(
    ("url", "title", "kind", "owner"),
    [
        ("https://quillsync.dev/docs/licensing", "Licensing", "primary", "Quillsync"),
        ("https://github.com/loamdb/loamdb", "Loamdb", "primary", "Loamdb"),
        (
            "https://hetu-engine.io/zh/docs/license",
            "许可与授权 | 河图引擎官方文档",
            "primary",
            "河图引擎",
        ),
        ("https://www.ietf.org/rfc/rfc9110", "HTTP Semantics", "primary", None),
        ("https://forum.localfirst.community/t/1842", "Loamdb licence change", "community", None),
        ("https://blog.example.net/post", "Why we left Loamdb", "community", None),
        ("https://news.example.com/quillsync-vs-loamdb", "Quillsync vs Loamdb", "comparison", None),
    ],
)
def test_sources_are_graded_primary_comparison_or_community(url, title, kind, owner):
    graded = classify(url, title, OPTIONS)
    assert (graded.kind, graded.owner) == (kind, owner)
    assert graded.strength == {"primary": 90, "comparison": 60, "community": 30}[kind]


def test_a_comparison_page_is_nobodys_own_page_even_if_it_says_official():
    graded = classify("https://tech.example.cn/a", "Quillsync 与 Loamdb 官方文档对比", OPTIONS)
    assert graded.owner is None


# --- interested parties -------------------------------------------------------------------


def test_a_vendor_comparing_itself_with_a_rival_is_an_interested_party():
    graded = classify(
        "https://marrowline.io/blog/marrowline-vs-pebblestack",
        "Marrowline vs Pebblestack: why teams switch",
        RIVALS,
    )

    assert graded.interested and graded.publisher == "Marrowline"
    assert graded.owner is None  # not Marrowline's own page about itself, nor Pebblestack's
    assert graded.strength == INTERESTED
    assert graded.why == "interested party: published by Marrowline's vendor"


def test_a_vendor_is_never_its_rivals_primary_source():
    graded = classify(
        "https://marrowline.io/blog/marrowline-vs-pebblestack", "Marrowline vs Pebblestack", RIVALS
    )

    for judgement in (False, True):
        held = graded.toward("Pebblestack", judgement=judgement)
        assert (held.kind, held.strength) == ("interested", INTERESTED)
        assert held.why == "interested party: published by Marrowline's vendor"


def test_a_vendors_praise_of_itself_in_a_comparison_is_discounted_but_its_facts_stand():
    graded = classify(
        "https://marrowline.io/blog/marrowline-vs-pebblestack", "Marrowline vs Pebblestack", RIVALS
    )

    praise = graded.toward("Marrowline", judgement=True)
    facts = graded.toward("Marrowline", judgement=False)

    assert (praise.kind, praise.strength) == ("interested", INTERESTED)
    assert (facts.kind, facts.strength) == ("primary", 90.0)


def test_a_page_on_one_vendors_domain_about_another_product_is_interested():
    graded = classify(
        "https://docs.pebblestack.dev/guides/moving-off-marrowline",
        "Moving your queues off Marrowline",
        RIVALS,
    )

    assert (graded.publisher, graded.interested, graded.owner) == ("Pebblestack", True, None)
    assert graded.toward("Marrowline").kind == "interested"


def test_a_vendor_setting_itself_against_unnamed_alternatives_is_interested():
    graded = classify("https://pebblestack.dev/why", "Pebblestack vs the alternatives", RIVALS)

    assert graded.interested
    assert graded.toward("Pebblestack", judgement=True).strength == INTERESTED


def test_a_projects_own_page_is_primary_for_facts_and_a_review_when_judging_itself():
    graded = classify("https://pebblestack.dev/docs/licence", "Licence", RIVALS)

    assert (graded.kind, graded.owner, graded.interested) == ("primary", "Pebblestack", False)
    assert graded.toward("Pebblestack").strength == 90.0
    judged = graded.toward("Pebblestack", judgement=True)
    assert (judged.kind, judged.strength) == ("primary", REVIEW)
    assert "counts as a review" in judged.why


def test_an_independent_page_counts_the_same_for_every_option():
    graded = classify("https://queue-notes.example.org/review", "A year with two queues", RIVALS)

    assert graded.toward("Marrowline") == graded.toward("Pebblestack", judgement=True)
    assert graded.toward("Marrowline").strength == REVIEW


def test_the_reason_is_given_in_chinese_for_a_chinese_question():
    graded = classify(
        "https://marrowline.io/compare/pebblestack", "Marrowline 与 Pebblestack 对比", RIVALS, "zh"
    )

    assert graded.why == "利益相关方：由Marrowline的厂商发布"
    assert graded.toward("Pebblestack").why == "利益相关方：由Marrowline的厂商发布"


# --- whose site is it ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "publisher"),
    [
        ("https://getmarrowline.com/pricing", "Marrowline"),
        ("https://marrowline-cloud.com/plans", "Marrowline"),
        ("https://pebblestack-broker.org/docs", "Pebblestack"),
        ("https://pebblestack-hosting.com/", None),
        ("https://docs.pebblestack.dev/install", "Pebblestack"),
        ("https://pebblestack.readthedocs.io/en/latest/", "Pebblestack"),
        ("https://pypi.org/project/pebblestack/", "Pebblestack"),
        ("https://github.com/acme-labs/marrowline", "Marrowline"),
        ("https://marrowlinereview.com/verdict", None),
        ("https://marrowline-alternatives.net/list", None),
        ("https://marrowline-vs-pebblestack.com/", None),
    ],
)
def test_a_domain_or_repository_belongs_to_an_option_only_when_it_is_that_options_name(
    url, publisher
):
    assert classify(url, "", RIVALS).publisher == publisher


def test_an_exact_domain_name_wins_over_a_name_with_an_affix():
    assert classify("https://loamdb.io/docs", "Docs", ["Loam", "Loamdb"]).publisher == "Loamdb"


def test_an_organisation_prefix_does_not_hide_whose_site_it_is():
    graded = classify("https://fernwick.apache.org/docs", "Fernwick docs", ["Apache Fernwick"])
    assert graded.owner == "Apache Fernwick"


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/pebblestack/pebblestack/issues/77",
        "https://github.com/pebblestack/pebblestack/discussions/3",
        "https://forum.pebblestack.dev/t/slow-acks/12",
        "https://community.marrowline.io/q/9",
    ],
)
def test_what_users_write_on_a_projects_own_tracker_or_forum_is_community(url):
    graded = classify(url, "Pebblestack drops messages", RIVALS)
    assert (graded.kind, graded.publisher) == ("community", None)


def test_a_repository_no_option_can_be_matched_to_stays_primary():
    # A project whose name is not Latin ("青鸟流程") publishes under a pinyin slug.
    graded = classify("https://github.com/qingshi-mq/qingshi", "轻量级消息队列", ["青石队列"])
    assert (graded.kind, graded.publisher) == ("primary", None)


def test_a_dot_net_site_is_not_taken_for_a_forum():
    assert classify("https://queueweekly.net/issue-40", "Issue 40", RIVALS).kind == "comparison"
