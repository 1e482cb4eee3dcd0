"""How much a source counts: primary, comparison or community (DESIGN section 2)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from research.stages.urls import site_of

PRIMARY_HOSTS = (
    "github.com",
    "gitlab.com",
    "codeberg.org",
    "pypi.org",
    "npmjs.com",
    "crates.io",
    "arxiv.org",
    "ietf.org",
    "rfc-editor.org",
    "w3.org",
    "iso.org",
    "acm.org",
    "ieee.org",
    "doi.org",
    "nature.com",
    "springer.com",
)
COMMUNITY_HINTS = (
    "forum",
    "reddit.com",
    "news.ycombinator.com",
    "stackoverflow.com",
    "stackexchange.com",
    "quora.com",
    "discuss",
    "community",
    "tieba",
    "://blog.",
    "zhihu.com",
    "v2ex.com",
    "t/",
    "/thread",
    "medium.com",
    "blogspot.",
    "wordpress.com",
    "substack.com",
    "csdn.net",
    "jianshu.com",
)
COMPARISON_HINTS = (
    "vs",
    "versus",
    "comparison",
    "compare",
    "alternatives",
    "review",
    "benchmark",
    "对比",
    "比较",
    "评测",
    "选型",
)

STRENGTH = {"primary": 90.0, "comparison": 60.0, "community": 30.0}


@dataclass(frozen=True)
class SourceKind:
    kind: str  # primary | comparison | community
    strength: float  # 0-100
    why: str
    owner: str | None = None  # the option whose own site or repository this is


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def classify(url: str, title: str, options: list[str]) -> SourceKind:
    host = site_of(url)
    lowered = (url + " " + title).lower()
    owner = _owning_option(url, options) or _title_owner(title, options)
    if owner:
        return SourceKind("primary", STRENGTH["primary"], f"the site of {owner}", owner)
    if host.endswith((".gov", ".edu", ".gov.cn", ".edu.cn")) or host in PRIMARY_HOSTS:
        return SourceKind("primary", STRENGTH["primary"], f"{host} is a primary source")
    if any(hint in lowered for hint in COMMUNITY_HINTS):
        return SourceKind("community", STRENGTH["community"], f"{host} is a forum or blog")
    return SourceKind("comparison", STRENGTH["comparison"], f"{host} is a secondary article")


def _owning_option(url: str, options: list[str]) -> str | None:
    """An option owns a URL when its name is in the host or in a code host's repo path."""
    host = site_of(url)
    path = urlsplit(url).path.lower()
    for option in options:
        slug = _slug(option)
        if len(slug) < 3:
            continue
        if slug in _slug(host.split(".")[0]) or slug in _slug(".".join(host.split(".")[:-1])):
            return option
        if host in ("github.com", "gitlab.com", "codeberg.org") and slug in _slug(
            "/".join(path.split("/")[1:3])
        ):
            return option
    return None


_OFFICIAL = re.compile(r"官方|官网|文档|official|documentation|\bdocs\b", re.I)


def _title_owner(title: str, options: list[str]) -> str | None:
    """Names that are not Latin ("河图引擎") cannot be matched to a domain; an official
    page says so in its title ("许可与授权 | 河图引擎官方文档")."""
    named = [o for o in options if o.lower() in title.lower()]
    if len(named) == 1 and _OFFICIAL.search(title):
        return named[0]
    return None
