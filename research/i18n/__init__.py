"""Every string Verdict writes for people, in one place per language: en.py and zh.py hold
the same tables (the report's words, its pages', and the sentences the stages and the
scores write into a run), key for key. Code asks for a table in the run's language, the
plan's, and fills in the facts: `words(language).DECIDE["top"].format(...)`. Quotes from
sources are never translated.
"""

from __future__ import annotations

from types import ModuleType

from research.i18n import en, zh

LANGUAGES = ("en", "zh")
_TABLES: dict[str, ModuleType] = {"en": en, "zh": zh}


def words(language: str) -> ModuleType:
    """The tables of `language`; English when Verdict has no words in it."""
    return _TABLES.get(language, en)
