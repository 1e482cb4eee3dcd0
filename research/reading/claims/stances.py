"""Stances: whether a sentence judges an option positively or negatively.

A sentence is read in three passes (see cues.py): amounts, then set phrases, then single
words, each pass masking what it read so nothing counts twice. Every cue found is then
turned by what stands just before it: a negation flips it ("isn't hard", "does not lack",
"没那么复杂"), a remedy flips it ("reduces complexity", "避免踩坑"), a fix cancels it ("fixes
a memory leak"), a hedge halves it ("slightly slower").
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from research.reading.alternation import (
    factored,
    fold_for_literals,
    longest_first,
    may_match,
    needs_cjk,
    required_literals,
)
from research.reading.claims import cues
from research.reading.claims.mentions import mentions_of
from research.reading.text import has_cjk


def stance_polarity(sentence: str, options: Sequence[str] = ()) -> int:
    """+1, -1 or 0: the direction of the judgement the sentence makes, if any. Option names
    are not read as judgements ("FastAPI" is not "fast")."""
    score = stance_score(sentence, options)
    return (score > 0) - (score < 0)


@lru_cache(maxsize=16384)
def neutral_masked(text: str) -> str:
    """The text with its set phrases that look like judgements but are not ("stable
    release", "non-inferior", "free trial") blanked, offsets kept."""
    return _NEUTRAL.sub(_blank, text)


def stance_score(sentence: str, options: Sequence[str] = ()) -> float:
    return sum(hit.weight for hit in stance_hits(sentence, options))


class Cue(NamedTuple):
    start: int
    end: int
    weight: float  # its sign as turned by the words before it
    amount: bool  # a level of a named thing ("few examples"), which it judges alone


def stance_hits(sentence: str, options: Sequence[str] = ()) -> list[Cue]:
    """Every evaluative cue in the sentence, with its sign as turned by the words before
    it (negated, remedied, fixed, hedged). Offsets are the sentence's own."""
    return list(_stance_hits(sentence, tuple(options)))


# Deep-read, cross-validate and their readers ask this of the same sentences many times.
@lru_cache(maxsize=16384)
def _stance_hits(sentence: str, options: tuple[str, ...]) -> tuple[Cue, ...]:
    text = _NEUTRAL.sub(_blank, _mask_names(sentence.replace("\u2019", "'"), options))
    chinese = has_cjk(text)
    found = list(_amounts(text, chinese))
    amounts = {(start, end) for _, start, end in found}
    hits = []
    for sign, start, end, read in _cues(text, found, chinese):
        weight = sign * _turn(read, start, end)
        if weight:
            hits.append(Cue(start, end, weight, (start, end) in amounts))
    return tuple(hits)


def _cues(
    text: str, found: list[tuple[int, int, int]], chinese: bool
) -> Iterator[tuple[int, int, int, str]]:
    """(sign, start, end, text the cue was found in) for each cue, the amounts `found`
    first. Patterns only Chinese text can match are skipped unless it is `chinese`."""
    for _, start, end in found:
        text = _masked(text, start, end)
    yield from ((sign, start, end, text) for sign, start, end in found)
    text = _NEUTRAL_AFTER_AMOUNTS.sub(_blank, text)
    # A phrase is looked for only in a text holding one of the words it cannot match
    # without (masking only takes words away, so none is missed).
    folded = fold_for_literals(text)
    for pattern, sign, literals in _PHRASES if chinese else _PHRASES_NOT_ZH:
        if not may_match(literals, folded):
            continue
        for match in pattern.finditer(text):
            yield sign, match.start(), match.end(), text
            text = _masked(text, match.start(), match.end())
    for pattern, sign in _NEGATING_PHRASES:
        yield from ((sign, m.start(), m.end(), text) for m in pattern.finditer(text))
    for pattern in _WORDS if chinese else _WORDS_NOT_ZH:
        for match in pattern.finditer(text):
            if not _in_a_name(text, match):
                yield _SIGNS[match.group(0).lower()], match.start(), match.end(), text


# --- amounts ------------------------------------------------------------------------------


def _amounts(text: str, chinese: bool) -> Iterator[tuple[int, int, int]]:
    for pattern in _AMOUNTS if chinese else _AMOUNTS_NOT_ZH:
        for match in pattern.finditer(text):
            if _overlaps_any(match, text):
                continue
            more = match.group("more") is not None
            good = match.group("good") is not None
            yield (1 if more == good else -1), match.start(), match.end()
            text = _masked(text, match.start(), match.end())


def _overlaps_any(match: re.Match[str], text: str) -> bool:
    # A masked stretch (all blanks) means an earlier amount already read these words.
    return "\0" in text[match.start() : match.end()]


def _alt(words: Sequence[str]) -> str:
    """The words as one alternation, longest first (research.stages.alternation)."""
    return factored(longest_first(words), ignore_case=True)


_BETWEEN_EN = r"(?:(?!(?:" + _alt(cues.NOT_BETWEEN_EN) + r")\b)[\w-]+\s+)?"
# "risk reduction" and "risk factors" are not amounts of risk.
_THINGS_EN = (
    r"(?:(?P<good>" + _alt(cues.GOOD_THINGS_EN) + r")|" + _alt(cues.BAD_THINGS_EN) + r")"
    r"(?![\w-])(?!\s+(?:reduction|reductions|factors?|assessment|management|scores?|profile|"
    r"benchmarks?|tests?|numbers|figures|results|metrics|measurements?|comparisons?|section|"
    r"charts?|data)\b)"
)
_AMOUNT_BEFORE_EN = re.compile(
    r"\b(?:(?P<more>"
    + _alt(cues.MORE_EN)
    + r")|(?:"
    + _alt(cues.LESS_EN)
    + r"))(?:-|\s+"
    + _BETWEEN_EN
    + r")"
    + _THINGS_EN
    + r"\b",
    re.I,
)
_AMOUNT_AFTER_EN = re.compile(
    r"\b"
    + _THINGS_EN
    + r"\s+(?:[\w'-]+\s+){0,2}?(?:is|are|was|were|remains?|stays?|seems?|feels?|looks?|"
    r"appears?|tends? to be|can be|gets?|got|becomes?|became)\s+(?:(?:still|very|quite|"
    r"rather|pretty|fairly|relatively|extremely|really|too|so|incredibly|surprisingly|"
    r"generally|typically|usually|consistently|much|far|even|somewhat|slightly|comparatively|"
    r"noticeably|significantly)\s+){0,2}(?:(?P<more>"
    + _alt(cues.MORE_AFTER_EN)
    + r")|(?:"
    + _alt(cues.LESS_AFTER_EN)
    + r"))\b",
    re.I,
)
_THINGS_ZH = (
    r"(?:(?P<good>" + _alt(cues.GOOD_THINGS_ZH) + r")|" + _alt(cues.BAD_THINGS_ZH) + ")"
    r"(?:量|数量|数|规模|群)?\s*"
)
_AMOUNT_AFTER_ZH = re.compile(
    _THINGS_ZH
    + r"(?:的)?(?:"
    + _alt(cues.ADVERBS_ZH)
    + r"){0,3}(?:(?P<more>"
    + _alt(cues.MORE_AFTER_ZH)
    + r")|(?:"
    + _alt(cues.LESS_AFTER_ZH)
    + r"))"
)
_GAP_ZH = r"[\u4e00-\u9fffA-Za-z]{0,3}?"
_AMOUNT_BEFORE_ZH = re.compile(
    r"(?:(?P<more>"
    + "|".join(
        f"{w}{_GAP_ZH if w in cues.GAP_LEVELS_ZH else ''}"
        for w in sorted(cues.MORE_BEFORE_ZH, key=len, reverse=True)
    )
    + r")|(?:"
    + "|".join(
        f"{w}{_GAP_ZH if w in cues.GAP_LEVELS_ZH else ''}"
        for w in sorted(cues.LESS_BEFORE_ZH, key=len, reverse=True)
    )
    + r"))(?:的)?"
    + _THINGS_ZH
)

_AMOUNTS = (_AMOUNT_BEFORE_EN, _AMOUNT_AFTER_EN, _AMOUNT_AFTER_ZH, _AMOUNT_BEFORE_ZH)
_AMOUNTS_NOT_ZH = tuple(p for p in _AMOUNTS if not needs_cjk(p.pattern))

# --- phrases and words --------------------------------------------------------------------

_PHRASES = [
    (re.compile(factored([p], ignore_case=True), re.I), sign, required_literals(p, True))
    for p, sign in cues.PHRASES
]
_PHRASES_NOT_ZH = [phrase for phrase in _PHRASES if not needs_cjk(phrase[0].pattern)]
_NEGATING_PHRASES = [(re.compile(p, re.I), sign) for p, sign in cues.NEGATING_PHRASES]
_SIGNS = {w.lower(): 1 for w in cues.POSITIVE + cues.POSITIVE_ZH} | {
    w.lower(): -1 for w in cues.NEGATIVE + cues.NEGATIVE_ZH
}
_WORDS_EN = re.compile(
    r"(?<![A-Za-z])(?:" + _alt([re.escape(w) for w in cues.POSITIVE + cues.NEGATIVE]) + r")"
    r"(?![A-Za-z])",
    re.I,
)
_WORDS_ZH = re.compile(_alt([re.escape(w) for w in cues.POSITIVE_ZH + cues.NEGATIVE_ZH]))
_WORDS = (_WORDS_EN, _WORDS_ZH)
_WORDS_NOT_ZH = tuple(p for p in _WORDS if not needs_cjk(p.pattern))
_NEUTRAL = re.compile(factored(cues.NEUTRAL, ignore_case=True), re.I)
_NEUTRAL_AFTER_AMOUNTS = re.compile(cues.NEUTRAL_AFTER_AMOUNTS)


def _in_a_name(text: str, match: re.Match[str]) -> bool:
    """A capitalised cue followed by another capitalised word is part of a name: "Stable
    Diffusion", "Simple Queue Service", "Active Directory"."""
    if not match.group(0)[:1].isupper():
        return False
    return re.match(r"\s+[A-Z]", text[match.end() :]) is not None


# --- what turns a cue ---------------------------------------------------------------------

_NEGATION_EN = re.compile(
    r"\b(?:not|never|hardly|barely|scarcely|isn't|aren't|wasn't|weren't|doesn't|don't|"
    r"didn't|won't|can't|cannot|couldn't|shouldn't|no|nothing|nor|neither|without)\b"
    r"(?P<between>(?:\s+[\w'-]+){0,4})\s*$",
    re.I,
)
_REMEDY_EN = re.compile(
    r"\b(?:less|reduces?|reduced|reducing|eliminates?|eliminated|eliminating|prevents?|"
    r"prevented|avoids?|avoided|avoiding|mitigates?|mitigated|minimi[sz]es?|removes?|removed|"
    r"no more|free of|protects? against|guards? against)\b(?P<between>(?:\s+[\w'-]+){0,2})\s*$",
    re.I,
)
_FIX_EN = re.compile(
    r"\b(?:fix(?:es|ed|ing)?|patch(?:es|ed|ing)?|resolv(?:es|ed|ing)|address(?:es|ed|ing))\b"
    r"(?:\s+[\w'-]+){0,3}\s*$",
    re.I,
)
_FIXED_AFTER = re.compile(
    r"^[^.;,]{0,25}?\b(?:was|were|has been|have been|is|are|got|gets)\s+(?:now\s+)?"
    r"(?:fixed|patched|resolved|addressed)\b|^[^。；，]{0,6}?(?:已|已经|被)修复",
    re.I,
)
_NEGATION_ZH = re.compile(
    r"(?:不|没|没有|并不|并非|不是|不再|不算|不够|不太|从不|毫不|无需|不会|不用|不必|别|未|尚未|"
    r"减少|避免|防止|消除|降低|解决了|解决|摆脱|免去|省去)"
    r"(?:很|太|够|那么|特别|非常|是|算|会|怎么|了|掉|过于|过)?$"
)
_FIX_ZH = re.compile(r"修复了?[\u4e00-\u9fff]{0,4}$")
_HEDGE = re.compile(
    r"\b(?:slightly|somewhat|a bit|a little|marginally|mildly)\s+(?:\w+\s+)?$|"
    r"(?:略微|稍微|略|稍|有点|有些)$",
    re.I,
)
# "not only fast but also cheap": words that end the reach of a negation.
_STOPS_NEGATION = re.compile(r"\b(?:but|yet|though|although|however|only|also)\b", re.I)


def turn(text: str, start: int, end: int) -> float:
    """What the words around the cue at text[start:end] do to it: -1 flips, 0 cancels,
    0.5 weakens."""
    return _turn(text, start, end)


def _turn(text: str, start: int, end: int) -> float:
    """What the words around a cue do to it: -1 flips, 0 cancels, 0.5 weakens."""
    before = text[max(0, start - 40) : start].replace("\0", " ")
    if _FIX_EN.search(before) or _FIX_ZH.search(before) or _FIXED_AFTER.search(text[end:]):
        return 0.0
    weight = 0.5 if _HEDGE.search(before) else 1.0
    for pattern in (_NEGATION_EN, _REMEDY_EN):
        match = pattern.search(before)
        between = re.sub(r"^\s+yet\b", "", match.group("between")) if match else ""
        if match and not _STOPS_NEGATION.search(between):
            return -weight
    return -weight if _NEGATION_ZH.search(before) else weight


# --- masking ------------------------------------------------------------------------------


def _mask_names(sentence: str, options: Sequence[str]) -> str:
    for start, end, _ in mentions_of(sentence, options):
        sentence = sentence[:start] + " " * (end - start) + sentence[end:]
    return sentence


def _masked(text: str, start: int, end: int) -> str:
    """Blank a stretch already read, keeping offsets; \0 marks it for _overlaps_any."""
    return text[:start] + "\0" * (end - start) + text[end:]


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))
