from __future__ import annotations

import threading

from research.providers.extract import ExtractedPage, extract_page, normalise, truncate

ARTICLE = """<!doctype html>
<html><head><meta charset="utf-8">
<title>Postgres vs MySQL | DB Weekly</title>
<meta property="og:site_name" content="DB Weekly">
<meta name="date" content="2024-03-15">
</head><body>
<nav><a href="/">Home</a> | <a href="/about">About us</a></nav>
<article><h1>Postgres vs MySQL</h1>
<p>PostgreSQL is released under the PostgreSQL License, a liberal open source licence
similar to BSD or MIT. This makes it a good fit for commercial products.</p>
<h2>Maintenance</h2>
<p>The project ships a major release every year and supports each release for five
years. Commit activity on the main repository stays high.</p>
<ul><li>Licence: permissive</li><li>Cost: free</li></ul>
<p>MySQL is dual licensed under the GPL and a commercial licence from Oracle, which
matters when you embed it.</p></article>
<footer>Copyright 2024 DB Weekly Media</footer>
</body></html>"""

CHINESE = """<html><head><meta {meta}><title>数据库选型</title></head><body><article>
<h1>数据库选型</h1>
<p>PostgreSQL 采用宽松的开源许可证，适合商业产品。</p>
<p>社区每年发布一个大版本，并为每个版本提供五年的支持。</p>
<p>MySQL 采用 GPL 与商业双重许可，嵌入产品时需要注意许可证风险。两个项目的维护都很活跃。</p>
</article></body></html>"""


def extract_html(
    html: str | bytes,
    max_chars: int = 12_000,
    content_type: str = "text/html; charset=utf-8",
    url: str = "https://dbweekly.example/a",
) -> ExtractedPage:
    body = html.encode("utf-8") if isinstance(html, str) else html
    return extract_page(body, content_type, url, max_chars)


def make_pdf(lines: list[str], title: str) -> bytes:
    """A minimal one-page PDF with real text operators, xref offsets computed."""
    shown = " T* ".join(f"({line}) Tj" for line in lines)
    content = f"BT /F1 12 Tf 14 TL 72 720 Td {shown} ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Title (%s) /CreationDate (D:20240315120000Z) >>" % title.encode("latin-1"),
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, obj)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    trailer = b"trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R >>\nstartxref\n%d\n%%%%EOF\n"
    return out + trailer % (len(objects) + 1, xref)


def test_it_extracts_title_date_site_and_markdown_from_an_article() -> None:
    page = extract_html(ARTICLE)
    assert page.title == "Postgres vs MySQL"
    assert page.published == "2024-03-15"
    assert page.site == "DB Weekly"
    assert page.text.startswith("# Postgres vs MySQL")
    assert "## Maintenance" in page.text
    assert "- Licence: permissive" in page.text
    assert not page.truncated
    assert page.chars == len(page.text)


def test_it_leaves_navigation_and_footer_out_of_the_main_text() -> None:
    page = extract_html(ARTICLE)
    assert "About us" not in page.text
    assert "Copyright" not in page.text


def test_it_keeps_sentences_quotable_exactly() -> None:
    page = extract_html(ARTICLE)
    assert "Commit activity on the main repository stays high." in page.text


def test_it_finds_a_date_printed_in_the_page() -> None:
    html = """<html><head><title>Release notes</title></head><body><main>
    <p>Posted on <time datetime="2023-11-02">2 November 2023</time></p>
    <p>Version 4.2 fixes a memory leak in the connection pool and adds support for session
    resumption across worker processes, which lowers handshake latency.</p></main></body></html>"""
    assert extract_html(html).published == "2023-11-02"


def test_it_names_the_site_by_hostname_when_the_page_does_not() -> None:
    page = extract_html("<html><body><p>Just a line.</p></body></html>", url="https://x.example/p")
    assert page.site == "x.example"
    assert page.published is None


def test_it_still_yields_text_for_pages_too_short_for_trafilatura() -> None:
    page = extract_html("<html><body><div>tiny note</div><script>var x = 1;</script></body></html>")
    assert "tiny note" in page.text
    assert "var x" not in page.text


def test_it_reads_xhtml_with_an_xml_declaration() -> None:
    html = '<?xml version="1.0" encoding="utf-8"?>\n' + ARTICLE.split("\n", 1)[1]
    page = extract_html(html, content_type="application/xhtml+xml")
    assert "Commit activity on the main repository stays high." in page.text


def test_it_keeps_utf8_chinese_text() -> None:
    page = extract_html(CHINESE.format(meta='charset="utf-8"'))
    assert page.title == "数据库选型"
    assert "社区每年发布一个大版本，并为每个版本提供五年的支持。" in page.text


def test_it_decodes_a_page_that_declares_gbk_in_a_meta_tag() -> None:
    html = CHINESE.format(meta='http-equiv="Content-Type" content="text/html; charset=gbk"')
    page = extract_html(html.encode("gbk"), content_type="text/html")
    assert page.title == "数据库选型"
    assert "嵌入产品时需要注意许可证风险。" in page.text


def test_it_prefers_the_charset_in_the_content_type_header() -> None:
    html = CHINESE.format(meta='charset="utf-8"')  # the meta tag is wrong, the header right
    page = extract_html(html.encode("gb18030"), content_type="text/html; charset=GB2312")
    assert "两个项目的维护都很活跃。" in page.text


def test_it_guesses_the_encoding_of_an_undeclared_page() -> None:
    html = CHINESE.format(meta='name="robots" content="all"')
    page = extract_html(html.encode("gbk"), content_type="text/html")
    assert "两个项目的维护都很活跃。" in page.text


def test_it_reads_plain_text_in_its_declared_charset() -> None:
    body = "Café crème\n\n\n\n\nsecond paragraph  \r\n".encode("latin-1")
    page = extract_page(body, "text/plain; charset=iso-8859-1", "https://x.example/a.txt", 100)
    assert page.text == "Café crème\n\nsecond paragraph"
    assert page.title == "Café crème"
    assert page.site == "x.example"


def test_it_replaces_undecodable_bytes_in_plain_text() -> None:
    page = extract_page(b"ok \xff then", "text/plain", "https://x.example/a.txt", 100)
    assert page.text == "ok \ufffd then"


def test_it_takes_a_markdown_title_from_the_first_heading() -> None:
    body = b"Intro line\n\n## Licensing ##\n\nMIT licensed."
    page = extract_page(body, "text/markdown", "https://x.example/readme.md", 100)
    assert page.title == "Licensing"
    assert page.text == "Intro line\n\n## Licensing ##\n\nMIT licensed."


def test_it_extracts_text_title_and_date_from_a_pdf() -> None:
    pdf = make_pdf(["Licence: Apache 2.0", "Support: five years"], title="Product sheet")
    page = extract_page(pdf, "application/pdf", "https://x.example/sheet.pdf", 1000)
    assert page.title == "Product sheet"
    assert "Licence: Apache 2.0" in page.text
    assert "Support: five years" in page.text
    assert page.published == "2024-03-15"


def test_it_recognises_a_pdf_served_without_a_content_type() -> None:
    pdf = make_pdf(["Hello from a PDF"], title="t")
    assert "Hello from a PDF" in extract_page(pdf, "", "https://x.example/f", 1000).text


def test_it_returns_no_text_for_a_damaged_pdf_instead_of_raising() -> None:
    page = extract_page(b"%PDF-1.4 this is not a pdf", "application/pdf", "https://x.example/", 100)
    assert page.text == ""
    assert page.chars == 0


def test_it_truncates_at_max_chars_on_a_word_boundary() -> None:
    full = extract_html(ARTICLE).text
    page = extract_html(ARTICLE, max_chars=100)
    assert page.truncated
    assert len(page.text) <= 100
    assert full.startswith(page.text)
    assert full[len(page.text)].isspace()
    assert page.chars == len(page.text)


def test_it_truncates_chinese_text_after_a_sentence_end() -> None:
    text, truncated = truncate("第一句话说完了。第二句话还在继续说下去", 9)
    assert truncated
    assert text == "第一句话说完了。"


def test_it_cuts_hard_when_no_boundary_is_near() -> None:
    assert truncate("a" * 50, 10) == ("a" * 10, True)


def test_it_does_not_mark_text_that_fits_as_truncated() -> None:
    assert truncate("short text", 10) == ("short text", False)


def test_it_collapses_runs_of_blank_lines_and_trailing_spaces() -> None:
    assert normalise("a  \r\n\r\n\r\n\r\nb\n\n\n\nc\n") == "a\n\nb\n\nc"


class Parses:
    """Counts how often the page itself is handed to an HTML parser, by trafilatura, htmldate
    or lxml. (trafilatura's comparison with its readability port parses a serialised copy of
    its cleaned tree, not the page, and is not counted.)"""

    def __init__(self, monkeypatch, page: str) -> None:
        import htmldate.utils
        import lxml.html
        import trafilatura.utils

        self.page = page
        self.count = 0
        self._inside = threading.local()
        for module, name in (
            (trafilatura.utils, "fromstring"),
            (htmldate.utils, "fromstring"),
            (lxml.html, "fromstring"),
            (lxml.html, "document_fromstring"),
        ):
            monkeypatch.setattr(module, name, self._counting(getattr(module, name)))

    def _counting(self, parse):
        def counted(html, *args, **kwargs):
            if getattr(self._inside, "parsing", False):  # lxml's fromstring calls its own
                return parse(html, *args, **kwargs)
            if html in (self.page, self.page.encode()):
                self.count += 1
            self._inside.parsing = True
            try:
                return parse(html, *args, **kwargs)
            finally:
                self._inside.parsing = False

        return counted


UNDATED = """<html><head><title>Release notes</title></head><body><article>
<h1>Release notes</h1><p>Published on 3 February 2026 by the maintainers.</p>
<p>Version 3.2 adds a plugin API and keeps the licence unchanged.</p>
<table><tr><th>version</th><th>licence</th></tr><tr><td>3.2</td><td>MIT</td></tr></table>
</article></body></html>"""


def test_a_page_is_parsed_once_for_its_text_metadata_date_and_tables(monkeypatch) -> None:
    parses = Parses(monkeypatch, UNDATED)
    page = extract_page(UNDATED.encode(), "text/html", "https://notes.example/3-2", 5_000)
    # The date comes from the page's text, so the date search ran on it too.
    assert (page.title, page.published) == ("Release notes", "2026-02-03")
    assert "| 3.2 | MIT |" in page.text
    assert parses.count == 1


def test_a_page_without_main_text_is_still_parsed_once(monkeypatch) -> None:
    html = "<html><head><title>Menu</title></head><body><nav>Home</nav></body></html>"
    parses = Parses(monkeypatch, html)
    page = extract_page(html.encode(), "text/html", "https://notes.example/", 5_000)
    assert (page.title, page.text) == ("Menu", "Home")
    assert parses.count == 1
