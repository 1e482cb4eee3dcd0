"""What a body really is, whatever it was served or named as (DESIGN sections 3 and 4).

A Content-Type header or a file extension is a claim. Before any text is extracted, the
body is checked: magic bytes first (a PDF, a ZIP archive, an executable, an image,
compressed data), then whether it decodes as text in its declared or detected charset,
then what share of it is printable. A PDF served as text/html is read as a PDF when PDFs
are accepted; binary data served as text is refused; text nobody can read is no hit.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from charset_normalizer import from_bytes

from research.outcomes import Outcome

PDF = "application/pdf"
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
TEXT_TYPES = frozenset({*HTML_TYPES, "text/plain", "text/markdown"})
SAMPLE_BYTES = 65_536  # enough of a body to judge it; detection on megabytes is slow
MAX_CONTROL_SHARE = 0.02  # text has next to no C0 control bytes; random data has ~10%
MIN_PRINTABLE_SHARE = 0.9
MAX_REPLACEMENT_SHARE = 0.02  # undecodable bytes tolerated before detecting a charset

# (signature, offset, what it is). Offsets are where the signature starts.
_MAGIC: tuple[tuple[bytes, int, str], ...] = (
    (b"PK\x03\x04", 0, "a ZIP archive (or an Office document)"),
    (b"PK\x05\x06", 0, "an empty ZIP archive"),
    (b"\x7fELF", 0, "an ELF executable"),
    (b"\xcf\xfa\xed\xfe", 0, "a Mach-O executable"),
    (b"\xce\xfa\xed\xfe", 0, "a Mach-O executable"),
    (b"\xca\xfe\xba\xbe", 0, "a Java class or Mach-O file"),
    (b"\x00asm", 0, "a WebAssembly module"),
    (b"\x89PNG\r\n\x1a\n", 0, "a PNG image"),
    (b"\xff\xd8\xff", 0, "a JPEG image"),
    (b"GIF87a", 0, "a GIF image"),
    (b"GIF89a", 0, "a GIF image"),
    (b"WEBP", 8, "a WebP image"),
    (b"II*\x00", 0, "a TIFF image"),
    (b"MM\x00*", 0, "a TIFF image"),
    (b"\x00\x00\x01\x00", 0, "an icon"),
    (b"ftyp", 4, "an MP4 or QuickTime video"),
    (b"\x1aE\xdf\xa3", 0, "a Matroska or WebM video"),
    (b"OggS", 0, "an Ogg media file"),
    (b"ID3", 0, "an MP3 audio file"),
    (b"fLaC", 0, "a FLAC audio file"),
    (b"\x1f\x8b", 0, "gzip-compressed data"),
    (b"\xfd7zXZ\x00", 0, "xz-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", 0, "a 7-Zip archive"),
    (b"\x28\xb5\x2f\xfd", 0, "zstd-compressed data"),
    (b"Rar!\x1a\x07", 0, "a RAR archive"),
    (b"SQLite format 3\x00", 0, "an SQLite database"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", 0, "an old Microsoft Office document"),
)
_BZIP2 = re.compile(rb"\ABZh[1-9]1AY&SY")
_WINDOWS_EXE = re.compile(rb"\AMZ[\x00-\xff]{0,62}\x00")  # "MZ" plus binary header bytes
_HTML_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*<(?:!doctype\s+html|html|head|body)\b", re.I)
_PDF_START = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*%PDF-")
_TEXT_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"))
_TEXT_BOMS += ((b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"), (b"\xef\xbb\xbf", "utf-8-sig"))
_CONTROL = bytes(b for b in range(0x20) if b not in b"\t\n\r\f\v\x1b") + b"\x7f"
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
_CHARSET_PARAM = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
# Browsers decode these labels with GB18030, a superset of both.
_CHARSET_ALIASES = {"gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030"}


@dataclass(frozen=True)
class Sniffed:
    outcome: Outcome  # OK, BLOCKED (type refused) or NO_HIT (no readable text)
    content_type: str = ""  # what to read the body as, with the charset that decodes it
    detail: str = ""  # the reason for a refusal, or how a mislabelled body was read


def sniff(body: bytes, declared: str, accept: Collection[str]) -> Sniffed:
    """Check `body` against its declared Content-Type ("" when none was given)."""
    declared_type = media_type_of(declared)
    served = f"served as {declared_type}" if declared_type else "served without a type"
    if _PDF_START.match(body[:1024]):
        return _pdf(declared_type, served, accept)
    binary = binary_kind(body)
    if binary is not None:
        return Sniffed(Outcome.BLOCKED, detail=f"the body is {binary}, {served}")
    return _text(body, declared, declared_type, served, accept)


def _pdf(declared_type: str, served: str, accept: Collection[str]) -> Sniffed:
    if PDF not in accept:
        return Sniffed(Outcome.BLOCKED, detail=f"the body is a PDF, {served}; PDFs are refused")
    detail = "" if declared_type == PDF else f"{served}, read as the PDF it is"
    return Sniffed(Outcome.OK, PDF, detail)


def binary_kind(body: bytes) -> str | None:
    """What binary format `body` starts with, if any."""
    for signature, offset, what in _MAGIC:
        if body[offset : offset + len(signature)] == signature:
            return what
    if _BZIP2.match(body):
        return "bzip2-compressed data"
    if _WINDOWS_EXE.match(body):
        return "a Windows executable"
    return None


def _text(
    body: bytes, declared: str, declared_type: str, served: str, accept: Collection[str]
) -> Sniffed:
    media_type = _text_type(body, declared_type)
    if media_type is None:
        detail = f"the body is not a PDF, {served}" if declared_type == PDF else ""
        return Sniffed(Outcome.BLOCKED, detail=detail or "content type missing")
    if media_type not in accept:
        return Sniffed(Outcome.BLOCKED, detail=f"content type {media_type} refused")
    if not body.strip():
        return Sniffed(Outcome.NO_HIT, detail="no readable text: the body is empty")
    sample = body[:SAMPLE_BYTES]
    bom = _bom_charset(sample)
    control = 0.0 if bom else _control_share(sample)
    if control > MAX_CONTROL_SHARE:
        return Sniffed(
            Outcome.BLOCKED, detail=f"binary data {served} ({control:.0%} control bytes)"
        )
    decoded = _decode(sample, bom or _declared_charset(declared, sample, media_type))
    if decoded is None:
        return Sniffed(Outcome.BLOCKED, detail=f"not decodable as text, {served}")
    text, charset = decoded
    printable = printable_share(text)
    if printable < MIN_PRINTABLE_SHARE:
        return Sniffed(
            Outcome.NO_HIT, detail=f"no readable text: only {printable:.0%} of it is printable"
        )
    relabelled = _relabelled(declared_type, media_type)
    return Sniffed(Outcome.OK, f"{media_type}; charset={charset}", relabelled)


def _text_type(body: bytes, declared_type: str) -> str | None:
    """The text type to read `body` as: the declared one, else what the body shows."""
    looks_html = bool(_HTML_START.match(body[:1024]))
    if declared_type in TEXT_TYPES or declared_type.startswith("text/"):
        return declared_type
    if looks_html:  # no type, or a page served as application/pdf or octet-stream
        return "text/html"
    return None


def _relabelled(declared_type: str, media_type: str) -> str:
    if not declared_type or declared_type == media_type:
        return ""
    return f"served as {declared_type}, read as {media_type}"


def _bom_charset(sample: bytes) -> str | None:
    return next((name for bom, name in _TEXT_BOMS if sample.startswith(bom)), None)


def _control_share(sample: bytes) -> float:
    return (len(sample) - len(sample.translate(None, _CONTROL))) / max(1, len(sample))


def _declared_charset(declared: str, sample: bytes, media_type: str) -> str | None:
    match = _CHARSET_PARAM.search(declared)
    if match is None and media_type in HTML_TYPES:
        meta = _META_CHARSET.search(sample[:4096])
        return normalise_charset(meta.group(1).decode("ascii")) if meta else None
    return normalise_charset(match.group(1)) if match else None


def normalise_charset(name: str) -> str:
    name = name.strip().lower()
    return _CHARSET_ALIASES.get(name, name)


def _decode(sample: bytes, charset: str | None) -> tuple[str, str] | None:
    """The sample as text and the charset that decodes it: the declared one, UTF-8, or
    what detection finds. None when nothing decodes it cleanly."""
    for candidate in dict.fromkeys(c for c in (charset, "utf-8") if c):
        text = _try_decode(sample, candidate)
        if text is not None:
            return text, candidate
    best = from_bytes(sample).best()
    if best is None or best.encoding is None:
        return None
    return str(best), normalise_charset(best.encoding)


def _try_decode(sample: bytes, charset: str) -> str | None:
    try:
        text = sample.decode(charset, errors="replace")
    except LookupError:
        return None
    # A multi-byte character cut off at the sample's end is not a decoding error.
    replaced = text[:-1].count("\ufffd") if len(sample) == SAMPLE_BYTES else text.count("\ufffd")
    return text if replaced <= MAX_REPLACEMENT_SHARE * max(1, len(text)) else None


def printable_share(text: str) -> float:
    """The share of characters (whitespace aside) a reader could read."""
    visible = [ch for ch in text if not ch.isspace()]
    if not visible:
        return 0.0
    readable = sum(1 for ch in visible if ch.isprintable() and ch != "\ufffd")
    return readable / len(visible)


def media_type_of(content_type: str) -> str:
    """ "text/html; charset=utf-8" -> "text/html"."""
    return content_type.split(";", 1)[0].strip().lower()
