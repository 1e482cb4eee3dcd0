"""Scope: whether a statement is about one component, an old version or the past rather
than the whole project today. "The legacy STOMP adapter is deprecated" says nothing about
whether the broker is maintained."""

from __future__ import annotations

import re
from functools import lru_cache

from research.reading.alternation import fold_for_literals, literals_of, may_match
from research.reading.text import has_cjk

_PARTS = (
    r"adapters?|plugins?|modules?|extensions?|add-?ons?|connectors?|drivers?|clients?|sdks?|"
    r"bindings?|integrations?|components?|operators?|exporters?|sub-?projects?|apis?|ui|"
    r"dashboards?|consoles?|cli|engines?|backends?|modes?|queues?|mirroring|protocols?|"
    r"formats?|implementations?|architecture|storage|"
    r"schedulers?|runtimes?|syntax"
)
# A part named by what it is; not "the plugin ecosystem", which is the whole project's.
_NOT_A_PART = r"(?!\s+(?:ecosystem|system|market|marketplace|registry|store|mechanism|model))"
_COMPONENT = re.compile(
    r"\b(?:the\s+)?(?:old|older|legacy|classic|deprecated|former|original|previous)\s+"
    rf"(?:[\w.-]+\s+){{0,3}}?(?:{_PARTS})\b{_NOT_A_PART}|"
    r"\bclassic\b[^.;]{0,40}?\bmirror(?:ing|ed)\b|"
    r"(?:\bthe|'s)\s+(?:(?!(?:of|a|an|the|and|or|to|for|with|without|in|on)\b)[\w.-]+\s+){1,3}?"
    r"(?:plugin|module|extension|adapter|add-?on|connector|"
    rf"driver|client library|sdk|bindings|integration|component|operator|exporter|"
    rf"sub-?project)\b{_NOT_A_PART}",
    re.I,
)
_COMPONENT_ZH = re.compile(
    r"[A-Za-z][A-Za-z0-9._-]*\s*(?:插件|模块|适配器|驱动|连接器)(?!生态|丰富|很多|众多|较多|较少|市场|系统|化|库)|"
    r"(?:该|这个|此|这款)(?:插件|模块|适配器|驱动)|旧版\S{0,6}?(?:插件|模块|接口|API)"
)
# A version looks like one: "v3", "version 2", "2.0", "1.x"; not "1MB" or "0.5 mg".
_VERSION_NUMBER = (
    r"(?:(?:version\s+|v|release\s+)\d+(?:\.(?:\d+|x))*|\d+\.(?:\d+|x)(?:\.\d+)*)"
    r"(?![\d.%A-Za-z]|\s*(?:%|mg|g|kg|ms|s|sec|seconds?|minutes?|hours?|days?|years?|[kmgt]i?b|"
    r"times|percent|million|thousand)\b)"
)
_OLD_VERSION = re.compile(
    rf"\b(?:before|prior to|pre-|until|up to|earlier than|older than|below)\s*{_VERSION_NUMBER}|"
    r"\bversions?\s+\d+(?:\.\d+)*\s+(?:and|or)\s+(?:earlier|older|below|prior|lower)\b|"
    r"\b(?:old|older|earlier|previous|legacy|outdated)\s+(?:versions?|releases?)\b",
    re.I,
)
_OLD_VERSION_ZH = re.compile(
    r"早期版本|旧版本?|老版本|低版本|以前的版本|之前的版本|历史版本|"
    r"\d+(?:\.(?:\d+|x))*\s*(?:版本)?(?:之前|以前|及更早|及以下|及之前)"
)
_VERSION = re.compile(
    r"\b(?:in|on|with|for|under)\s+(?:version\s+|v)\d+(?:\.(?:\d+|x))*(?![\d.]|\s*%)|\b\d+\.x\b",
    re.I,
)
_VERSION_ZH = re.compile(r"在?\s*\d+(?:\.(?:\d+|x))+\s*(?:版本)?(?:中|里|时)")
# "X used to crash", but not "X is used to build APIs", "drugs used to treat" or "get used
# to it".
_PAST = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bwas )(?<!\bwere )(?<!\bbeen )(?<!\bget )(?<!\bgot )"
    r"(?<!\bgets )(?<!\bbeing )\bused to\s+(?:be|have|ship|require|need|lack|crash|break|fail|"
    r"cost|charge|suffer|take|feel|seem|rely|depend)\b|"
    r"\b(?:was once|were once|once was|formerly|originally|previously|at the time|back then|"
    r"back in the day|(?<!still )in (?:the|its) early days|historically|in the past|at first|"
    r"initially|years ago|its predecessor|an earlier|the original)\b",
    re.I,
)
_PAST_ZH = re.compile(
    r"以前|以往|过去(?!\s*(?:一|1|两|2|三|3|几|半)?\s*(?:年|个月|月|周|天))|当年|曾经|原先|起初|"
    r"最初|当时|早年|从前|那时|早期(?!阶段|版本)"
)
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\s+"
)
_YEAR = re.compile(
    rf"\b(?:in|during|around|back in|until|by|circa)\s+(?:(?:early|mid|late)[- ])?"
    rf"(?:{_MONTH})?((?:19|20)\d\d)\b|(?<!\d)((?:19|20)\d\d)\s*年(?!\s*\d{{1,2}}\s*月)",
    re.I,
)

_KINDS: list[tuple[str, re.Pattern[str]]] = [
    ("component", _COMPONENT),
    ("component", _COMPONENT_ZH),
    ("old version", _OLD_VERSION),
    ("old version", _OLD_VERSION_ZH),
    ("version", _VERSION),
    ("version", _VERSION_ZH),
    ("past", _PAST),
    ("past", _PAST_ZH),
]
_CHINESE = {_COMPONENT_ZH, _OLD_VERSION_ZH, _VERSION_ZH, _PAST_ZH}
_LATIN_KINDS = [(kind, pattern) for kind, pattern in _KINDS if pattern not in _CHINESE]
_LITERALS = {pattern: literals_of(pattern, shortest=2) for _, pattern in _KINDS}


@lru_cache(maxsize=16384)
def scope_of(sentence: str, current_year: int | None = None) -> str | None:
    """ "<kind>: <words>" when the statement is about a part, a version or a time rather
    than the project today: "component: the legacy STOMP adapter", "old version: before
    2.0", "version: in version 1.x", "past: used to ship", "year: 2015". None otherwise.
    Given the current year, the last two years are not the past."""
    # Every Chinese pattern needs a Chinese character to match.
    kinds = _KINDS if has_cjk(sentence) else _LATIN_KINDS
    folded = fold_for_literals(sentence)
    for kind, pattern in kinds:
        if not may_match(_LITERALS[pattern], folded):
            continue  # none of the words it cannot match without stands in the sentence
        match = pattern.search(sentence)
        if match:
            return f"{kind}: {match.group(0).strip()}"
    for match in _YEAR.finditer(sentence):
        year = int(match.group(1) or match.group(2))
        if current_year is None or year < current_year - 1:
            return f"year: {year}"
    return None


def about_a_part(sentence: str) -> bool:
    """True when the statement is about a component, an old version or how things used to
    be: a status or stance in it is not the project's today."""
    scope = scope_of(sentence)
    return scope is not None and scope.split(":")[0] in ("component", "old version", "past")
