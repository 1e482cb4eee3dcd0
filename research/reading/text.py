"""Text helpers shared by the stages: language-aware tokens and sentence spans."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*[A-Za-z0-9+]|[A-Za-z0-9]")
# A sentence ends at . ! ? followed by space, or at a CJK stop; newlines end blocks.
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9\"'(\[*_#-])|(?<=[。！？；])|\n+")

STOPWORDS = frozenset(
    """a an and are as at be between by choose choosing decide do does for from how in is it
    its of on or our should that the their this to vs versus we what which with your team
    weighing weigh option options pick compare comparison better best""".split()
)


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def terms(text: str) -> list[str]:
    """Lower-cased search terms: words for Latin text, character bigrams for CJK runs."""
    lowered = text.lower()
    words = [w for w in _WORD.findall(lowered) if w not in STOPWORDS and len(w) > 1]
    for run in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+", lowered):
        words.extend(run[i : i + 2] for i in range(max(1, len(run) - 1)))
    return words


def sentence_spans(text: str) -> Iterator[tuple[int, int]]:
    """Yield (start, end) of each sentence, trimmed of surrounding whitespace."""
    start = 0
    for match in _SENTENCE_END.finditer(text):
        yield from _trimmed(text, start, match.start())
        start = match.end()
    yield from _trimmed(text, start, len(text))


def _trimmed(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    segment = text[start:end]
    stripped = segment.strip()
    if stripped:
        lead = len(segment) - len(segment.lstrip())
        yield start + lead, start + lead + len(stripped)


def count_terms(text: str, terms: Iterable[str]) -> int:
    """How many of `terms` the text contains (contains_term). A term is looked for with its
    pattern only where its letters stand in the text at all, which most do not."""
    folded = None if _DOTTED_I.search(text) else text.casefold()
    return sum(
        1
        for term in terms
        if (folded is None or _needle(term) in folded) and contains_term(text, term)
    )


# re.I pairs the Turkish dotted and dotless i with ASCII ones, which casefold() does not.
_DOTTED_I = re.compile("[\u0130\u0131]")


@lru_cache(maxsize=4096)
def _needle(term: str) -> str:
    """What the text must hold (case aside) for term_pattern(term) to match in it."""
    if not has_cjk(term) and _stems(term):
        return term[:-1].casefold()
    return term.casefold()


def _stems(term: str) -> bool:
    return len(term) > 4 and term.endswith("e")


def contains_term(text: str, term: str) -> bool:
    """Case-insensitive whole-word match (allowing plain inflections: extend, extending) for
    Latin terms, substring match for CJK."""
    if has_cjk(term):
        return term in text
    return term_pattern(term).search(text) is not None


@lru_cache(maxsize=4096)
def term_pattern(term: str) -> re.Pattern[str]:
    # "customise" also matches "customising": a final e drops before -ing.
    stem = re.escape(term[:-1]) + r"(?:e|ing)" if _stems(term) else None
    body = (
        f"(?:{re.escape(term)}(?:s|es|ed|d|ing)?|{stem})"
        if stem
        else (re.escape(term) + r"(?:s|es|ed|d|ing)?")
    )
    return re.compile(r"(?<![A-Za-z0-9])" + body + r"(?![A-Za-z0-9])", re.I)


# Words that name an organisation in front of a product: "Apache Kafka" is also "Kafka".
_ORG_PREFIXES = frozenset(
    "apache eclipse google microsoft amazon aws azure mozilla meta facebook oracle ibm "
    "red hat jetbrains adobe apple the".split()
)
# Last words too generic to stand for the option on their own ("framework").
_GENERIC_LAST = frozenset(
    """framework frameworks library server client database engine platform project system
    service cloud studio suite toolkit manager editor broker queue api sdk core team edition
    community enterprise plus pro lite app apps code web orm""".split()
)
# What joins a bundle named as one option: "Prometheus with Grafana", "Kafka + Flink".
_BUNDLE = re.compile(
    r"\s+(?:with|and|plus|&|\+)\s+|(?<=\w)\+(?=[A-Z])|"
    r"(?<=[A-Za-z0-9])\s*(?:和|与|搭配|配合|加)\s*(?=[A-Za-z])"
)


@lru_cache(maxsize=1024)
def option_names(option: str) -> tuple[str, ...]:
    """The ways a page may name an option: in full, without its organisation prefix or by
    the distinctive last word of a longer name ("Kafka"), without a ".js" suffix ("Vue"),
    by the initials of a long name ("DRF"), or by its head name: the product a bundle is
    built on ("Prometheus" for "Prometheus with Grafana"), or the brand before a generic
    kind of thing ("Django" for "Django ORM")."""
    if bundle := _bundle_head(option):
        return tuple(dict.fromkeys((option, *option_names(bundle))))
    names = [option]
    words = option.split()
    if len(words) > 1 and words[0].lower() in _ORG_PREFIXES:
        names.append(" ".join(words[1:]))
    if len(words) > 1 and len(words[-1]) >= 4 and words[-1].lower() not in _GENERIC_LAST:
        names.append(words[-1])
    if head_and_kind(option):
        names.append(words[0])  # "Django" for "Django REST framework"
    if re.search(r"\.js$", option, re.I):
        names.append(option[:-3])
    if len(words) >= 3 and all(w[:1].isalpha() for w in words):
        names.append("".join(w[0].upper() for w in words))
    if stem := _CAMEL_SUFFIX.match(option):
        names.append(stem.group(1))  # "Rabbit" for RabbitMQ, "Mongo" for MongoDB
    parts = _CAMEL_PARTS.findall(option) if " " not in option else []
    if len(parts) == 2 and all(len(p) >= 3 for p in parts):
        names.append(" ".join(parts))  # "Fast API" for FastAPI
    return tuple(dict.fromkeys(n for n in names if len(n) >= 2))


def _bundle_head(option: str) -> str | None:
    """The product a bundle is built on: "Prometheus" for "Prometheus with Grafana". The
    head must be a name of its own, not an ordinary word ("Simple and Fast")."""
    parts = _BUNDLE.split(option, maxsplit=1)
    if len(parts) != 2 or not parts[1].strip():
        return None
    head = parts[0].strip()
    words = head.split()
    if not words or (not words[0][:1].isupper() and not has_cjk(head)):
        return None
    return head if len(words) > 1 or has_cjk(head) or _distinctive(words[0]) else None


@lru_cache(maxsize=1024)
def head_and_kind(option: str) -> tuple[str, str] | None:
    """(the brand, the kind of thing) of an option named as a brand and a generic kind:
    ("Django", "ORM") for "Django ORM", ("Django", "REST framework") for "Django REST
    framework". The kind is made of generic nouns and short technical terms in capitals."""
    words = option.split()
    if len(words) < 2 or not _distinctive(words[0]):
        return None
    *leading, last = words[1:]
    if not _generic_word(last) or not all(
        _generic_word(w) or w.lower() in _KIND_MODIFIERS for w in leading
    ):
        return None
    return words[0], " ".join(words[1:])


def _generic_word(word: str) -> bool:
    return word.lower() in _GENERIC_LAST or (word.isupper() and 2 <= len(word) <= 6)


# Nouns that say what a generic kind is for: "Password Manager", "Message Broker".
_KIND_MODIFIERS = frozenset(
    "password message task job search vector document graph key value object web http".split()
)


# First words that are ordinary words, not the name of a product on their own.
_COMMON_FIRST = frozenset(
    """visual open free simple fast easy next new modern micro rest cloud data web net power
    active smart quick big deep total real full small light secure super""".split()
)


def _distinctive(word: str) -> bool:
    return (
        len(word) >= 4
        and word[:1].isupper()
        and word.lower() not in _COMMON_FIRST
        and word.lower() not in _ORG_PREFIXES
    )


_CAMEL_PARTS = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])")
_CAMEL_SUFFIX = re.compile(r"^([A-Z][a-z]{3,})(?:MQ|DB|JS|QL|IO)$")


def is_initials(name: str, option: str) -> bool:
    """Initials ("DRF") and a name's stem ("Rabbit") count only as written, capitals and
    all: "drf" or "rabbit" in running text is something else."""
    if name == option:
        return False
    return (name.isupper() and len(name) <= 5) or option.startswith(name)


def names_among(option: str, options: Sequence[str]) -> tuple[str, ...]:
    """The option's names less those that also name another of the options: with both
    "Django" and "Django ORM" in the question, "Django" is only the first."""
    others = {n.casefold() for o in options if o != option for n in option_names(o)}
    return tuple(n for n in option_names(option) if n == option or n.casefold() not in others)


def mentions(text: str, option: str, aliases: tuple[str, ...] = ()) -> bool:
    """Whether `text` names `option` in any of its usual forms (initials only in capitals),
    or by one of `aliases` (names the pages themselves gave it, see discover_aliases)."""
    return first_mention(text, option, aliases) >= 0


def first_mention(
    text: str, option: str, aliases: tuple[str, ...] = (), among: Sequence[str] = ()
) -> int:
    """Offset of the first mention of `option` in `text`, or -1. Given the other options
    (`among`), a name they share is no mention of this one."""
    spans = name_spans(text, option, aliases, among)
    return spans[0][0] if spans else -1


def name_spans(
    text: str, option: str, aliases: tuple[str, ...] = (), among: Sequence[str] = ()
) -> list[tuple[int, int]]:
    """(start, end) of every mention of the option in the text, in order, not overlapping:
    by any of its names (names_among), its possessive form ("Django's ORM", "Django 的
    ORM") or an alias, longer forms first where two overlap."""
    spans: list[tuple[int, int]] = []
    names = names_among(option, among) if among else option_names(option)
    for name in sorted({*names, *aliases}, key=len, reverse=True):
        pattern = _pattern_for(name, is_initials(name, option))
        spans += [
            (m.start(), m.end())
            for m in pattern.finditer(text)
            if not any(m.start() < e and s < m.end() for s, e in spans)
        ]
    if possessive := _possessive_pattern(option):
        for m in possessive.finditer(text):
            spans = [(s, e) for s, e in spans if not (m.start() <= s and e <= m.end())]
            if not any(m.start() < e and s < m.end() for s, e in spans):
                spans.append((m.start(), m.end()))
    return sorted(spans)


def _pattern_for(name: str, initials: bool) -> re.Pattern[str]:
    if has_cjk(name):
        return re.compile(re.escape(name))
    if initials:
        return re.compile(r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])")
    return _name_pattern(name)


@lru_cache(maxsize=4096)
def _name_pattern(name: str) -> re.Pattern[str]:
    # A long name also takes another language's ending: "empagliflozina", "Kafkas".
    ending = r"(?:s|es|ed|d|ing|[a-z]{1,2})?" if len(name) >= 7 else r"(?:s|es|ed|d|ing)?"
    return re.compile(r"(?<![A-Za-z0-9])" + re.escape(name) + ending + r"(?![A-Za-z0-9])", re.I)


@lru_cache(maxsize=1024)
def _possessive_pattern(option: str) -> re.Pattern[str] | None:
    """ "Django's ORM", "Django’s REST framework", "Django 的 ORM"."""
    parts = head_and_kind(option)
    if parts is None:
        return None
    head, kind = (re.escape(p).replace(r"\ ", r"\s+") for p in parts)
    return re.compile(
        rf"(?<![A-Za-z0-9]){head}(?:\s*['’]s?\s+|\s*的\s*){kind}(?![A-Za-z0-9])", re.I
    )


@lru_cache(maxsize=1024)
def definite_pattern(option: str) -> re.Pattern[str] | None:
    """The option's kind with a definite article, "the ORM", "this ORM", "该 ORM": a name
    of the option only where the page or paragraph is about it already."""
    parts = head_and_kind(option)
    if parts is None:
        return None
    kind = re.escape(parts[1]).replace(r"\ ", r"\s+")
    return re.compile(
        rf"(?<![A-Za-z0-9])(?:the|this|its)\s+{kind}(?![A-Za-z0-9])|"
        rf"(?:该|此|这个|这款|这套|其)\s*{kind}(?![A-Za-z0-9])",
        re.I,
    )


def definite_spans(text: str, option: str | None) -> list[tuple[int, int]]:
    """Where the text names `option` by its kind with a definite article (definite_pattern)."""
    pattern = definite_pattern(option) if option else None
    return [(m.start(), m.end()) for m in pattern.finditer(text)] if pattern else []


# "semaglutide (Ozempic)", "Ozempic (semaglutide)", "Django REST framework (DRF)".
_ALIAS_NAME = r"([A-Z][A-Za-z0-9.+-]{2,24}|[\u4e00-\u9fff]{2,8})"


def discover_aliases(texts: list[str], options: list[str]) -> dict[str, tuple[str, ...]]:
    """Other names the pages give an option in brackets next to its name: brand names for
    a drug, abbreviations, a product's former name. An alias that also names another option
    is ignored."""
    return aliases_from([aliases_in(text, options) for text in texts], options)


AliasFinds = dict[str, list[list[str]]]  # option -> what each of its names found


def aliases_in(text: str, options: list[str]) -> AliasFinds:
    """What one text gives each option in brackets, name by name (see discover_aliases):
    a page's part, found once, whenever the page comes in."""
    return {
        option: [a.findall(text) + b.findall(text) for a, b in _alias_patterns(option)]
        for option in options
    }


def aliases_from(finds: list[AliasFinds], options: list[str]) -> dict[str, tuple[str, ...]]:
    """discover_aliases from the texts' finds, in the texts' order."""
    found = {
        option: [
            alias for n in range(len(option_names(option))) for f in finds for alias in f[option][n]
        ]
        for option in options
    }
    return {o: _clean_aliases(o, names, options) for o, names in found.items()}


@lru_cache(maxsize=1024)
def _alias_patterns(option: str) -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
    patterns = []
    for name in option_names(option):
        escaped = re.escape(name)
        # The option's name in any case; the alias must be capitalised, as names are.
        after = re.compile(rf"(?i:{escaped})\s*[(（]\s*{_ALIAS_NAME}\s*[)）]")
        before = re.compile(rf"{_ALIAS_NAME}\s*[(（]\s*(?i:{escaped})\s*[)）]")
        patterns.append((after, before))
    return tuple(patterns)


def _clean_aliases(option: str, names: list[str], options: list[str]) -> tuple[str, ...]:
    others = [o for o in options if o != option]
    kept = [
        n
        for n in dict.fromkeys(names)
        if n.lower() not in option.lower()
        and not any(mentions(n, o) for o in others)
        and n.lower() not in STOPWORDS
    ]
    return tuple(kept[:5])
