"""Text helpers shared by the stages: language-aware tokens and sentence spans."""

from __future__ import annotations

import re
from collections.abc import Iterator
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


def contains_term(text: str, term: str) -> bool:
    """Case-insensitive whole-word match (allowing plain inflections: extend, extending) for
    Latin terms, substring match for CJK."""
    if has_cjk(term):
        return term in text
    return term_pattern(term).search(text) is not None


@lru_cache(maxsize=4096)
def term_pattern(term: str) -> re.Pattern[str]:
    return re.compile(
        r"(?<![A-Za-z0-9])" + re.escape(term) + r"(?:s|es|ed|d|ing)?(?![A-Za-z0-9])", re.I
    )


# Words that name an organisation in front of a product: "Apache Kafka" is also "Kafka".
_ORG_PREFIXES = frozenset(
    "apache eclipse google microsoft amazon aws azure mozilla meta facebook oracle ibm "
    "red hat jetbrains adobe apple the".split()
)


@lru_cache(maxsize=1024)
def option_names(option: str) -> tuple[str, ...]:
    """The ways a page may name an option: in full, without its organisation prefix
    ("Kafka"), without a ".js" suffix ("Vue"), or by the initials of a long name ("DRF")."""
    names = [option]
    words = option.split()
    if len(words) > 1 and words[0].lower() in _ORG_PREFIXES:
        names.append(" ".join(words[1:]))
    if re.search(r"\.js$", option, re.I):
        names.append(option[:-3])
    if len(words) >= 3 and all(w[:1].isalpha() for w in words):
        names.append("".join(w[0].upper() for w in words))
    return tuple(dict.fromkeys(n for n in names if len(n) >= 2))


def mentions(text: str, option: str) -> bool:
    """Whether `text` names `option` in any of its usual forms (initials only in capitals)."""
    for name in option_names(option):
        if name.isupper() and len(name) <= 5 and name != option:
            if re.search(r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])", text):
                return True
        elif contains_term(text, name):
            return True
    return False


def first_mention(text: str, option: str) -> int:
    """Offset of the first mention of `option` in `text`, or -1."""
    found = -1
    for name in option_names(option):
        if has_cjk(name):
            at = text.find(name)
        else:
            match = term_pattern(name).search(text)
            at = match.start() if match else -1
        if at >= 0 and (found < 0 or at < found):
            found = at
    return found
