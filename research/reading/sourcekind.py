"""Who wrote a source, and so how much it counts (DESIGN section 2).

A page is judged by its publisher. An option's own site, repository or package page is
primary for that option's facts (licence, version, status); judging its own merits it
counts no more than a review. A vendor writing about a rival, on its own site or in a
comparison of itself against others, is an interested party: never the rival's primary
source, and weak both about the rival and in praise of itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from research.i18n import words
from research.providers.urls import site_of
from research.reading.text import mentions, option_names

STANDARD_HOSTS = (
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
CODE_HOSTS = ("github.com", "gitlab.com", "codeberg.org", "bitbucket.org")
# Package registries: the path segment after the first names the package.
REGISTRY_HOSTS = ("pypi.org", "npmjs.com", "crates.io", "pkg.go.dev", "rubygems.org")
PRIMARY_HOSTS = STANDARD_HOSTS + CODE_HOSTS + REGISTRY_HOSTS
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
    "/t/",  # Discourse topics
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
# Subdomains and paths where users, not the project, do the writing.
USER_SUBDOMAINS = frozenset("forum forums community discuss discourse bbs answers ask".split())
USER_PATHS = frozenset("issues discussions pull pulls merge_requests".split())
# Words a product's own domain or repository adds around its name: getloamdb, loamdbhq.
AFFIXES = (
    "get",
    "use",
    "try",
    "hq",
    "app",
    "apps",
    "dev",
    "io",
    "js",
    "db",
    "kv",
    "mq",
    "sync",
    "lang",
    "labs",
    "project",
    "cloud",
    "software",
    "inc",
    "team",
    "docs",
    "official",
    "org",
)
# Words that make a domain built on a product's name somebody else's: loamdb-review.com.
THIRD_PARTY_WORDS = frozenset(
    """review reviews vs versus alternative alternatives compare comparison benchmark
    benchmarks news weekly digest fans awesome tips guide guides blog forum community sucks
    stats jobs hosting""".split()
)
# A publisher's page that sets itself against others, even without naming them.
_COMPARES = re.compile(
    r"\bvs\b|\bversus\b|\balternatives?\b|\bcompar|\b(?:migrat|switch|mov)\w* from\b|"
    r"对比|比较|替代|迁移|竞品",
    re.I,
)
_OFFICIAL = re.compile(r"官方|官网|文档|official|documentation|\bdocs\b", re.I)

STRENGTH = {"primary": 90.0, "comparison": 60.0, "community": 30.0}
REVIEW = STRENGTH["comparison"]  # the most a project's judgement of itself counts
INTERESTED = 30.0  # a vendor on a rival, or praising itself: no better than a forum post


@dataclass(frozen=True)
class Standing:
    """How much a page counts for claims about one option."""

    kind: str  # primary | comparison | community | interested
    strength: float  # 0-100
    why: str


@dataclass(frozen=True)
class SourceKind:
    kind: str  # primary | comparison | community
    strength: float  # 0-100
    why: str
    owner: str | None = None  # the option whose own page, about itself, this is
    publisher: str | None = None  # the option whose vendor or project published the page
    interested: bool = False  # the publisher writes about rivals or sets itself against them
    language: str = "en"

    def toward(self, option: str, judgement: bool = False) -> Standing:
        """The page's standing for a claim about `option`; `judgement` for a stance on
        merit rather than a fact."""
        if self.publisher is None:
            return Standing(self.kind, self.strength, self.why)
        text = _text(self.language)
        if option != self.publisher:
            return Standing("interested", INTERESTED, text["interested"].format(o=self.publisher))
        if not judgement:
            return Standing("primary", STRENGTH["primary"], text["own"].format(o=option))
        if self.interested:
            return Standing("interested", INTERESTED, text["self_praise"].format(o=option))
        return Standing("primary", REVIEW, text["own_judgement"].format(o=option))


def _text(language: str) -> dict[str, str]:
    return words(language).SOURCE_KINDS


def classify(url: str, title: str, options: list[str], language: str = "en") -> SourceKind:
    text, host = _text(language), site_of(url)
    if _user_written(url):
        return SourceKind(
            "community", STRENGTH["community"], text["user_written"].format(host=host)
        )
    publisher = _publisher(url, title, options)
    if publisher:
        return _published_by(publisher, url, title, options, language)
    if host.endswith((".gov", ".edu", ".gov.cn", ".edu.cn")) or _on(host, PRIMARY_HOSTS):
        # A repository whose owner cannot be matched (a non-Latin name, a pinyin slug) is
        # still most likely a project's own word, so code hosts stay primary.
        return SourceKind("primary", STRENGTH["primary"], text["standard"].format(host=host))
    if any(hint in (url + " " + title).lower() for hint in COMMUNITY_HINTS):
        return SourceKind("community", STRENGTH["community"], text["community"].format(host=host))
    return SourceKind("comparison", REVIEW, text["comparison"].format(host=host))


def _published_by(
    publisher: str, url: str, title: str, options: list[str], language: str
) -> SourceKind:
    text = _text(language)
    rivals = [o for o in options if o != publisher and _about(url, title, o)]
    if rivals or _COMPARES.search(f"{title} {_path_words(url)}"):
        why = text["interested"].format(o=publisher)
        return SourceKind("comparison", INTERESTED, why, None, publisher, True, language)
    why = text["own"].format(o=publisher)
    return SourceKind("primary", STRENGTH["primary"], why, publisher, publisher, False, language)


def _on(host: str, hosts: tuple[str, ...]) -> bool:
    return any(host == h or host.endswith("." + h) for h in hosts)


def _user_written(url: str) -> bool:
    host, segments = site_of(url), _segments(url)
    if host.split(".")[0] in USER_SUBDOMAINS:
        return True
    return _on(host, CODE_HOSTS) and bool(USER_PATHS & set(segments[2:3]))


def _segments(url: str) -> list[str]:
    return [s for s in unquote(urlsplit(url).path).lower().split("/") if s]


def _path_words(url: str) -> str:
    return re.sub(r"[-_.]+", " ", " ".join(_segments(url)))


def _about(url: str, title: str, option: str) -> bool:
    """The page names the option in its title or its path (not its host)."""
    return mentions(title, option) or mentions(_path_words(url), option)


# --- who published it ---------------------------------------------------------------------


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _slugs(option: str) -> set[str]:
    """The option's names as they appear in domains: "Apache Kafka" is also kafka."""
    return {s for s in (_slug(n) for n in option_names(option)) if len(s) >= 3}


def _names(label: str, slugs: set[str]) -> bool:
    """A domain label or repository name is the option's when it is its name with at most
    one product affix (getloamdb, loamdbhq) or hyphenated product words (tessera-sync),
    never a third party's name built on it (loamdbreview, loamdb-alternatives)."""
    bare = _slug(label)
    stripped = {bare}
    for affix in AFFIXES:
        stripped |= {bare.removeprefix(affix), bare.removesuffix(affix)}
    if slugs & stripped:
        return True
    parts = [_slug(p) for p in re.split(r"[-_]", label) if p]
    ends = {parts[0], parts[-1]} if len(parts) >= 2 else set()
    return bool(slugs & ends) and not THIRD_PARTY_WORDS & set(parts)


def _only(matches: list[str]) -> str | None:
    """A host that names two options ("loamdb-vs-quillsync") belongs to neither."""
    return matches[0] if len(matches) == 1 else None


def _named_by(labels: list[str], options: list[str]) -> str | None:
    """The option these domain labels or repository names belong to; an exact name wins
    over a name with an affix, so loamdb.io is Loamdb's even when Loam is an option."""
    exact = [o for o in options if _slugs(o) & {_slug(lb) for lb in labels}]
    return _only(exact) or _only(
        [o for o in options if any(_names(lb, _slugs(o)) for lb in labels)]
    )


def _publisher(url: str, title: str, options: list[str]) -> str | None:
    host = site_of(url)
    if _on(host, CODE_HOSTS + REGISTRY_HOSTS):
        return _repository_owner(url, options)
    labels = host.split(".")[:-1]  # the top-level domain names nobody
    return _named_by(labels, options) or _title_owner(title, options)


def _repository_owner(url: str, options: list[str]) -> str | None:
    segments = _segments(url)
    if _on(site_of(url), REGISTRY_HOSTS):
        return _named_by(segments[1:3], options)  # /project/<name>, /package/@scope/<name>
    # The repository's name first: github.com/acme/loamdb is Loamdb's even if acme is not.
    return _named_by(segments[1:2], options) or _named_by(segments[:1], options)


def _title_owner(title: str, options: list[str]) -> str | None:
    """Names that are not Latin ("河图引擎") cannot be matched to a domain; an official
    page says so in its title ("许可与授权 | 河图引擎官方文档")."""
    named = [o for o in options if o.lower() in title.lower()]
    if len(named) == 1 and _OFFICIAL.search(title):
        return named[0]
    return None
