"""Judging a run's readings against a careful reader's labels (tools.quality.judgement), rule
by rule on hand-made round 4 records, and end to end through `quality --corpus`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from tools.quality.judgement import judge, matches

MINI_CORPUS = Path(settings.BASE_DIR) / "tests" / "fixtures" / "devcorpus_mini"

FAST = "Tallyforge imports a hundred thousand lines in well under a minute."
OPEN = "Tallyforge is released under the Apache-2.0 licence."
CLOSED = "Tallyforge switched to the Business Source License, so it is no longer open source."


def label(quote, option="Tallyforge", dimension="import speed", polarity=1):
    return {"quote": quote, "option": option, "dimension": dimension, "polarity": polarity}


def claim(quote, option="Tallyforge", dimension="import speed", polarity=1, **extra):
    return {"quote": quote, "option": option, "dimension": dimension, "polarity": polarity} | extra


def side(quote):
    return {"claim_id": "c1", "source_id": "s1", "quote": quote}


def test_two_quotes_match_when_most_of_either_ones_words_are_in_the_other():
    assert matches("Tallyforge imports fast.", FAST + " It is fast.")  # most of the run's
    assert matches(FAST + " Also on small laptops.", "Tallyforge imports a hundred thousand")
    assert not matches("Tallyforge is slow.", FAST)
    # A short label cannot be matched through the second rule: three tokens are too few.
    assert not matches(FAST, "Tallyforge imports lines")


def test_matching_ignores_case_markdown_and_table_bars():
    assert matches("| **Tallyforge** | Apache-2.0 |", "tallyforge apache-2.0")


def test_a_claim_is_correct_only_with_its_options_dimension_and_polarity():
    labels = [label(FAST), label(OPEN, dimension="licence")]
    result = judge("t", {"claims": [claim(FAST), claim(OPEN, dimension="licence")]}, labels, [])
    assert (result.judged, result.correct) == (2, 2)


@pytest.mark.parametrize(
    ("made", "kind"),
    [
        (claim(FAST, option="Quillbook"), "option"),
        (claim(FAST, dimension="licence"), "dimension"),
        (claim(FAST, polarity=-1), "polarity"),
    ],
)
def test_a_wrong_claim_is_counted_by_what_it_got_wrong(made, kind):
    result = judge("t", {"claims": [made]}, [label(FAST)], [])
    assert result.judged == 1 and result.correct == 0
    assert result.wrong[kind] == 1 and sum(result.wrong.values()) == 1
    assert result.wrong_claims and result.wrong_claims[0].startswith(f"wrong {kind}")


def test_a_line_labelled_about_no_option_makes_any_claim_on_it_a_wrong_option():
    result = judge("t", {"claims": [claim(FAST)]}, [label(FAST, option=None, polarity=0)], [])
    assert result.wrong["option"] == 1


def test_claims_without_a_dimension_or_polarity_or_with_a_flag_are_not_scored_claims():
    claims = [
        claim(FAST, dimension=None),
        claim(FAST, polarity=0),
        claim(FAST, flag="the stored text reads the other way"),
    ]
    result = judge("t", {"claims": claims}, [label(FAST)], [])
    assert (result.scored_claims, result.judged) == (0, 0)


def test_a_claim_whose_quote_matches_no_label_is_not_judged():
    result = judge("t", {"claims": [claim("Quillbook validates every journal line.")]}, [], [])
    assert (result.scored_claims, result.judged, result.correct) == (1, 0, 0)


def test_stance_recall_counts_labelled_judgements_read_the_same_way():
    labels = [label(FAST), label(OPEN, dimension="licence"), label(CLOSED, polarity=0)]
    result = judge("t", {"claims": [claim(FAST), claim(OPEN, polarity=-1)]}, labels, [])
    assert (result.recalled, result.stances) == (1, 2)  # the neutral line is no stance
    assert any(OPEN[:40] in line for line in result.missed_stances)


def test_a_contradiction_is_judged_by_a_labelled_pair_either_way_round():
    pairs = [{"option": "Tallyforge", "a_quote": OPEN, "b_quote": CLOSED, "real": True}]
    records = [
        {"option": "Tallyforge", "attribute": "licence", "a": side(CLOSED), "b": side(OPEN)},
        {"option": "Tallyforge", "attribute": "speed", "a": side(FAST), "b": side(OPEN)},
    ]
    result = judge("t", {"contradictions": records}, [], pairs)
    assert (result.contradictions, result.contradictions_judged) == (2, 1)
    assert result.contradictions_real == 1


def test_a_reported_pair_labelled_not_real_counts_against_precision():
    pairs = [{"option": "Tallyforge", "a_quote": OPEN, "b_quote": FAST, "real": False}]
    records = [{"option": "Tallyforge", "attribute": "x", "a": side(OPEN), "b": side(FAST)}]
    result = judge("t", {"contradictions": records}, [], pairs)
    assert (result.contradictions_judged, result.contradictions_real) == (1, 0)
    assert result.false_contradictions


@pytest.mark.django_db
def test_quality_corpus_prints_and_writes_the_judgement_of_labelled_topics(tmp_path):
    out = io.StringIO()
    figures = tmp_path / "figures.json"
    call_command("quality", corpus=str(MINI_CORPUS), json=str(figures), misses=True, stdout=out)
    printed = out.getvalue()
    assert "claim precision" in printed and "stance recall" in printed
    assert "no labels to judge against: kanban_zh" in printed
    data = json.loads(figures.read_text(encoding="utf-8"))
    ledger = next(t for t in data["topics"] if t["topic"] == "ledger")["judgement"]
    assert ledger["stances"] == 5  # the study-design line is no stance
    assert 0 < ledger["recalled"] <= ledger["stances"]
    assert ledger["correct"] + sum(ledger["wrong"].values()) == ledger["judged"]
    assert ledger["contradictions_judged"] >= 1
    row = next(line for line in printed.splitlines() if line.startswith("ledger") and "/" in line)
    assert f"{ledger['correct']}/{ledger['judged']}" in printed.split("claim precision", 1)[1]
    assert row  # the facts row is there too
    assert data["total"]["judgement"]["stances"] == 5
