"""Sentences that state something but judge nothing: hearsay, hedges, conditions and
promotions are quotable statements, never scored."""

from __future__ import annotations

import pytest

from research.reading.claims.hedges import no_judgement
from research.reading.claims.reading import Point, read_stances

OPTIONS = ["Quillsync", "Loamdb", "青鸟流程"]
DIMENSIONS = ["price", "reliability", "throughput"]
DIMENSIONS_ZH = ["价格", "运维成本", "性能"]


def read(quote: str, option: str = "Quillsync"):
    dimensions = DIMENSIONS_ZH if option == "青鸟流程" else DIMENSIONS
    return read_stances(Point(quote, option, about="named"), OPTIONS, dimensions)


@pytest.mark.parametrize(
    ("quote", "option", "kind"),
    [
        ("Some users report that Quillsync costs more than it should.", "Quillsync", "hearsay"),
        ("Many developers have complained that Quillsync is expensive.", "Quillsync", "hearsay"),
        ("Quillsync is reportedly the most reliable queue.", "Quillsync", "hearsay"),
        ("据说青鸟流程的性能很好。", "青鸟流程", "hearsay"),
        ("有用户反映青鸟流程运维成本很高。", "青鸟流程", "hearsay"),
        ("Quillsync is arguably the fastest queue on the market.", "Quillsync", "hedged"),
        ("Quillsync seems to be very reliable.", "Quillsync", "hedged"),
        ("青鸟流程似乎性能很好。", "青鸟流程", "hedged"),
        (
            "The reliability of Quillsync hinges on correctly configuring acknowledgements.",
            "Quillsync",
            "condition",
        ),
        ("Quillsync is reliable only if configured with replication.", "Quillsync", "condition"),
        ("青鸟流程的性能取决于索引参数的配置。", "青鸟流程", "condition"),
        ("New users get Quillsync free for three months, a cheap start.", "Quillsync", "promotion"),
        ("限时优惠：青鸟流程云服务器新用户免费，运维成本低。", "青鸟流程", "promotion"),
    ],
)
def test_a_sentence_that_passes_on_supposes_or_sells_takes_no_stance(quote, option, kind):
    reading = read(quote, option)
    assert reading.stances == ()
    assert kind in reading.refused


@pytest.mark.parametrize(
    ("quote", "option", "dimension", "polarity"),
    [
        ("Quillsync costs more than its rivals.", "Quillsync", "price", -1),
        ("Quillsync is very reliable.", "Quillsync", "reliability", 1),
        (
            "If a node dies, Quillsync loses its messages, so it is unreliable.",
            "Quillsync",
            "reliability",
            -1,
        ),
        ("青鸟流程的性能很好。", "青鸟流程", "性能", 1),
    ],
)
def test_the_writers_own_judgement_still_takes_its_stance(quote, option, dimension, polarity):
    assert no_judgement(quote) is None
    stances = {(s.option, s.dimension, s.polarity) for s in read(quote, option).stances}
    assert stances == {(option, dimension, polarity)}


@pytest.mark.parametrize(
    "quote",
    [
        "Quillsync depends on ZooKeeper for its metadata.",
        "Some of Quillsync's users run it on a single node.",
        "Quillsync offers a free tier for small teams.",
        "Depending on the load, Quillsync uses two to four cores.",
    ],
)
def test_dependencies_descriptions_and_plain_offers_are_not_taken_for_hedges(quote):
    assert no_judgement(quote) is None
