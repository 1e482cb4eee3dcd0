"""A person's own documents: files they upload and pages they add by URL.

Each user has one folder, VAR_DIR/uploads/<user id>/, searched as a `local:` source named
"mine" that only that user's questions can choose (research.sources.available_sources).
What goes in is checked like any local file: a type the local search reads (.pdf, .md,
.html, .txt, checked on the bytes, not only the name), at most LOCAL_MAX_BYTES, not empty,
and a plain file name (no folder, no "..", valid UTF-8). A page added by URL is fetched
through the guarded fetcher and stored as a document that names its URL.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext

from research.outcomes import Outcome
from research.providers.documents import ACCEPTED, LOCAL_TYPES
from research.providers.sniff import PDF, media_type_of, sniff

SOURCE_NAME = "mine"
MAX_NAME_CHARS = 120
_SAFE_NAME = re.compile(r"[^\w.\- ]+", re.UNICODE)
_SUFFIX_FOR = {"text/html": ".html", "application/xhtml+xml": ".html", PDF: ".pdf"}


class UploadRefused(ValueError):
    """A document that is not stored, and why, in words for the person who sent it."""


@dataclass(frozen=True)
class StoredDocument:
    name: str
    size: int
    asked_for: str = ""  # the name it was sent with, when it is stored under another


def folder_for(user) -> Path:
    return Path(settings.VAR_DIR) / "uploads" / str(int(user.pk))


def documents(user) -> list[StoredDocument]:
    folder = folder_for(user)
    if not folder.is_dir():
        return []
    found = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_file(follow_symlinks=False):
            found.append(StoredDocument(entry.name, entry.stat(follow_symlinks=False).st_size))
    return found


def spec_for(user) -> str | None:
    """The `local:` spec of the user's documents, or None while they have none."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return f"local:{folder_for(user)}" if documents(user) else None


def max_bytes() -> int:
    return int(settings.LOCAL_MAX_BYTES)


def clean_name(raw: str | bytes) -> str:
    """The name a document is stored under; UploadRefused when it cannot be used."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UploadRefused(
                gettext("The file name is not valid UTF-8; rename the file.")
            ) from None
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise UploadRefused(gettext("The file name is not valid UTF-8; rename the file.")) from None
    name = unicodedata.normalize("NFC", raw).strip()
    if not name or "/" in name or "\\" in name or name in (".", "..") or name.startswith("."):
        raise UploadRefused(
            gettext("The file name %(name)r is not a plain file name.") % {"name": raw}
        )
    if "\x00" in name or any(unicodedata.category(c) == "Cc" for c in name):
        raise UploadRefused(
            gettext("The file name %(name)r is not a plain file name.") % {"name": raw}
        )
    if len(name) > MAX_NAME_CHARS:
        raise UploadRefused(
            gettext("The file name is longer than %(count)d characters.")
            % {"count": MAX_NAME_CHARS}
        )
    if Path(name).suffix.lower() not in LOCAL_TYPES:
        raise UploadRefused(_wrong_type(name))
    return name


def _wrong_type(name: str) -> str:
    return gettext(
        "%(name)s is not a document the search can read: upload a PDF, Markdown, HTML or "
        "text file (.pdf, .md, .html, .txt)."
    ) % {"name": name}


def check_body(name: str, data: bytes) -> None:
    if not data:
        raise UploadRefused(gettext("%(name)s is empty.") % {"name": name})
    if len(data) > max_bytes():
        raise UploadRefused(
            gettext("%(name)s is %(size)s bytes, over the %(limit)s-byte limit.")
            % {"name": name, "size": f"{len(data):,}", "limit": f"{max_bytes():,}"}
        )
    declared = LOCAL_TYPES[Path(name).suffix.lower()]
    sniffed = sniff(data, declared, ACCEPTED)
    if sniffed.outcome is not Outcome.OK:
        raise UploadRefused(_wrong_type(name))
    if (media_type_of(sniffed.content_type) == PDF) != (declared == PDF):
        raise UploadRefused(_wrong_type(name))


def check_room(user, name: str, size: int, replacing: bool = False) -> None:
    """Refuse a document that would take the user past UPLOADS_PER_USER documents or
    UPLOAD_BYTES_PER_USER bytes; one that replaces a document of the same name counts only
    the difference."""
    others = [d for d in documents(user) if not (replacing and d.name == name)]
    most = settings.UPLOADS_PER_USER
    if len(others) >= most:
        raise UploadRefused(
            gettext("You keep %(most)s documents, the most you may: delete one to add %(name)s.")
            % {"most": f"{most:,}", "name": name}
        )
    room = settings.UPLOAD_BYTES_PER_USER - sum(d.size for d in others)
    if size > room:
        raise UploadRefused(
            gettext(
                "%(name)s does not fit: your documents may take %(limit)s bytes in all and "
                "%(room)s are free. Delete some to make room."
            )
            % {
                "name": name,
                "limit": f"{settings.UPLOAD_BYTES_PER_USER:,}",
                "room": f"{max(0, room):,}",
            }
        )


def save(user, raw_name: str | bytes, data: bytes, *, replace: bool = False) -> StoredDocument:
    """Store one uploaded document. One of the same name is kept: the new one takes the next
    free name ("notes (2).md") and says so in `asked_for`, unless `replace` is set."""
    name = clean_name(raw_name)
    check_body(name, data)
    check_room(user, name, len(data), replacing=replace)
    folder = folder_for(user)
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".{name}.part"
    partial.write_bytes(data)
    try:
        if replace:
            os.replace(partial, folder / name)
            return StoredDocument(name, len(data))
        stored = _link_under_a_free_name(partial, name)
    finally:
        partial.unlink(missing_ok=True)
    return StoredDocument(stored, len(data), asked_for=name if stored != name else "")


def _link_under_a_free_name(partial: Path, name: str) -> str:
    # A hard link fails rather than replace: two uploads of one name at once keep both.
    stem, suffix = Path(name).stem, Path(name).suffix
    for n in range(1, 1000):
        candidate = name if n == 1 else f"{stem} ({n}){suffix}"
        if len(candidate) > MAX_NAME_CHARS:
            candidate = f"{stem[: MAX_NAME_CHARS - len(suffix) - 8]} ({n}){suffix}"
        try:
            os.link(partial, partial.parent / candidate)
        except FileExistsError:
            continue
        return candidate
    raise UploadRefused(gettext("You already have too many files named %(name)s.") % {"name": name})


def save_url(user, url: str, fetcher=None) -> StoredDocument:
    """Fetch `url` through the guarded fetcher and store the page as a document."""
    from research.providers.fetch import HttpFetcher

    url = (url or "").strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UploadRefused(gettext("%(url)r is not an http(s) address.") % {"url": url})
    result = (fetcher or HttpFetcher.from_settings()).fetch(url)
    if result.outcome is not Outcome.OK or not result.body:
        raise UploadRefused(
            gettext("%(url)s could not be fetched: %(why)s.")
            % {"url": url, "why": result.detail or result.outcome}
        )
    sniffed = sniff(result.body, result.content_type, ACCEPTED)
    if sniffed.outcome is not Outcome.OK:
        raise UploadRefused(
            gettext("%(url)s is not a document the search can read.") % {"url": url}
        )
    media = media_type_of(sniffed.content_type)
    suffix = _SUFFIX_FOR.get(media, ".txt" if media == "text/plain" else ".md")
    stem = _SAFE_NAME.sub("-", f"{parts.hostname}{parts.path}").strip("-. ")[:80] or "page"
    name = f"{stem}{suffix}"
    body = result.body
    if media not in _SUFFIX_FOR:
        # Text keeps the address it came from, so the report cites the page, not a file.
        body = f"---\nurl: {result.final_url or url}\n---\n".encode() + body
    elif suffix == ".html":
        body = f'<link rel="canonical" href="{result.final_url or url}">\n'.encode() + body
    return save(user, name, body, replace=True)  # the same page again: its newer copy


def delete(user, name: str) -> bool:
    """Remove one of the user's documents; False when they have none by that name."""
    try:
        name = clean_name(name)
    except UploadRefused:
        return False
    path = folder_for(user) / name
    if not path.is_file() or path.is_symlink():
        return False
    path.unlink()
    return True
