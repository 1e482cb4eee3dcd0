"""Who a clause is about (research.reading.claims.clauses), as the reader's stances show it:
options named in passing are not judged, and an option is judged when the sentence names it
the way people do: by its head name, its possessive, or its kind on a page about it. Every
product and sentence here is invented."""

from __future__ import annotations

import pytest

from research.reading.claims.reading import Point, read_stances

EN = ("Quillsync", "Loamdb", "Tessera")
SPEED = "throughput"
LEARNING = "learning curve"


def stances(quote, dimensions, options=EN, *, option=None, about="named"):
    point = Point(quote, option or options[0], about=about)
    reading = read_stances(point, list(options), list(dimensions))
    return {(s.option, s.dimension, s.polarity) for s in reading.stances}


@pytest.mark.parametrize(
    "quote",
    [
        "Quillsync, Loamdb and others are fast.",
        "Quillsync, Loamdb, etc. are fast.",
        "Alternatives such as Featherline, Brightdash and Loamdb are faster.",
        "Tools like Loamdb, Tessera, and Featherline are fast.",
        "Quillsync、Loamdb 等工具都很快。",
    ],
)
def test_options_listed_in_passing_are_not_judged(quote):
    assert stances(quote, [SPEED, "运行性能"]) == set()


def test_the_option_after_a_list_of_yardsticks_is_judged():
    assert stances("Unlike Featherline, Brightdash and Loamdb, Quillsync is fast.", [SPEED]) == {
        ("Quillsync", SPEED, 1)
    }


def test_options_listed_as_the_subject_are_all_judged():
    assert stances("Quillsync and Loamdb are both fast.", [SPEED]) == {
        ("Quillsync", SPEED, 1),
        ("Loamdb", SPEED, 1),
    }


@pytest.mark.parametrize(
    ("quote", "dimension"),
    [
        ("Tessera is easy to learn.", LEARNING),
        ("Tessera's ORM is easy to learn.", LEARNING),
        ("Tessera 的 ORM 很容易上手。", "学习成本"),
    ],
)
def test_a_brand_and_its_kind_is_judged_by_its_brand_or_its_possessive(quote, dimension):
    options = ("Tessera ORM", "Loamdb")
    assert stances(quote, [dimension], options) == {("Tessera ORM", dimension, 1)}


@pytest.mark.parametrize(
    ("quote", "dimension"),
    [("The ORM is easy to learn.", LEARNING), ("该 ORM 很容易上手。", "学习成本")],
)
def test_the_kind_with_a_definite_article_is_the_option_the_point_is_about(quote, dimension):
    options = ("Tessera ORM", "Loamdb")
    assert stances(quote, [dimension], options) == {("Tessera ORM", dimension, 1)}
    assert stances(quote, [dimension], ("Quillsync", "Loamdb")) == set()


def test_a_bundle_is_judged_by_the_product_it_is_built_on_not_its_partner():
    options = ("Loamdb with Brightdash", "Quillsync")
    assert stances("Loamdb is fast.", [SPEED], options) == {("Loamdb with Brightdash", SPEED, 1)}
    assert stances("Brightdash is fast.", [SPEED], options) == set()
