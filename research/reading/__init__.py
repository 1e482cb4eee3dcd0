"""The reader: a sentence or table row and the question in, readings out (DESIGN section 2,
"Reading"). Deep-read and cross-validate use it through the names below, and only these;
it knows nothing of them.

- Reader: the careful reader with what it knows of a run; `stances` gives a key point's
  readings (option, dimension, polarity), `about` the options it speaks of.
- extract: the typed facts (licence, version, dates, quantities, status) and stances of one
  sentence; key_points and scored_points: the sentences of a page worth reading.
- Contradictions: typed facts that cannot both hold (source_facts, find_contradictions) and
  sentences that disagree on one point (conflict_statements, find_conflicts), each side a
  claim (statement_contradictions).
- The reader as the check of a model's reading (reader_polarity, typed_value, cue, named_in).
- Who wrote a source (classify), which words signal a dimension (keywords_for), and the text
  helpers the stages share (mentions, terms, discover_aliases).
"""

from __future__ import annotations

import importlib
from typing import Any

# Imported on first use, as each name is asked for: retrieve's plan needs only the lexicon,
# and a process should not load the whole reader before its first search goes out.
_HOMES = {
    **dict.fromkeys(
        ("Fact", "dimension_for", "extract", "licences", "normalise_version", "scope_of"),
        "claims",
    ),
    "not_a_statement": "claims.gate",
    "THRESHOLD": "claims.sureness",
    **dict.fromkeys(("PERMISSIVE", "RESTRICTIVE"), "claims.licences"),
    **dict.fromkeys(("Point", "Reading", "options_spoken_of"), "claims.reading"),
    "results_hits": "claims.results",
    **dict.fromkeys(
        ("conflict_statements", "side_claim", "statement_contradictions"),
        "conflicts.contradictions",
    ),
    **dict.fromkeys(
        ("CHANGE", "SourceFacts", "find_contradictions", "source_facts", "topic_of"),
        "conflicts.facts",
    ),
    **dict.fromkeys(
        ("ALSO", "find_conflicts", "near_conflicts", "option_segments"), "conflicts.sentences"
    ),
    **dict.fromkeys(("Conflict", "Statement"), "conflicts.statements"),
    **dict.fromkeys(
        ("MIN_SCORE", "Scored", "best_points", "key_points", "scored_points"), "keypoints"
    ),
    **dict.fromkeys(("concepts_for", "keywords_for"), "lexicon"),
    "Reader": "reader",
    **dict.fromkeys(("cue", "named_in", "reader_polarity", "typed_value"), "reader_check"),
    **dict.fromkeys(("REVIEW", "SourceKind", "Standing", "classify"), "sourcekind"),
    **dict.fromkeys(
        (
            "AliasFinds",
            "aliases_from",
            "aliases_in",
            "contains_term",
            "discover_aliases",
            "first_mention",
            "has_cjk",
            "mentions",
            "terms",
        ),
        "text",
    ),
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)


__all__ = [
    "ALSO",
    "CHANGE",
    "MIN_SCORE",
    "PERMISSIVE",
    "RESTRICTIVE",
    "REVIEW",
    "THRESHOLD",
    "AliasFinds",
    "Conflict",
    "Fact",
    "Point",
    "Reader",
    "Reading",
    "Scored",
    "SourceFacts",
    "SourceKind",
    "Standing",
    "Statement",
    "aliases_from",
    "aliases_in",
    "best_points",
    "classify",
    "concepts_for",
    "conflict_statements",
    "contains_term",
    "cue",
    "dimension_for",
    "discover_aliases",
    "extract",
    "find_conflicts",
    "find_contradictions",
    "first_mention",
    "has_cjk",
    "key_points",
    "keywords_for",
    "licences",
    "mentions",
    "named_in",
    "near_conflicts",
    "normalise_version",
    "not_a_statement",
    "option_segments",
    "options_spoken_of",
    "reader_polarity",
    "results_hits",
    "scope_of",
    "scored_points",
    "side_claim",
    "source_facts",
    "statement_contradictions",
    "terms",
    "topic_of",
    "typed_value",
]
