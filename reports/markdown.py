"""Plain text stays plain in the Markdown report.

Search-result titles, quotes, the sites' and the model's words and the user's own question,
options and dimensions are data: printed into Markdown, `<script>` or `[x](javascript:...)`
would become markup. `escape` makes any such string literal text (backslash escapes for the
characters that open inline markup, line breaks folded into spaces so nothing can start a
block), `Md` marks the Markdown this code wrote itself, and `link` lets a link be made only
to an http(s) address. `unescape` gives back the text a reader sees, which is what a quote
is checked against.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

# What can open inline markup mid-line: code, emphasis, links and images, raw HTML and
# autolinks, strikethrough, entities. Everything else is literal mid-line; a | matters only
# in a table's cell (`cell`).
_SPECIAL = re.compile(r"([\\`*_\[\]<>~&])")
_LINE_BREAKS = re.compile(r"[ \t]*[\r\n\u2028\u2029]+[ \t\r\n\u2028\u2029]*")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark: any ASCII punctuation
# Characters left as they are in a link's address; the rest are percent-encoded, so an
# address can neither end the link early nor carry markup.
_URL_SAFE = ":/?#[]@!$&'*+,;=%~-._"


class Md(str):
    """Markdown this code wrote: printed as it is."""


def escape(value: object) -> Md:
    """`value` as literal text on one line of Markdown; Md passes through unchanged."""
    if isinstance(value, Md):
        return value
    return Md(_SPECIAL.sub(r"\\\1", fold_lines(str(value))))


def cell(value: object) -> Md:
    """`value` as literal text in a table cell."""
    return Md(escape(value).replace("|", "\\|"))


def fold_lines(text: str) -> str:
    """Each line break, with the spaces around it, as one space."""
    return _LINE_BREAKS.sub(" ", text)


def unescape(text: str) -> str:
    """The text a reader sees in escaped Markdown."""
    return _ESCAPED.sub(r"\1", text)


def link_address(url: str) -> Md | None:
    """An http(s) address as a link's destination, or None for anything else."""
    text = url.strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return Md(quote(text, safe=_URL_SAFE))
