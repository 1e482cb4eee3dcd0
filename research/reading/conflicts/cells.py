"""A comparison table's cell as the plain statement it makes about its option, so that a
row can be set against a sentence elsewhere, or against another table's row, with the
same readers of denials and figures.

"| Result storage | No | Yes |" says of the first option "it has no result storage"; a
"Yes", a tick or "built-in" says it has it; "Optional" says it can have it. Any other cell
is its row's measure and value ("Broker: Redis, RabbitMQ").
"""

from __future__ import annotations

import re

from research.reading.keypoints import clean
from research.reading.text import has_cjk

_YES = re.compile(
    r"^(?:yes|y|true|supported|available|built-?in|native(?:ly)?|included|[✓✔✅☑√]|"
    r"支持|内置|内建|原生|有|是)(?:\b|$|[\s(（,，;；])",
    re.I,
)
_NO = re.compile(
    r"^(?:no|n|false|none|unsupported|not (?:supported|available|built-?in)|"
    r"none built-?in|[✗✘✕×❌]|不支持|无|没有|否)(?:\b|$|[\s(（,，;；])",
    re.I,
)
_OPTIONAL = re.compile(
    r"^(?:optional(?:ly)?|partial(?:ly)?|via (?:a )?plugins?|with (?:a )?plugins?|"
    r"可选|部分支持|插件)(?:\b|$|[\s(（,，;；])",
    re.I,
)
_MARKUP = re.compile(r"[*_`]+")


def cell_says(cell: str) -> str | None:
    """ "yes", "no" or "optional" for a cell that answers its row, else None."""
    text = _MARKUP.sub("", cell).strip()
    if _NO.match(text):
        return "no"
    if _OPTIONAL.match(text):
        return "optional"
    if _YES.match(text):
        return "yes"
    return None


def cell_statement(option: str, header: str, cell: str) -> str:
    """The cell as a sentence about its option: "Quillsync has no offline mode.",
    "Quillsync 不支持离线模式。", or "Offline mode: a plugin." for any other value."""
    header = _MARKUP.sub("", header).strip().rstrip(":：")
    says = cell_says(cell)
    if says is None:
        return f"{header}: {_MARKUP.sub('', cell).strip()}"
    if has_cjk(header):
        verb = {"yes": "支持", "no": "不支持", "optional": "可选支持"}[says]
        return f"{option}{verb}{header}。"
    verb = {"yes": "has", "no": "has no", "optional": "optionally has"}[says]
    return f"{option} {verb} {header.lower()}."


def table_cell(header: str | None, text: str, quote: str) -> str | None:
    """The cell of a key point that quotes a whole table row (its text is "header: cell"),
    else None: a pros/cons item quotes itself and reads as a sentence."""
    if not header:
        return None
    lead = f"{clean(header)}: "
    if not text.startswith(lead):
        return None
    cell = text[len(lead) :]
    return None if cell == clean(quote) else cell


def row_key(header: str) -> str:
    """A row's label as two tables would both write it: "**Reliable delivery:**" and
    "reliable delivery" are one row."""
    words = re.findall(r"[^\W_]+", _MARKUP.sub("", header).lower())
    return " ".join(
        w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w for w in words
    )


def answers_differ(a: str | None, b: str | None) -> bool:
    """Two cells that cannot both hold: one has it (or can have it), the other has not."""
    return {a, b} in ({"yes", "no"}, {"optional", "no"})
