"""Plain text stays plain: titles, quotes, the model's words and the user's own question,
options and dimensions are escaped in report.md, and links go to http(s) addresses only."""

from __future__ import annotations

import re
from datetime import date

from markdown_it import MarkdownIt

from decisions.decide import decide, verify_quotes
from reports.check import quoted_in
from reports.markdown import escape, link_address, unescape
from reports.report import render
from reports.sections import ReportInput
from research.artifacts import (
    Candidates,
    Claim,
    Crosscheck,
    Dimension,
    Filtered,
    KeptCandidate,
    Notes,
    Plan,
    SourceNotes,
)
from research.context import StageContext
from research.outcomes import Outcome

QUESTION = "Choose between Fernwick and Gorsebrook [click me](javascript:alert(1)) <b>now</b>"
OPTIONS = ["Fernwick", "Gorse_brook*"]
DIMENSIONS = ["cost <img src=x onerror=alert(2)>", "licence risk"]
PAGES = {
    "s1": (
        "https://fernwick.dev/docs/pricing",
        "<script>alert('title')</script> Fernwick **pricing**",
        "Fernwick is cheap: [free trial](javascript:alert(3)) & <script>x()</script> for cost.",
    ),
    "s2": (
        "file:///srv/notes/gorsebrook_review.md",
        "Gorse_brook* review | notes",
        "Gorse_brook* is expensive in cost, ~~they say~~ `rm -rf`.",
    ),
}


def claim(cid: str, option: str, dimension: str, sid: str, polarity: int) -> Claim:
    return Claim(
        id=cid,
        option=option,
        dimension=dimension,
        attribute="stance",
        kind="stance",
        value="positive" if polarity > 0 else "negative",
        polarity=polarity,
        source_id=sid,
        quote=PAGES[sid][2],
    )


def hostile_report() -> str:
    plan = Plan(
        question=QUESTION,
        options=OPTIONS,
        dimensions=[Dimension(name=d, weight=1.0) for d in DIMENSIONS],
        sources=["local:/srv/notes"],
        queries=[],
    )
    notes = Notes(
        sources=[
            SourceNotes(
                source_id=sid,
                url=url,
                title=title,
                published="2026-01-02",
                site="fernwick.dev" if url.startswith("https") else "local file",
                status=Outcome.OK,
                page=f"round_3_pages/{sid}.md",
            )
            for sid, (url, title, _) in PAGES.items()
        ]
    )
    pages = {sid: text for sid, (_, _, text) in PAGES.items()}
    claims = [
        claim("c1", "Fernwick", DIMENSIONS[0], "s1", +1),
        claim("c2", "Gorse_brook*", DIMENSIONS[0], "s2", -1),
    ]
    ctx = StageContext()
    check = Crosscheck(claims=claims, consensus=[], contradictions=[], gaps=[])
    verified = verify_quotes(check, pages, ctx)
    kept = [
        KeptCandidate(
            id=sid, url=url, title=title, provider="local", query="q", rank=1, score=50, reasons=[]
        )
        for sid, (url, title, _) in PAGES.items()
    ]
    filtered = Filtered(kept=kept, dropped=[])
    today = date(2026, 2, 1)
    decision = decide(plan, notes, Candidates(candidates=[]), verified, 65, ctx, today, filtered)
    data = ReportInput("r1", plan, filtered, notes, verified.crosscheck, decision, pages, today)
    return render(data)


def test_no_title_quote_or_user_string_becomes_markup_in_the_report():
    text = hostile_report()
    html = MarkdownIt("commonmark").enable("table").enable("strikethrough").render(text)

    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "javascript:" not in " ".join(re.findall(r'href="([^"]*)"', html))
    assert "<del>" not in html and "<em>" not in html.split("<h2>Score matrix</h2>")[0]
    # Each shows as the text it is.
    assert "&lt;script&gt;alert('title')&lt;/script&gt; Fernwick **pricing**" in html
    assert "[click me](javascript:alert(1)) &lt;b&gt;now&lt;/b&gt;" in html
    assert "cost &lt;img src=x onerror=alert(2)&gt;" in html


def test_links_go_to_http_addresses_only_and_a_local_file_is_named_instead():
    text = hostile_report()
    links = re.findall(r"(?<!\\)\]\(([^)\s]+)\)", text)  # not an escaped bracket

    assert "https://fernwick.dev/docs/pricing" in links
    assert all(link.startswith(("https://", "round_3_pages/")) for link in links), links
    # A local file is named by its title, never by its path on the server.
    assert "[2] Gorse\\_brook\\* review | notes · comparison · published" in text
    assert "/srv/notes" not in text


def test_every_quote_still_reads_as_the_stored_text_it_cites():
    text = hostile_report()
    quotes = re.findall(r"\[(\d+)\] “(.+)”", text)

    assert quotes
    for n, printed in quotes:
        assert quoted_in(printed, PAGES[f"s{n}"][2])
    assert escape(PAGES["s1"][2]) in text  # escaped where it is printed


def test_escaping_round_trips_and_folds_line_breaks():
    hostile = "a *b* [c](d) <e> `f` _g_ ~h~ &amp; \\ i"
    assert unescape(escape(hostile)) == hostile
    assert escape("one\n# two\r\n\n> three") == "one # two \\> three"


def test_only_http_addresses_make_links():
    assert link_address("https://example.org/a (b)") == "https://example.org/a%20%28b%29"
    for address in ("javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "//x.org"):
        assert link_address(address) is None
