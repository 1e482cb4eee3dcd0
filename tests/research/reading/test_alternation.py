"""Factored alternations match exactly what the plain ones match, so the stance and
dimension readers give the same readings, only sooner."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from research.reading.alternation import (
    factored,
    fold_for_literals,
    longest_first,
    may_match,
    needs_cjk,
    required_literals,
    top_level_branches,
)
from research.reading.claims import cues, stances
from research.reading.lexicon import keywords_for
from research.reading.text import contains_term, count_terms

WORDS = st.lists(st.text("abAB -", min_size=1, max_size=5), min_size=1, max_size=12)
TEXTS = st.text("abAB -.x", max_size=40)


def spans(pattern: str, text: str, flags: int = re.I) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(pattern, text, flags)]


@settings(max_examples=400)
@given(WORDS, TEXTS)
def test_words_match_where_the_plain_alternation_does(words, text):
    escaped = longest_first([re.escape(w) for w in words])
    for wrap in ("(?<![a-z]){}(?![a-z])", "{}", r"\b{}\b"):
        plain = wrap.format("(?:" + "|".join(escaped) + ")")
        tree = wrap.format(factored(escaped, ignore_case=True))
        assert spans(tree, text) == spans(plain, text), (words, text)


FRAGMENTS = st.lists(
    st.sampled_from(["ab", "abs?", "a(?:b|bb)", "b+a", "ba", "[ab]a", r"\ba", r"\bab", "a", ""]),
    min_size=1,
    max_size=6,
)


@settings(max_examples=400)
@given(FRAGMENTS, TEXTS)
def test_regex_fragments_keep_their_order_of_preference(fragments, text):
    plain = "(?:" + "|".join(fragments) + ")(?![b])"
    tree = factored(fragments, ignore_case=True) + "(?![b])"
    assert spans(tree, text) == spans(plain, text), (fragments, text)


def test_shared_beginnings_are_written_once():
    assert factored(["faster", "fast", "slow"], ignore_case=True) == "(?:fast(?:er|)|slow)"
    # A branch that does not begin with a literal keeps its place; nothing moves across it.
    assert factored(["ab", "[x]y", "ac"]) == "(?:ab|[x]y|ac)"


def test_branches_with_capturing_groups_are_left_alone():
    assert factored(["a(b)", "ac"]) == "(?:a(b)|ac)"
    assert factored(["a(?P<x>b)", "ac"]) == "(?:a(?P<x>b)|ac)"


def test_top_level_branches_ignore_bars_in_groups_and_classes():
    assert top_level_branches(r"a|(?:b|c)|[|]d|\|e") == ["a", "(?:b|c)", "[|]d", r"\|e"]


def test_needs_cjk_only_when_every_match_holds_a_chinese_character():
    assert needs_cjk("(?:表现|性能)?一般|一般般")
    assert needs_cjk("(?:还|仍)年轻")
    assert not needs_cjk("(?:表现)?一般|fine")
    assert not needs_cjk("(?:表现)?")
    assert not needs_cjk("[\u4e00-\u9fff]{0,3}x")


def _cue_sentences() -> list[str]:
    words = [
        *cues.POSITIVE,
        *cues.NEGATIVE,
        *cues.MORE_EN,
        *cues.LESS_EN,
        *cues.MORE_AFTER_EN,
        *cues.POSITIVE_ZH,
        *cues.NEGATIVE_ZH,
    ]
    things = ["performance", "latency", "examples", "memory usage", "costs", "文档", "性能"]
    sentences = []
    for i, word in enumerate(words):
        plain = word.replace("\\s+", " ")
        thing = things[i % len(things)]
        sentences += [
            f"The {plain} {thing} is what users report.",
            f"{plain.upper()} {thing}, but not-{plain} either; {thing} is {plain}.",
            f"NATS has {plain}-{thing} and ({plain}) support, 3{plain} {thing}ing.",
            f"它的{thing}{plain}，而且{plain}很多。",
        ]
    return sentences


def test_the_stance_patterns_read_every_cue_as_the_plain_ones_do():
    def plain(words):
        return "|".join(sorted(words, key=len, reverse=True))

    rebuilt = {
        stances._WORDS_EN: r"(?<![A-Za-z])(?:"
        + plain([re.escape(w) for w in cues.POSITIVE + cues.NEGATIVE])
        + r")(?![A-Za-z])",
        stances._NEUTRAL: "|".join(cues.NEUTRAL),
    }
    for (factored_phrase, _, _), (phrase, _) in zip(stances._PHRASES, cues.PHRASES, strict=True):
        rebuilt[factored_phrase] = phrase
    for sentence in _cue_sentences():
        for pattern, original in rebuilt.items():
            assert [m.span() for m in pattern.finditer(sentence)] == spans(original, sentence), (
                original[:60],
                sentence,
            )


def test_english_sentences_skip_only_patterns_that_need_chinese():
    for sentence in _cue_sentences():
        if re.search("[\u4e00-\u9fff]", sentence):
            continue
        read = {*stances._AMOUNTS_NOT_ZH, *stances._WORDS_NOT_ZH}
        read |= {p for p, _, _ in stances._PHRASES_NOT_ZH}
        for pattern in (*stances._AMOUNTS, *stances._WORDS, *(p for p, _, _ in stances._PHRASES)):
            if pattern not in read:
                assert pattern.search(sentence) is None, (pattern.pattern[:60], sentence)


def test_count_terms_counts_what_contains_term_finds():
    terms = [*keywords_for("maintenance activity"), *keywords_for("licence risk"), "customise"]
    sentences = [
        "Customising the licence is risky; maintainers are active.",
        "LICENSES and Maintenance, customised.",
        "İt is maintaıned, liçence, 许可证风险",
        "Nothing here at all.",
    ]
    for sentence in sentences:
        expected = sum(1 for t in terms if contains_term(sentence, t))
        assert count_terms(sentence, terms) == expected, sentence
    assert count_terms("Customising it costs", ["customise"]) == 1


def test_required_literals_name_what_every_match_holds():
    assert required_literals(r"\bno longer (?:actively )?maintained") == {"no longer "}
    assert required_literals(r"\b(?:does not|won't) support\b|\bunsupported\b", True) == {
        " support",
        "unsupported",
    }
    # An optional part, or a branch with nothing certain in it, requires nothing.
    assert required_literals(r"(?:stale)?\w+") is None
    assert required_literals(r"stale|\w+") is None
    assert required_literals(r"a\s+b") is None  # nothing worth looking for


PHRASE_WORDS = st.lists(
    st.sampled_from(
        [
            "no",
            "longer",
            "not",
            "well",
            "maintained",
            "Support",
            "does",
            "costs",
            "cost",
            "far",
            "more",
            "less",
            "at",
            "best",
            "prone",
            "to",
            "error-prone",
            "scales",
            "Well",
            "keeps",
            "crashing",
            "hard",
            "İ",
            "ı",
            "only",
            "supports",
            "still",
            "immature",
            "lags",
            "behind",
            "is",
            "free",
            "much",
            "better",
            ",",
            ".",
        ]
    ),
    max_size=8,
)


@settings(max_examples=600)
@given(PHRASE_WORDS)
def test_a_text_without_a_phrase_s_literals_never_matches_it(words):
    assert_skipped_only_where_no_match(
        " ".join(words), [(p, literals) for p, _, literals in stances._PHRASES]
    )


def assert_skipped_only_where_no_match(text: str, gated) -> None:
    """Every (pattern, literals) that matches `text` is one may_match lets through."""
    folded = fold_for_literals(text)
    for pattern, literals in gated:
        if pattern.search(text):
            assert may_match(literals, folded), (pattern.pattern[:60], text)


MEASURE_WORDS = st.lists(
    st.sampled_from(
        [
            "12",
            "3.5",
            "1,200",
            "k",
            "ms",
            "MS",
            "milliseconds",
            "MB/s",
            "MiB",
            "KB",
            "ops",
            "requests",
            "per",
            "second",
            "/s",
            "seat",
            "user",
            "month",
            "$",
            "stars",
            "GitHub",
            "core",
            "maintainers",
            "contributors",
            "before",
            "2.0",
            "v1.x",
            "in",
            "version",
            "used",
            "to",
            "be",
            "back",
            "then",
            "legacy",
            "adapter",
            "每秒",
            "毫秒",
            "贡献者",
            "以前",
            "的",
            "版本",
            "插件",
            "İ",
            "ı",
            "-",
            ",",
            ".",
        ]
    ),
    max_size=10,
)


@settings(max_examples=800)
@given(MEASURE_WORDS)
def test_a_measure_or_scope_pattern_is_skipped_only_where_it_cannot_match(words):
    from research.reading.claims import numbers, scope

    gated = [*numbers._LITERALS.items(), *scope._LITERALS.items()]
    for joiner in (" ", ""):
        assert_skipped_only_where_no_match(joiner.join(words), gated)
