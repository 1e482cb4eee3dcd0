"""How sure the reader is of a stance, and abstaining below its threshold."""

from __future__ import annotations

from research.reading.claims.reading import Point, read_stances
from research.reading.claims.sureness import THRESHOLD, sureness

OPTIONS = ["Quillsync", "Loamdb", "Tessera"]


def test_a_stance_on_an_option_the_sentence_names_is_sure():
    point = Point("Quillsync is very fast.", "Quillsync")
    assert sureness(point, "Quillsync", 1, OPTIONS, {}) == 1.0
    reading = read_stances(point, OPTIONS, ["throughput"])
    assert [(s.option, s.polarity, s.confidence) for s in reading.stances] == [
        ("Quillsync", 1, 1.0)
    ]


def test_each_doubt_lowers_how_sure_the_reader_is():
    named = Point("Quillsync is very fast.", "Quillsync")
    pointed = Point("It is very fast.", "Quillsync", about="pronoun")
    crowded = Point("Quillsync, unlike Loamdb and Tessera setups, is very fast.", "Quillsync")
    softened = Point("Quillsync can be very fast.", "Quillsync")
    sure = sureness(named, "Quillsync", 1, OPTIONS, {})
    for doubtful in (pointed, crowded, softened):
        assert sureness(doubtful, "Quillsync", 1, OPTIONS, {}) < sure
    assert sureness(named, "Quillsync", 3, OPTIONS, {}) < sure  # judges many cells at once


def test_a_comparison_that_sets_options_apart_is_not_doubted_for_naming_them():
    point = Point("Quillsync is faster than Loamdb.", "Quillsync")
    assert sureness(point, "Quillsync", 2, OPTIONS, {}, ranked=True) == 1.0


def test_below_the_threshold_a_stance_is_kept_as_unsure_and_not_scored():
    point = Point("It can be very fast.", "Quillsync", about="pronoun")
    reading = read_stances(point, OPTIONS, ["throughput"])
    assert reading.stances == ()
    assert [(s.option, s.dimension) for s in reading.unsure] == [("Quillsync", "throughput")]
    assert reading.unsure[0].confidence < THRESHOLD
    assert reading.refused == f"not sure enough (below {THRESHOLD:.2f})"
    assert read_stances(point, OPTIONS, ["throughput"], threshold=0.0).stances


def test_a_sentence_that_weighs_a_gain_against_a_loss_is_less_sure():
    plain = Point("Quillsync is lighter and faster to run.", "Quillsync")
    traded = Point(
        "Quillsync is lighter and faster to run, but it trades away plugins.", "Quillsync"
    )
    zh = Point("青鸟流程更轻量，代价是插件更少。", "青鸟流程")
    assert sureness(traded, "Quillsync", 1, OPTIONS, {}) < THRESHOLD
    assert sureness(plain, "Quillsync", 1, OPTIONS, {}) == 1.0
    assert sureness(zh, "青鸟流程", 1, [*OPTIONS, "青鸟流程"], {}) < THRESHOLD
