"""The question form: turns what a person typed into the Submission submit_question takes.

It only splits text into lists. Whether a question is valid (its length, the options, the
weights, the sources, the limits) is decided by research.services.submit_question, so the
web, the CLI and MCP give the same answer in the same words; this form shows its messages
next to the fields they are about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from research import bounds
from research.questions import LIMIT_RULES, Submission
from research.sources import KIND_LABELS, kind_of
from research.stages.plan import DEFAULT_PRESET, PRESETS

CUSTOM = "custom"
BLANK_ROWS = 5  # custom dimension rows offered without JavaScript
PRESET_LABELS = {
    "tech": gettext_lazy("Technology choice"),
    "procurement": gettext_lazy("Procurement"),
    "clinical": gettext_lazy("Clinical (asks ClinicalTrials.gov and Europe PMC)"),
}
# The preset dimensions' names as the form shows them (the plan gets the English ones).
DIMENSION_NAMES = {
    "cost": gettext_lazy("cost"),
    "learning curve": gettext_lazy("learning curve"),
    "community activity": gettext_lazy("community activity"),
    "extensibility": gettext_lazy("extensibility"),
    "risk": gettext_lazy("risk"),
    "price": gettext_lazy("price"),
    "delivery time": gettext_lazy("delivery time"),
    "after-sales support": gettext_lazy("after-sales support"),
    "compliance": gettext_lazy("compliance"),
    "replaceability": gettext_lazy("replaceability"),
    "efficacy": gettext_lazy("efficacy"),
    "safety": gettext_lazy("safety"),
    "trial results": gettext_lazy("trial results"),
}
_OPTION_SPLIT = re.compile(r"[\n,，、;；]")
LIMIT_HINTS = {
    "max_candidates": gettext_lazy("search results gathered before filtering"),
    "max_kept": gettext_lazy("the most relevant candidates kept after filtering"),
    "min_kept": gettext_lazy("below this, retrieve searches again with broader queries"),
    "max_pages": gettext_lazy("kept sources read in full"),
    "max_page_chars": gettext_lazy("read from each page"),
}


@dataclass(frozen=True)
class Row:
    name: str
    weight: str


@dataclass(frozen=True)
class LimitField:
    key: str
    label: str
    hint: str
    default: int
    value: str


def split_options(text: str) -> list[str]:
    """One option per line, or separated by commas (or their CJK forms)."""
    return [part.strip() for part in _OPTION_SPLIT.split(text) if part.strip()]


class QuestionForm:
    def __init__(self, data: QueryDict | None, *, sources: list[Any]) -> None:
        self.bound = data is not None
        self.data = data if data is not None else QueryDict()
        self.source_choices = sources
        self.errors: dict[str, list[str]] = {}

    # --- what the service is given ------------------------------------------------------

    def submission(self) -> Submission:
        custom = self.preset == CUSTOM
        return Submission(
            question=self.data.get("question", ""),
            options=split_options(self.data.get("options", "")),
            dimensions=[{"name": r.name, "weight": r.weight} for r in self.rows if custom],
            preset="" if custom else self.preset,
            sources=self.data.getlist("sources"),
            limits={key: self.data.get(key, "") for key in LIMIT_RULES if self.data.get(key)},
        )

    def check(self) -> bool:
        """The one rule the service cannot see: "my own dimensions" with no dimension."""
        if self.preset == CUSTOM and not any(r.name or r.weight for r in self.rows):
            self.add_errors({"dimensions": ["Add at least one dimension, or choose a preset."]})
        return not self.errors

    def add_errors(self, errors: dict[str, list[str]]) -> None:
        for field, messages in errors.items():
            self.errors.setdefault(field, []).extend(messages)

    # --- what the template shows --------------------------------------------------------

    # What was typed is shown again to be corrected, but no more of it than a form takes:
    # a page never grows with what was sent.
    @property
    def question(self) -> str:
        return self.data.get("question", "")[: bounds.QUESTION_CHARS]

    @property
    def options(self) -> str:
        return self.data.get("options", "")[: bounds.NAMES * bounds.NAME_CHARS]

    @property
    def preset(self) -> str:
        value = self.data.get("preset", "")
        return value if value in [*PRESETS, CUSTOM] else DEFAULT_PRESET

    @property
    def rows(self) -> list[Row]:
        names = self.data.getlist("dimension_name")
        weights = self.data.getlist("dimension_weight")
        rows = [Row(n.strip(), w.strip()) for n, w in zip(names, weights, strict=False)]
        filled = [r for r in rows if r.name or r.weight]
        return filled + [Row("", "")] * max(1, BLANK_ROWS - len(filled))

    def presets(self) -> list[dict[str, Any]]:
        return [
            {
                "name": name,
                "label": PRESET_LABELS.get(name, name.capitalize()),
                "dimensions": [
                    {"name": d, "shown": DIMENSION_NAMES.get(d, d), "percent": round(w * 100)}
                    for d, w in pairs
                ],
            }
            for name, pairs in PRESETS.items()
        ]

    def source_rows(self) -> list[tuple[Any, bool, str]]:
        """Each configured source, whether its box is ticked, and what kind of source it is."""
        if self.bound:
            chosen = set(self.data.getlist("sources"))
        else:
            chosen = {s.name for s in self.source_choices if s.default}
            chosen = chosen or {s.name for s in self.source_choices[:1]}
        return [
            (source, source.name in chosen, KIND_LABELS.get(kind_of(source.spec), ""))
            for source in self.source_choices
        ]

    def limit_fields(self) -> list[LimitField]:
        return [
            LimitField(
                key,
                rule.label,
                LIMIT_HINTS.get(key, ""),
                int(getattr(settings, key.upper())),
                self.data.get(key, ""),
            )
            for key, rule in LIMIT_RULES.items()
        ]

    @property
    def limits_changed(self) -> bool:
        return any(self.data.get(key) for key in LIMIT_RULES) or bool(self.errors.get("limits"))
