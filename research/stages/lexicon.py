"""Which words signal a dimension, shared by filter, deep-read and cross-validate.

A custom dimension ("customisation cost") gets its own words plus the synonyms of every
known concept its words touch, so "customisation cost" also hears "plugin" and "pricing".
"""

from __future__ import annotations

from functools import lru_cache

from research.stages.text import STOPWORDS, has_cjk

CONCEPTS: dict[str, tuple[str, ...]] = {
    "cost": (
        "cost",
        "costs",
        "price",
        "pricing",
        "priced",
        "free",
        "paid",
        "expensive",
        "cheap",
        "subscription",
        "per seat",
        "budget",
        "成本",
        "价格",
        "费用",
        "免费",
        "收费",
        "昂贵",
        "便宜",
    ),
    "price": ("price", "pricing", "cost", "quote", "discount", "价格", "报价", "成本"),
    "licence": (
        "licence",
        "license",
        "licensed",
        "licensing",
        "mit",
        "apache",
        "gpl",
        "agpl",
        "lgpl",
        "bsd",
        "mpl",
        "bsl",
        "business source",
        "copyleft",
        "proprietary",
        "open source",
        "open-source",
        "许可",
        "许可证",
        "协议",
        "开源",
        "授权",
    ),
    "risk": (
        "risk",
        "risky",
        "safe",
        "lock-in",
        "vendor lock",
        "liability",
        "compliance",
        "archived",
        "deprecated",
        "abandoned",
        "风险",
        "隐患",
        "锁定",
        "安全",
    ),
    "maintenance": (
        "maintained",
        "maintenance",
        "maintainer",
        "maintainers",
        "release",
        "releases",
        "released",
        "commit",
        "commits",
        "archived",
        "deprecated",
        "unmaintained",
        "abandoned",
        "active",
        "activity",
        "roadmap",
        "维护",
        "更新",
        "发布",
        "提交",
        "归档",
        "停止维护",
        "活跃",
    ),
    "activity": (
        "active",
        "activity",
        "contributors",
        "commits",
        "releases",
        "stars",
        "community",
        "maintained",
        "活跃",
        "贡献者",
        "社区",
        "提交",
    ),
    "community": (
        "community",
        "contributors",
        "forum",
        "discord",
        "stars",
        "ecosystem",
        "adoption",
        "users",
        "社区",
        "生态",
        "贡献者",
        "用户",
    ),
    "customisation": (
        "customise",
        "customize",
        "customisation",
        "customization",
        "extend",
        "extensible",
        "extensibility",
        "plugin",
        "plugins",
        "api",
        "hooks",
        "fork",
        "configurable",
        "定制",
        "扩展",
        "插件",
        "二次开发",
    ),
    "extensibility": (
        "extend",
        "extensible",
        "extensibility",
        "plugin",
        "plugins",
        "api",
        "hooks",
        "customise",
        "customize",
        "扩展",
        "可扩展",
        "插件",
        "定制",
    ),
    "learning": (
        "learning curve",
        "learn",
        "documentation",
        "docs",
        "tutorial",
        "beginner",
        "easy",
        "difficult",
        "complex",
        "onboarding",
        "学习",
        "上手",
        "文档",
        "入门",
        "复杂",
        "简单",
    ),
    "performance": (
        "performance",
        "fast",
        "slow",
        "latency",
        "throughput",
        "benchmark",
        "memory",
        "性能",
        "速度",
        "延迟",
        "吞吐",
    ),
    "delivery": (
        "delivery",
        "lead time",
        "shipping",
        "ships",
        "weeks",
        "days",
        "交付",
        "交货",
        "周期",
        "发货",
    ),
    "support": (
        "support",
        "after-sales",
        "sla",
        "warranty",
        "helpdesk",
        "售后",
        "支持",
        "服务",
        "保修",
    ),
    "replaceability": (
        "replace",
        "replaceable",
        "migration",
        "export",
        "lock-in",
        "portable",
        "替代",
        "迁移",
        "导出",
        "锁定",
    ),
    "security": (
        "security",
        "vulnerability",
        "cve",
        "encryption",
        "secure",
        "安全",
        "漏洞",
        "加密",
    ),
}

_ALIASES: dict[str, str] = {
    "license": "licence",
    "licensing": "licence",
    "licences": "licence",
    "licenses": "licence",
    "customization": "customisation",
    "customizing": "customisation",
    "customising": "customisation",
    "maintained": "maintenance",
    "maintain": "maintenance",
    "curve": "learning",
    "pricing": "price",
    "compliance": "risk",
    "after-sales": "support",
    "community": "community",
    "extensible": "extensibility",
    "lead": "delivery",
    "成本": "cost",
    "价格": "price",
    "许可": "licence",
    "许可证": "licence",
    "风险": "risk",
    "维护": "maintenance",
    "社区": "community",
    "活跃": "activity",
    "社区活跃度": "activity",
    "可扩展性": "extensibility",
    "扩展": "extensibility",
    "学习曲线": "learning",
    "学习": "learning",
    "交付时间": "delivery",
    "交付": "delivery",
    "售后支持": "support",
    "售后": "support",
    "合规": "risk",
    "可替代性": "replaceability",
    "定制": "customisation",
    "性能": "performance",
    "安全": "security",
}


def concepts_for(dimension: str) -> list[str]:
    """The known concepts a dimension name touches, in order of mention."""
    found: list[str] = []
    lowered = dimension.lower()
    words = [*lowered.replace("-", " ").split(), *_cjk_words(lowered)]
    for word in words:
        concept = word if word in CONCEPTS else _ALIASES.get(word)
        if concept is None:
            concept = next((c for c in CONCEPTS if word.startswith(c[:5])), None)
        if concept and concept not in found:
            found.append(concept)
    return found


@lru_cache(maxsize=256)
def keywords_for(dimension: str) -> tuple[str, ...]:
    """Words whose presence in a sentence suggests it speaks to this dimension."""
    words: list[str] = [w for w in dimension.lower().split() if w not in STOPWORDS]
    for concept in concepts_for(dimension):
        words.extend(CONCEPTS[concept])
    if has_cjk(dimension):
        words.append(dimension)
    return tuple(dict.fromkeys(w for w in words if w))


def _cjk_words(text: str) -> list[str]:
    if not has_cjk(text):
        return []
    return [alias for alias in _ALIASES if has_cjk(alias) and alias in text]
