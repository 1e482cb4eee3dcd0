"""Primary sources: registries, repositories, encyclopaedias, papers and trials.

Each provider answers `lookup(Subject) -> PrimaryResult`: an outcome (OK, NO_HIT, or why it
could not look), the records it stored (Markdown documents that stand for the pages) and
typed facts that each quote one line of a record. `build_primary(name)` makes one from
the settings; `PrimarySearch` puts the search services behind the SearchProvider interface.
"""

from research.providers.primary.base import PrimaryProvider
from research.providers.primary.records import (
    Gap,
    PrimaryFact,
    PrimaryRecord,
    PrimaryResult,
    SourceKind,
    Subject,
)
from research.providers.primary.registry import (
    ANSWERS,
    LABELS,
    NAMES,
    SEARCHABLE,
    PrimarySearch,
    UnknownPrimarySource,
    build_primary,
    parse_spec,
)

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
