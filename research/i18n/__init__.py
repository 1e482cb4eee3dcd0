"""Every string Verdict writes for people goes through Django's gettext: English in the code
and the templates, Chinese in locale/zh_Hans/LC_MESSAGES/django.po (compiled by
research.i18n.build). The site's own pages follow the browser or the header's switch
(LocaleMiddleware); what belongs to a run (its pages, its report, the notes its stages
write) is in the question's language, the plan's "en" or "zh".

The sentences of a run are message ids in research.i18n.messages, by the part that writes
them; `words(language).DECIDE["top"]` is that sentence translated into `language`, ready
for `.format(...)`. Quotes from sources are never translated.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.utils import translation

from research.i18n import messages

LANGUAGES = ("en", "zh")
# A plan's language, as Django names it.
DJANGO_LANGUAGE = {"en": "en", "zh": "zh-hans"}


def django_language(language: str) -> str:
    """Django's name for a plan's language ("zh" is zh-hans); English for anything else."""
    return DJANGO_LANGUAGE.get(language, "en")


def in_language(language: str) -> translation.override:
    """`with in_language(plan.language):` gettext and ngettext speak a plan's language."""
    return translation.override(django_language(language))


class _Translated(Mapping[str, Any]):
    """One part's sentences, each translated into one language when it is looked up."""

    def __init__(self, table: Mapping[str, Any], language: str) -> None:
        self._table = table
        self._language = language

    def __getitem__(self, key: str) -> Any:
        return self._translate(self._table[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def _translate(self, value: Any) -> Any:
        if isinstance(value, str):
            with translation.override(self._language):
                return translation.gettext(value)
        if isinstance(value, Mapping):
            return {k: self._translate(v) for k, v in value.items()}
        return value


class Words:
    """The sentences of research.i18n.messages in one language: `words("zh").REPORT["title"]`."""

    def __init__(self, language: str) -> None:
        self.language = django_language(language)

    def __getattr__(self, part: str) -> Any:
        table = getattr(messages, part)
        if isinstance(table, Mapping):
            return _Translated(table, self.language)
        if part == "ATTRIBUTE_FORMS":
            with translation.override(self.language):
                return [(pattern, translation.gettext(w)) for pattern, w in table]
        return table


def words(language: str) -> Words:
    """The sentences in `language`; English when Verdict has no words in it."""
    return Words(language)


def attribute_name(attribute: str, language: str) -> str:
    """A claim's attribute as a reader would name it in `language`: "release date of 5.0",
    "memory relative to RabbitMQ", "许可证"; anything not known, as it is."""
    said = words(language)
    for pattern, wording in said.ATTRIBUTE_FORMS:
        if match := pattern.fullmatch(attribute):
            return wording.format(*match.groups())
    names = said.ATTRIBUTES
    for key in sorted(names, key=len, reverse=True):
        if attribute == key or attribute.startswith((key + " ", key + "_")):
            return names[key] + attribute[len(key) :].replace("_", " ")
    return attribute.replace("_", " ")


def value_name(value: str, language: str) -> str:
    """A claim's value in words: a stance or a status; a licence name or a number as it is."""
    values = words(language).VALUES
    return values.get(value, value)
