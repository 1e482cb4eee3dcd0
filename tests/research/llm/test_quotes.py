"""A quote the model gives stands only if it is in the stored text, and is then the text's own."""

from __future__ import annotations

from research.context import StageContext
from research.llm import keep_verified, verify_quote

PAGE = (
    "# Quillsync licensing\n\n"
    "Quillsync is released under the\n   Apache License 2.0 since version 3.0.\n"
    "Earlier releases were AGPL-3.0.\n"
)


def test_an_exact_quote_is_found_at_its_offset():
    match = verify_quote("Earlier releases were AGPL-3.0.", PAGE)
    assert match is not None
    assert PAGE[match.offset : match.offset + len(match.quote)] == match.quote


def test_a_quote_that_differs_only_in_whitespace_maps_back_to_the_stored_text():
    match = verify_quote("released under the Apache  License 2.0", PAGE)
    assert match is not None
    assert match.quote == "released under the\n   Apache License 2.0"
    assert PAGE[match.offset : match.offset + len(match.quote)] == match.quote


def test_a_quote_with_a_changed_word_or_case_is_not_found():
    assert verify_quote("released under the MIT License", PAGE) is None
    assert verify_quote("earlier releases were agpl-3.0.", PAGE) is None
    assert verify_quote("   ", PAGE) is None


def test_points_whose_quote_is_not_in_the_source_are_dropped_and_logged():
    ctx = StageContext()
    points = [
        {"text": "Apache since 3.0", "quote": "Apache License 2.0 since version 3.0."},
        {"text": "made up", "quote": "Quillsync is free for any use."},
    ]
    kept = keep_verified(points, lambda p: p["quote"], PAGE, ctx, source_id="s03", task="deepread")
    assert [(p["text"], m.quote) for p, m in kept] == [
        ("Apache since 3.0", "Apache License 2.0 since version 3.0.")
    ]
    [dropped] = [e for e in ctx.events if e["event"] == "llm_quote_dropped"]
    assert dropped["quote"] == "Quillsync is free for any use."
    assert dropped["source_id"] == "s03" and dropped["task"] == "deepread"
