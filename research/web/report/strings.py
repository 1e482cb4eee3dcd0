"""The words the report pages add to the Markdown report's, per language.

Sentences the two share (reasons, contradictions, causes, labels of claims) are the
report's (reports.strings); the pages' own (buttons, legends, headings of their panels) are
the WEB table of research.i18n. `WebStrings` looks in WEB first, then in the report's.
"""

from __future__ import annotations

from typing import Any

from reports.strings import Strings

# Words of the Markdown report the pages print as they are.
_SHARED = (
    "why",
    "would_raise",
    "contradictions",
    "consensus",
    "col_option",
    "col_dimension",
    "col_weight",
    "col_part",
    "col_value",
    "coverage",
    "consistency",
    "timeliness",
    "verifiability",
    "missing_information",
    "nothing_noted",
    "colon",
)


class WebStrings(Strings):
    """`t("key", **facts)`: the page's own words first, then the Markdown report's."""

    def __call__(self, key: str, **params: Any) -> str:
        web = self.words.WEB
        if params.get("count") == 1 and f"{key}_one" in web:
            key = f"{key}_one"
        if key in web:
            return web[key].format(**params)
        return super().__call__(key, **params)

    def labels(self) -> dict[str, str]:
        """The words that take no facts, for templates: `{{ L.download_md }}`."""
        labels = {k: v for k, v in self.words.WEB.items() if "{" not in v}
        for key in _SHARED:
            labels.setdefault(key, self(key))
        # Headings of their own, not lead-ins to a list: "Why:" becomes "Why".
        labels["why"] = labels["why"].rstrip(":：")
        return labels
