"""Sniffing: a body is checked for what it really is, whatever it was served as."""

from __future__ import annotations

import gzip
import random

import pytest

from research.outcomes import Outcome
from research.providers.fetch import ACCEPTED_TYPES
from research.providers.sniff import sniff

PDF_BYTES = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
WITHOUT_PDF = ACCEPTED_TYPES - {"application/pdf"}


def random_bytes(size: int = 4096) -> bytes:
    return random.Random(8).randbytes(size)


def test_a_pdf_served_as_html_is_read_as_a_pdf_when_pdfs_are_accepted() -> None:
    found = sniff(PDF_BYTES, "text/html; charset=utf-8", ACCEPTED_TYPES)

    assert (found.outcome, found.content_type) == (Outcome.OK, "application/pdf")
    assert found.detail == "served as text/html, read as the PDF it is"


def test_a_pdf_served_as_html_is_refused_when_pdfs_are_not_accepted() -> None:
    found = sniff(PDF_BYTES, "text/html", WITHOUT_PDF)

    assert found.outcome is Outcome.BLOCKED
    assert found.detail == "the body is a PDF, served as text/html; PDFs are refused"


@pytest.mark.parametrize(
    ("body", "what"),
    [
        (b"\x89PNG\r\n\x1a\n" + bytes(64), "a PNG image"),
        (b"\xff\xd8\xff\xe0" + bytes(64), "a JPEG image"),
        (b"GIF89a" + bytes(64), "a GIF image"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "a WebP image"),
        (b"PK\x03\x04" + bytes(64), "a ZIP archive (or an Office document)"),
        (b"\x7fELF\x02\x01\x01" + bytes(64), "an ELF executable"),
        (b"MZ\x90\x00\x03\x00\x00\x00" + bytes(64), "a Windows executable"),
        (gzip.compress(b"<html>hello</html>", mtime=0), "gzip-compressed data"),
        (b"SQLite format 3\x00" + bytes(64), "an SQLite database"),
    ],
)
def test_binary_formats_served_as_text_are_refused_by_their_magic_bytes(
    body: bytes, what: str
) -> None:
    found = sniff(body, "text/html", ACCEPTED_TYPES)

    assert found.outcome is Outcome.BLOCKED
    assert found.detail == f"the body is {what}, served as text/html"


@pytest.mark.parametrize("declared", ["text/html", "text/plain; charset=utf-8", ""])
def test_random_bytes_served_as_text_are_refused(declared: str) -> None:
    found = sniff(random_bytes(), declared, ACCEPTED_TYPES)

    assert found.outcome is Outcome.BLOCKED
    assert "control bytes" in found.detail or "content type missing" in found.detail


def test_text_that_decodes_but_is_not_readable_is_no_hit() -> None:
    unreadable = ("\ue000\u200b" * 500 + "ok").encode("utf-8")  # private-use and zero-width

    found = sniff(unreadable, "text/plain; charset=utf-8", ACCEPTED_TYPES)

    assert found.outcome is Outcome.NO_HIT
    assert found.detail.startswith("no readable text: only 0% of it is printable")


def test_an_empty_body_is_no_hit() -> None:
    found = sniff(b"  \n", "text/html", ACCEPTED_TYPES)

    assert (found.outcome, found.detail) == (Outcome.NO_HIT, "no readable text: the body is empty")


def test_text_in_a_charset_other_than_the_declared_one_is_read_in_the_one_that_decodes_it() -> None:
    text = "河图引擎采用 Apache-2.0 许可证，商业使用的法律风险较低。" * 20

    found = sniff(text.encode("gb18030"), "text/plain; charset=utf-8", ACCEPTED_TYPES)

    assert found.outcome is Outcome.OK
    charset = found.content_type.partition("charset=")[2]
    assert text.encode("gb18030").decode(charset) == text


def test_a_meta_charset_is_honoured_for_html() -> None:
    page = '<html><head><meta charset="gbk"></head><body>许可证说明</body></html>'

    found = sniff(page.encode("gbk"), "text/html", ACCEPTED_TYPES)

    assert (found.outcome, found.content_type) == (Outcome.OK, "text/html; charset=gb18030")


def test_utf16_with_a_byte_order_mark_is_text_despite_its_zero_bytes() -> None:
    body = "Quillnote is MIT licensed.".encode("utf-16")

    found = sniff(body, "text/plain", ACCEPTED_TYPES)

    assert (found.outcome, found.content_type) == (Outcome.OK, "text/plain; charset=utf-16")


def test_html_served_as_a_pdf_is_read_as_html() -> None:
    found = sniff(b"<!DOCTYPE html><html><p>Sign in</p></html>", "application/pdf", ACCEPTED_TYPES)

    assert (found.outcome, found.content_type) == (Outcome.OK, "text/html; charset=utf-8")
    assert found.detail == "served as application/pdf, read as text/html"


def test_plain_text_served_as_a_pdf_is_refused() -> None:
    found = sniff(b"just some words", "application/pdf", ACCEPTED_TYPES)

    assert found.outcome is Outcome.BLOCKED
    assert found.detail == "the body is not a PDF, served as application/pdf"


def test_a_body_without_a_type_is_accepted_only_when_it_shows_one() -> None:
    html = sniff(b"<!doctype html><html><p>hi</p></html>", "", ACCEPTED_TYPES)
    plain = sniff(b"hello there", "", ACCEPTED_TYPES)

    assert (html.outcome, html.content_type) == (Outcome.OK, "text/html; charset=utf-8")
    assert (plain.outcome, plain.detail) == (Outcome.BLOCKED, "content type missing")


def test_ordinary_pages_pass_unchanged() -> None:
    found = sniff(b"<html><p>Hello, world.</p></html>", "text/html; charset=utf-8", ACCEPTED_TYPES)

    assert (found.outcome, found.content_type, found.detail) == (
        Outcome.OK,
        "text/html; charset=utf-8",
        "",
    )
