"""Whether a quote states anything a stance can be read from
(research.reading.claims.gate.not_a_statement), and whether it is in a language the reader
reads (foreign). Every sentence here is invented; the products are fictional.
"""

from __future__ import annotations

import pytest

from research.reading.claims.gate import foreign, not_a_statement

# The text around a line that stands on its own, as a heading or a title does.
BEFORE_ALONE = "\n\n"
AFTER_ALONE = "\n\nQuillsync was built by a small team in 2019."


@pytest.mark.parametrize(
    "quote",
    [
        "Quillsync is fast.",
        "Quillsync has a steep learning curve, but the docs help.",
        "We use Quillsync in production and it is fast.",
        "I found Quillsync easy to learn.",
        "We found that Quillsync is faster than Loamdb.",
        "Glarivex reduced HbA1c by 1.1% at week 26.",
        "iOS support in Quillsync is excellent.",
        "青鸟流程上手非常容易。",
        "河图引擎的运维开销比青鸟流程大！",
    ],
)
def test_a_full_sentence_is_a_statement(quote):
    assert not_a_statement(quote) is None


@pytest.mark.parametrize(
    ("quote", "before", "after"),
    [
        ("- Very fast writes", "", "\n- Simple to run"),
        ("* Quillsync is fast", "\n", "\n* Loamdb is slow"),
        ("2. Quillsync has a large ecosystem", "\n", "\n3. Loamdb is smaller"),
        ("Very fast writes", "\n- ", "\n- Simple to run"),
    ],
)
def test_a_list_item_without_a_full_stop_is_a_statement(quote, before, after):
    assert not_a_statement(quote, before, after) is None


def test_a_chinese_clause_the_text_goes_on_from_is_a_statement():
    assert not_a_statement("青鸟流程上手非常容易", "", "，而且文档齐全。") is None


@pytest.mark.parametrize(
    "quote",
    [
        "# Quillsync is fast",
        "### Quillsync",
        "1.2 Quillsync throughput",
        "## 青鸟流程性能出色",
    ],
)
def test_a_heading_is_not_a_statement(quote):
    assert not_a_statement(quote) == "a heading"


@pytest.mark.parametrize(
    "quote",
    [
        "Quillsync Makes Sync Simple Again",
        "Quillsync: Fast, Simple, Reliable Sync",
        "Very fast writes",
        "青鸟流程性能出色",
    ],
)
def test_a_line_on_its_own_without_a_stop_is_a_title(quote):
    assert not_a_statement(quote, BEFORE_ALONE, AFTER_ALONE) == "a heading or title"


def test_a_numbered_line_on_its_own_is_a_title_not_a_list_item():
    reason = not_a_statement("2. Quillsync's ecosystem", BEFORE_ALONE, AFTER_ALONE)
    assert reason == "a heading or title"


@pytest.mark.parametrize(
    "quote",
    [
        "Does Quillsync scale?",
        "Quillsync is fast, isn't it?",
        "Which is easier to learn, Quillsync or Loamdb?",
        "青鸟流程的学习成本高吗？",
    ],
)
def test_a_question_is_not_a_statement(quote):
    assert not_a_statement(quote) == "a question"


@pytest.mark.parametrize(
    "quote",
    [
        "Why Quillsync is the fastest engine around",
        "How Quillsync handles backpressure",
        "Whether Quillsync fits depends on your team.",
    ],
)
def test_an_indirect_question_is_a_title_or_a_question(quote):
    assert not_a_statement(quote, "\n", "\n") == "a question or a title"


@pytest.mark.parametrize(
    "quote",
    [
        "Check out our Quillsync tutorial.",
        "Contact us to learn more about Quillsync pricing.",
        "To get a quote for Quillsync, contact our sales team.",
        "Let's look at how Quillsync handles writes.",
        "Try Quillsync free for 30 days.",
        "Download Quillsync for blazing fast sync.",
    ],
)
def test_a_call_to_action_is_not_a_statement(quote):
    assert not_a_statement(quote) == "a call to action"


@pytest.mark.parametrize(
    "quote",
    [
        "This article compares Quillsync and Loamdb on throughput.",
        "In this post, we benchmark Quillsync.",
        "This comparison shows Quillsync is faster.",
        "Here is how Quillsync compares with Loamdb.",
        "Below we compare the throughput of Quillsync and Loamdb.",
        "We'll look at why Quillsync is so easy to learn.",
        "本文将介绍青鸟流程的优缺点。",
        "下面我们来比较青鸟流程和河图引擎。",
    ],
)
def test_a_page_describing_itself_is_not_a_statement(quote):
    assert not_a_statement(quote) == "the page describing itself"


@pytest.mark.parametrize(
    "quote",
    [
        "I wanted to benchmark Quillsync because it is supposed to be fast.",
        "I decided to try Quillsync for our billing service.",
        "We are going to benchmark Quillsync against Loamdb.",
        "So I set out to learn Quillsync in a weekend.",
    ],
)
def test_the_writers_plan_is_not_a_statement(quote):
    assert not_a_statement(quote) == "the writer describing a plan"


@pytest.mark.parametrize(
    "quote",
    [
        "Patients were randomly assigned to Glarivex or placebo.",
        "Participants were enrolled at 40 sites.",
        "The primary endpoint was the change in HbA1c at week 26.",
        "The primary outcome was cardiovascular death in patients given Glarivex.",
        "Secondary outcomes included body weight.",
        "The aim of this study was to assess whether Glarivex lowers HbA1c.",
        "This was a double-blind, placebo-controlled trial.",
        "The trial was designed to demonstrate noninferiority.",
        "Methods: adults with type 2 diabetes were included.",
    ],
)
def test_a_study_describing_its_design_is_not_a_statement(quote):
    assert not_a_statement(quote) == "a study describing its design"


@pytest.mark.parametrize(
    "quote",
    [
        "Author: Jane Roe Published: 2024-05-02 Tags: sync",
        "Licence: MIT Maintainer: the quill team",
        "Source: https://example.org/quillsync",
    ],
)
def test_page_metadata_is_not_a_statement(quote):
    assert not_a_statement(quote) == "page metadata"


@pytest.mark.parametrize(
    ("quote", "before"),
    [
        ("and Quillsync is fast.", ""),
        ("and Quillsync is fast.", "We tuned the cluster.\n"),
        ("with Quillsync it is fast.", ""),
        ("which makes Quillsync easy to learn.", "It ships good defaults.\n"),
        ("quillsync is fast.", "On small clusters with three nodes\n"),
    ],
)
def test_a_line_opening_in_lower_case_is_cut_at_its_start(quote, before):
    assert not_a_statement(quote, before) == "a fragment cut at its start"


@pytest.mark.parametrize(
    ("quote", "before"),
    [("npm installs Quillsync in seconds.", ""), ("iOS users find Quillsync fast.", "")],
)
def test_a_sentence_opening_with_a_name_written_in_lower_case_is_a_statement(quote, before):
    assert not_a_statement(quote, before) is None


@pytest.mark.parametrize(
    ("quote", "after"),
    [
        ("Quillsync is fast and the", " rest"),
        ("Quillsync is fast, simple and reliable for", " teams"),
        ("Quillsync has a steep learning curve compared with", " Loamdb"),
        ("Quillsync is fast, simple and reliable", ""),
        ("青鸟流程上手非常容易", ""),
    ],
)
def test_a_sentence_ending_on_a_function_word_or_where_the_text_stops_is_cut_at_its_end(
    quote, after
):
    assert not_a_statement(quote, "", after) == "a fragment cut at its end"


@pytest.mark.parametrize(
    "text",
    [
        "Quillsync es muy rápido y fácil de usar para los equipos.",
        "Quillsync est très rapide et facile à utiliser pour les équipes.",
        "Quillsync ist sehr schnell und für die Teams einfach zu bedienen.",
        "Quillsync é muito rápido e fácil de usar para as equipes.",
        "Quillsync очень быстрый.",
    ],
)
def test_a_sentence_in_a_language_the_reader_has_no_words_for_is_foreign(text):
    assert foreign(text)


@pytest.mark.parametrize(
    "text",
    [
        "Quillsync is fast and easy to use for the teams.",
        "Quillsync is fast: it beats Loamdb on the benchmark de la casa.",
        "青鸟流程上手非常容易。",
        "青鸟流程的 API 设计得很清晰。",
    ],
)
def test_english_and_chinese_are_not_foreign(text):
    assert not foreign(text)


@pytest.mark.parametrize(
    "quote",
    [
        "Achieving Guaranteed Delivery in Quillsync: Why Acknowledgements Matter",
        "Quillsync in Production: a queue with at-least-once delivery",
    ],
)
def test_a_title_with_its_subtitle_after_a_colon_is_not_a_statement(quote):
    assert not_a_statement(quote, "\n", "\n") == "a heading or title"


def test_a_labelled_sentence_after_a_colon_is_a_statement():
    quote = "Alternative Queues: other queues such as Loamdb offer lower running costs."
    assert not_a_statement(quote, "\n", "\n") is None


def test_an_instruction_to_understand_something_is_a_call_to_action():
    quote = "Understand when Quillsync's maturity justifies its complexity over Loamdb."
    assert not_a_statement(quote) == "a call to action"
