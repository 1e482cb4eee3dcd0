"""How a page may name an option (research.reading.text): by its head name, its possessive
form and, where the page is about it, by its kind with a definite article. Every product
and sentence here is invented."""

from __future__ import annotations

import pytest

from research.reading.claims.mentions import mentions_of
from research.reading.text import mentions, name_spans, option_names


def named(text: str, options: list[str], context: str | None = None) -> list[tuple[str, str]]:
    return [(text[s:e], o) for s, e, o in mentions_of(text, options, context=context)]


@pytest.mark.parametrize(
    "bundle", ["Loamdb with Brightdash", "Loamdb + Brightdash", "Loamdb and Brightdash"]
)
def test_an_option_named_as_a_bundle_is_found_by_the_product_it_is_built_on(bundle):
    assert mentions("Loamdb keeps ninety days of metrics.", bundle)
    assert mentions("Loamdb 默认保留九十天的指标。", bundle)


def test_the_partner_in_a_bundle_alone_is_not_the_bundle():
    assert not mentions("Brightdash draws the dashboards.", "Loamdb with Brightdash")
    assert "LWB" not in option_names("Loamdb with Brightdash")


def test_an_ordinary_word_before_with_is_no_head_name():
    assert not mentions("Simple apps start fast.", "Simple with Brightdash")


@pytest.mark.parametrize(
    "text",
    [
        "Tessera ORM keeps migrations short.",
        "Tessera keeps migrations short.",
        "Tessera's ORM keeps migrations short.",
        "Tessera’s ORM keeps migrations short.",
        "Tessera 的 ORM 迁移很简单。",
        "Tessera的ORM迁移很简单。",
    ],
)
def test_a_brand_and_a_generic_kind_is_found_by_its_brand_and_its_possessive(text):
    assert mentions(text, "Tessera ORM")


def test_a_possessive_is_one_mention_spanning_the_brand_and_the_kind():
    text = "We liked Tessera's ORM and Tessera 的 ORM."
    spans = [text[s:e] for s, e in name_spans(text, "Tessera ORM")]
    assert spans == ["Tessera's ORM", "Tessera 的 ORM"]


def test_a_brand_followed_by_a_product_name_is_not_known_by_the_brand_alone():
    assert not mentions("Tessera keeps migrations short.", "Tessera Native")


def test_a_name_two_options_share_names_only_the_option_it_is():
    text = "Tessera ships a template engine; Tessera's ORM is separate."
    assert named(text, ["Tessera", "Tessera ORM"]) == [
        ("Tessera", "Tessera"),
        ("Tessera's ORM", "Tessera ORM"),
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("The ORM keeps migrations short.", "The ORM"),
        ("Its ORM keeps migrations short.", "Its ORM"),
        ("该 ORM 的迁移很简单。", "该 ORM"),
        ("这个ORM的迁移很简单。", "这个ORM"),
    ],
)
def test_the_kind_with_a_definite_article_names_the_option_the_page_is_about(text, kind):
    assert named(text, ["Tessera ORM", "Loamdb"], context="Tessera ORM") == [(kind, "Tessera ORM")]


def test_the_kind_with_a_definite_article_names_nothing_on_a_page_about_no_option():
    assert named("The ORM keeps migrations short.", ["Tessera ORM", "Loamdb"]) == []
    assert named("The ORM keeps migrations short.", ["Tessera ORM", "Loamdb"], "Loamdb") == []
