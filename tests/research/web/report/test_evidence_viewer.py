"""The evidence viewer: a source's stored text, escaped, with every cited quote marked."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from research.artifacts import Crosscheck, Notes
from research.outcomes import Outcome
from research.store import store_for
from research.web.report.evidence_page import Cited, highlight
from research.web.report.run_files import quote_anchor

pytestmark = pytest.mark.django_db


def viewer(client, run_id: str, source_id: str):
    return client.get(reverse("web:evidence", args=[run_id, source_id]))


def cited_from(check: Crosscheck, source_id: str) -> set[str]:
    quotes = {c.quote for c in check.claims if c.source_id == source_id}
    for x in check.contradictions:
        quotes |= {s.quote for s in (x.a, x.b, *x.a_also, *x.b_also) if s.source_id == source_id}
    return quotes


def test_each_cited_quote_is_highlighted_once_per_occurrence(install, ada_client):
    run = install("en")
    store = store_for(run.run_id)
    notes = store.read_model("round_3_notes.json", Notes)
    check = store.read_model("round_4_crosscheck.json", Crosscheck)
    for src in notes.ok_sources():
        text = store.read_text(src.page)
        html = viewer(ada_client, run.run_id, src.source_id).content.decode()
        for quote in cited_from(check, src.source_id):
            times = text.count(quote)
            if not times:
                continue
            anchor = quote_anchor(quote)
            ids = re.findall(rf'<mark class="q" id="({anchor}(?:-\d+)?)">', html)
            assert len(ids) == times, (src.source_id, quote)
            assert ids[0] == anchor
            assert html.count(f'href="#{anchor}"') == 1  # listed once above the text


def test_every_quote_the_report_links_lands_on_a_highlight(install, ada_client):
    run = install("en")
    report = ada_client.get(reverse("web:report", args=[run.run_id])).content.decode()
    links = set(re.findall(rf'href="/runs/{run.run_id}/evidence/(\w+)/#(q-\w+)"', report))
    assert links
    pages: dict[str, str] = {}
    for source_id, anchor in links:
        if source_id not in pages:
            pages[source_id] = viewer(ada_client, run.run_id, source_id).content.decode()
        assert f'id="{anchor}"' in pages[source_id]


def test_the_stored_text_is_shown_as_text_even_when_it_holds_markup(install, ada_client):
    run = install("en")
    store = store_for(run.run_id)
    src = store.read_model("round_3_notes.json", Notes).ok_sources()[0]
    store.write_text(
        src.page, store.read_text(src.page) + "\n<script>alert('x')</script><b>bold</b>\n"
    )
    html = viewer(ada_client, run.run_id, src.source_id).content.decode()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<script>alert" not in html and "<b>bold</b>" not in html


def test_the_viewer_names_the_source_and_links_its_original_address(install, ada_client):
    run = install("en")
    src = store_for(run.run_id).read_model("round_3_notes.json", Notes).ok_sources()[0]
    html = viewer(ada_client, run.run_id, src.source_id).content.decode()
    assert escape(src.title) in html
    assert (
        f'<a class="url" href="{src.url}" rel="noopener noreferrer" target="_blank">{src.url}</a>'
        in html
    )
    assert reverse("web:report", args=[run.run_id]) in html
    assert "[1]" in html  # its number in the report


def test_a_source_that_could_not_be_read_says_so(install, ada_client):
    run = install("en")
    store = store_for(run.run_id)
    notes = store.read_model("round_3_notes.json", Notes)
    src = notes.sources[0]
    src.status, src.detail, src.page = Outcome.TIMEOUT, "after 20 s", None
    store.write_json("round_3_notes.json", notes)
    html = viewer(ada_client, run.run_id, src.source_id).content.decode()
    assert "No text was stored for this page: TIMEOUT, after 20 s." in html
    assert f'href="{src.url}"' in html


def test_a_source_the_run_never_had_is_a_404(install, ada_client):
    run = install("en")
    assert viewer(ada_client, run.run_id, "s000000000").status_code == 404


def test_a_chinese_source_gets_chinese_labels(install, ada_client):
    run = install("zh")
    src = store_for(run.run_id).read_model("round_3_notes.json", Notes).ok_sources()[0]
    html = viewer(ada_client, run.run_id, src.source_id).content.decode()
    assert '<html lang="zh-Hans">' in html
    assert "返回报告" in html and "原始链接" in html and "本页被引用的原文" in html


# --- highlighting, on plain text ----------------------------------------------------------


def marks(html: str) -> list[str]:
    return re.findall(r"<mark[^>]*>", html)


def test_a_quote_that_occurs_twice_gets_two_marks_and_one_anchor():
    cited = [Cited("same words", "q-a")]
    html = highlight("same words, and later the same words again", cited)
    assert marks(html) == ['<mark class="q" id="q-a">', '<mark class="q" id="q-a-2">']
    assert cited[0].occurrences == 2


def test_a_quote_inside_another_is_nested_in_its_mark():
    cited = [Cited("The whole sentence is cited.", "q-out"), Cited("sentence", "q-in")]
    html = highlight("Before. The whole sentence is cited. After.", cited)
    assert html == (
        'Before. <mark class="q" id="q-out">The whole <mark class="q" id="q-in">sentence</mark>'
        " is cited.</mark> After."
    )


def test_quotes_that_overlap_are_each_marked_from_where_they_start():
    cited = [Cited("one two three", "q-a"), Cited("three four", "q-b")]
    html = highlight("one two three four five", cited)
    assert html == (
        '<mark class="q" id="q-a">one two <mark class="q" id="q-b">three</mark></mark>'
        '<mark class="q cont"> four</mark> five'
    )


def test_markup_in_the_text_and_in_a_quote_is_escaped():
    cited = [Cited("<i>quoted</i>", "q-a")]
    html = highlight("a <b>tag</b> and <i>quoted</i> & more", cited)
    assert html == (
        'a &lt;b&gt;tag&lt;/b&gt; and <mark class="q" id="q-a">&lt;i&gt;quoted&lt;/i&gt;</mark>'
        " &amp; more"
    )


def test_a_quote_the_model_read_says_so_and_carries_the_readers_warning(install, ada_client):
    run = install("en")
    store = store_for(run.run_id)
    check = store.read_model("round_4_crosscheck.json", Crosscheck)
    first = check.claims[0]
    warning = "the stored text reads the other way: “slow” reads as bad"
    changed = [
        c.model_copy(update={"origin": "model", "flag": warning}) if c.quote == first.quote else c
        for c in check.claims
    ]
    store.write_json("round_4_crosscheck.json", check.model_copy(update={"claims": changed}))
    html = viewer(ada_client, run.run_id, first.source_id).content.decode()
    listed = html[: html.index('<mark class="q"')]  # the list of cited quotes above the text
    assert "read by the model" in listed
    assert escape(warning) in listed
    others = [c for c in check.claims if c.source_id != first.source_id]
    if others:
        plain = viewer(ada_client, run.run_id, others[0].source_id).content.decode()
        assert "read by the model" not in plain


def test_the_stored_text_is_shown_without_its_front_matter(install, ada_client):
    run = install("en")
    store = store_for(run.run_id)
    src = store.read_model("round_3_notes.json", Notes).ok_sources()[0]
    stored = store.read_text(src.page)
    assert stored.startswith("---\nsource_id: ")  # what the run keeps on disk
    html = viewer(ada_client, run.run_id, src.source_id).content.decode()
    assert f"source_id: {src.source_id}" not in html
    assert "\n---\n" not in html.split('class="stored', 1)[-1][:2000]
    body = stored.split("\n---\n", 1)[1].strip().splitlines()[0]
    assert body[:30] in html.replace("&#x27;", "'").replace("&quot;", '"')
