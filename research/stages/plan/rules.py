"""What a question may be: the presets of dimensions, the bounds on options, dimensions and
names, and the PlanError that says what to fix."""

from __future__ import annotations

import re


class PlanError(ValueError):
    """The question form cannot become a plan; the message tells the user what to fix."""


PRESETS: dict[str, list[tuple[str, float]]] = {
    "tech": [
        ("cost", 0.2),
        ("learning curve", 0.2),
        ("community activity", 0.2),
        ("extensibility", 0.2),
        ("risk", 0.2),
    ],
    "procurement": [
        ("price", 0.2),
        ("delivery time", 0.2),
        ("after-sales support", 0.2),
        ("compliance", 0.2),
        ("replaceability", 0.2),
    ],
    "clinical": [
        ("efficacy", 0.3),
        ("safety", 0.25),
        ("trial results", 0.25),
        ("cost", 0.2),
    ],
}


# The sources a preset brings of its own, asked besides those the question names.
PRESET_SOURCES: dict[str, tuple[str, ...]] = {
    "clinical": ("primary:clinicaltrials", "primary:europepmc"),
}


DEFAULT_PRESET = "tech"


# Chinese names for the preset dimensions, so a Chinese question gets Chinese queries.
ZH_DIMENSIONS: dict[str, str] = {
    "cost": "成本",
    "learning curve": "学习曲线",
    "community activity": "社区活跃度",
    "extensibility": "可扩展性",
    "risk": "风险",
    "price": "价格",
    "delivery time": "交付时间",
    "after-sales support": "售后支持",
    "compliance": "合规",
    "replaceability": "可替代性",
    "efficacy": "疗效",
    "safety": "安全性",
    "trial results": "试验结果",
}


MAX_QUESTION_CHARS = 2_000


MIN_OPTIONS = 2


MAX_OPTIONS = 8


MAX_DIMENSIONS = 12


MAX_NAME_CHARS = 100


# An extracted "option" longer than this is a misread sentence, not a product name.
MAX_EXTRACTED_WORDS = 6


CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def question_language(text: str) -> str:
    """The language a run is written in: "zh" for a question with Chinese characters."""
    return "zh" if CJK.search(text) else "en"


OPTIONS_HINT = "name at least two options, e.g. --option A --option B, or ask 'A vs B'"
