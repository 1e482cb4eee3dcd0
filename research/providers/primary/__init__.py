"""Primary sources: registries, repositories, encyclopaedias, papers and trials.

Each provider answers `lookup(Subject) -> PrimaryResult`: an outcome (OK, NO_HIT, or why it
could not look), the records it stored (Markdown documents that stand for the pages) and
typed facts that each quote one line of a record. `build_primary(name)` makes one from
the settings; `PrimarySearch` puts the search services behind the SearchProvider interface.
"""

from __future__ import annotations

import importlib
from typing import Any

# Imported on first use: the settings read research.providers.primary.config at every
# start, and a process that asks no primary source need not load the clients.
_HOMES = {
    "PrimaryProvider": "base",
    **dict.fromkeys(
        ("Gap", "PrimaryFact", "PrimaryRecord", "PrimaryResult", "SourceKind", "Subject"),
        "records",
    ),
    **dict.fromkeys(
        (
            "ANSWERS",
            "LABELS",
            "NAMES",
            "SEARCHABLE",
            "PrimarySearch",
            "UnknownPrimarySource",
            "build_primary",
            "parse_spec",
        ),
        "registry",
    ),
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)


__all__ = [
    "ANSWERS",
    "LABELS",
    "NAMES",
    "SEARCHABLE",
    "Gap",
    "PrimaryFact",
    "PrimaryProvider",
    "PrimaryRecord",
    "PrimaryResult",
    "PrimarySearch",
    "SourceKind",
    "Subject",
    "UnknownPrimarySource",
    "build_primary",
    "parse_spec",
]
