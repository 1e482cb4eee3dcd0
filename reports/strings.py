"""The Markdown report's words in one language (the plan's): `t("key", **facts)` in the
report code and its template. The words themselves are gettext messages (research.i18n), with every
other string Verdict writes; the report code and the template never hold English or Chinese
text.
Quotes from sources are never translated.
"""

from __future__ import annotations

from typing import Any

from research.i18n import LANGUAGES, attribute_name, value_name, words

# The report's section headings by section id, per language (reports.check.SECTIONS).
HEADINGS: dict[str, dict[str, str]] = {lang: words(lang).REPORT_HEADINGS for lang in LANGUAGES}


class Strings:
    """The report's words in one language: `t("key", **facts)` in code and template."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else "en"
        self.words = words(self.language)
        self._text = self.words.REPORT

    def __call__(self, key: str, **params: Any) -> str:
        if params.get("count") == 1 and f"{key}_one" in self._text:
            key = f"{key}_one"
        return self._text[key].format(**params)

    def say(self, key: str, params: dict[str, Any]) -> str:
        """A sentence from reports.narrative: section ids become headings and claim
        values are worded in this language."""
        params = dict(params)
        if "section" in params:
            params["section"] = self.heading(params["section"])
        for side in ("a_value", "b_value"):
            if side in params:
                params[side] = self.value(params[side])
        return self(key, **params)

    def heading(self, section: str) -> str:
        return self.words.REPORT_HEADINGS[section]

    def attribute(self, attribute: str) -> str:
        """A claim's attribute as a reader would name it: "release date of 5.0",
        "memory relative to RabbitMQ"; anything not known, as it is."""
        return attribute_name(attribute, self.language)

    def value(self, value: str) -> str:
        return value_name(value, self.language)

    def kind(self, kind: str) -> str:
        return self._text.get(f"kind_{kind}", kind)
