"""Comparisons: a sentence that ranks one option against another ("X is faster than Y",
"X 不如 Y", "相比 Y，X 更轻量") says something opposite about each of them."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from research.reading.claims.mentions import mentions_of, option_mentions
from research.reading.claims.stances import stance_polarity

__all__ = ["compare", "option_mentions"]

Mention = tuple[int, int, str]


def compare(sentence: str, options: Sequence[str]) -> dict[str, int]:
    """The polarity the sentence gives each option it compares: {"X": 1, "Y": -1} for "X is
    faster than Y". Empty when it does not rank two of the options against each other."""
    mentions = mentions_of(sentence, options)
    if len({option for _, _, option in mentions}) < 2:
        return {}
    for reader in _READERS:
        result = reader(sentence, mentions, options)
        if result:
            return result
    return {}


def _ranked(winners: list[str], losers: list[str], sign: int) -> dict[str, int]:
    """Winners get the sign, losers the opposite; an option on both sides gets nothing."""
    if not sign or not winners or not losers or set(winners) & set(losers):
        return {}
    return {o: sign for o in winners} | {o: -sign for o in losers}


# --- where the options sit around a marker ------------------------------------------------

_CLAUSE_BREAK = re.compile(
    r"[;:。；：!?！？]|,\s*(?:but|while|whereas|although|though)\b|\b(?:but|while|whereas)\b", re.I
)
_LIST_JOINER = re.compile(r"^(?:\s|,|、|/|&|\band\b|\bor\b|\bboth\b|和|与|及|以及)*$", re.I)


def _subjects_before(sentence: str, mentions: list[Mention], at: int) -> list[str]:
    """The option named last before `at` in the same clause, with any listed along with it
    ("Kafka and NATS are both faster than ...")."""
    start = max((m.end() for m in _CLAUSE_BREAK.finditer(sentence, 0, at)), default=0)
    before = [m for m in mentions if start <= m[0] and m[1] <= at]
    if not before:
        return []
    chosen = [before[-1]]
    for mention in reversed(before[:-1]):
        if not _LIST_JOINER.match(sentence[mention[1] : chosen[-1][0]]):
            break
        chosen.append(mention)
    return [option for _, _, option in chosen]


def _option_right_after(
    sentence: str, mentions: list[Mention], at: int, reach: int = 14
) -> Mention | None:
    """The option named just after `at` ("than the Y", "than with Y's", "比 Y")."""
    for mention in mentions:
        if at <= mention[0] <= at + reach:
            gap = sentence[at : mention[0]]
            if re.fullmatch(r"[\s\"'“”‘’(（]*(?:(?:the|with|using|that of|in|for|on)\s+)*", gap):
                return mention
    return None


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


# --- English ------------------------------------------------------------------------------

_THAN = re.compile(r"\bthan\b", re.I)
_AS_AS = re.compile(r"\bas\s+[\w-]+(?:\s+[\w-]+)?\s+as\b", re.I)


def _than(sentence: str, mentions: list[Mention], options: Sequence[str]) -> dict[str, int]:
    """X is faster than Y / X has fewer bugs than Y / X is not as fast as Y."""
    for marker in list(_THAN.finditer(sentence)) + list(_AS_AS.finditer(sentence)):
        reference = _option_right_after(sentence, mentions, marker.end())
        subjects = _subjects_before(sentence, mentions, marker.start())
        if reference is None or not subjects:
            continue
        last = max(m[1] for m in mentions if m[2] in subjects and m[1] <= marker.start())
        said = sentence[last : marker.start()]
        if marker.group(0).lower() != "than":
            said += " " + marker.group(0)[2:-2]  # "as fast as" ranks only when negated
            if not re.search(r"\bnot\b|n't\b", said, re.I):
                continue
        sign = _comparative_sign(said, options)
        if result := _ranked(subjects, [reference[2]], sign):
            return result
    return {}


_BEATS = re.compile(
    r"\b(?:(?P<win>outperform(?:s|ed)?|beats?|surpass(?:es|ed)?|exceeds?|exceeded|trumps?|"
    r"outshines?|outpaces?|outclasses|edges? out|wins? (?:over|against)|"
    r"(?:is|are|was) (?:superior|preferable) to|(?:is|are|was) (?:preferred|favou?red) over|"
    r"(?:is|are|was) ahead of)|"
    r"(?P<lose>lags? behind|lagging behind|trails?|falls? behind|falls? short of|"
    r"(?:is|are|was) inferior to|(?:is|are|was) (?:outperformed|beaten|surpassed|outclassed) by|"
    r"(?:is|are|was) behind))\b",
    re.I,
)
_NOT_BEFORE = re.compile(r"\b(?:not|never|doesn't|don't|didn't|isn't|aren't|wasn't)\s+$", re.I)


def _beats(sentence: str, mentions: list[Mention], options: Sequence[str]) -> dict[str, int]:
    """X outperforms Y / X lags behind Y / X is superior to Y."""
    for marker in _BEATS.finditer(sentence):
        reference = _option_right_after(sentence, mentions, marker.end())
        subjects = _subjects_before(sentence, mentions, marker.start())
        if reference is None or not subjects:
            continue
        sign = 1 if marker.group("win") else -1
        if _NOT_BEFORE.search(sentence[max(0, marker.start() - 12) : marker.start()]):
            sign = -sign
        if result := _ranked(subjects, [reference[2]], sign):
            return result
    return {}


_CHOICE = re.compile(
    r"\b(?:prefer(?:s|red)?|choose|chose|chosen|choosing|pick(?:s|ed)?|recommend(?:s|ed)?|"
    r"favou?r(?:s|ed)?|went with|go with|use|using|switch(?:ed)? to|migrat(?:e|ed|ing) to)\s+$",
    re.I,
)
_OVER = re.compile(r"^\s*(?:over|instead of|rather than|in preference to|to)\s+", re.I)


def _choice(sentence: str, mentions: list[Mention], options: Sequence[str]) -> dict[str, int]:
    """We chose X over Y / prefer X to Y / use X instead of Y."""
    for first, second in itertools.pairwise(mentions):
        lead_in = sentence[max(0, first[0] - 30) : first[0]]
        between = sentence[first[1] : second[0]]
        choice = _CHOICE.search(lead_in)
        if choice is None or not _OVER.fullmatch(between) or first[2] == second[2]:
            continue
        if between.strip().lower() == "to" and not choice.group(0).lower().startswith("prefer"):
            continue  # "use X to feed Y" is not a preference; "prefer X to Y" is
        return {first[2]: 1, second[2]: -1}
    return {}


_NOT_Y = re.compile(r"^\s*,?\s*(?:and\s+|but\s+)?not\s+$", re.I)


def _not_instead(sentence: str, mentions: list[Mention], options: Sequence[str]) -> dict[str, int]:
    """ "X, not Y, is the better choice": what is said of X is denied of Y."""
    for first, second in itertools.pairwise(mentions):
        if first[2] == second[2] or not _NOT_Y.match(sentence[first[1] : second[0]]):
            continue
        sign = stance_polarity(sentence[second[1] :], options)
        if result := _ranked([first[2]], [second[2]], sign):
            return result
    return {}


_REFERENCE_EN = re.compile(
    r"\b(?P<unlike>unlike)\b|\b(?:compared (?:to|with)|in comparison (?:to|with)|"
    r"in contrast (?:to|with)|relative to|as opposed to)\b",
    re.I,
)
_HAS = re.compile(
    r"\b(?:supports?|offers?|provides?|has|have|includes?|ships?|comes? with|handles?|allows?|"
    r"lets?|can|is able to|does|gives?)\b",
    re.I,
)


def _reference(sentence: str, mentions: list[Mention], options: Sequence[str]) -> dict[str, int]:
    """Unlike Y, X supports ... / Compared with Y, X is lighter / X is lighter compared to Y."""
    for marker in _REFERENCE_EN.finditer(sentence):
        reference = _option_right_after(sentence, mentions, marker.end())
        if reference is None:
            continue
        subjects, after, before = _around(sentence, mentions, marker.start(), reference)
        sign = stance_polarity(after, options) or stance_polarity(before, options)
        if not sign and marker.group("unlike") and _HAS.search(after):
            sign = 1  # "unlike Y, X supports ..." names what X has and Y lacks
        if result := _ranked(subjects, [reference[2]], sign):
            return result
    return {}


def _around(
    sentence: str, mentions: list[Mention], start: int, reference: Mention
) -> tuple[list[str], str, str]:
    """Who is set against the reference (options named after the reference phrase, else the
    one named just before it), and the words that may judge them: what follows the phrase
    ("相比 Y，X 更轻量", "与 Y 相比仍有差距"), and the clause before it ("X is lighter
    compared to Y")."""
    stop = _SENTENCE_STOP.search(sentence, reference[1])
    end = stop.start() if stop else len(sentence)
    after = [o for s, e, o in mentions if reference[1] <= s and e <= end and o != reference[2]]
    clause = max((m.end() for m in _CLAUSE_BREAK.finditer(sentence, 0, start)), default=0)
    subjects = after or [
        o for o in _subjects_before(sentence, mentions, start) if o != reference[2]
    ]
    return list(dict.fromkeys(subjects)), sentence[reference[1] : end], sentence[clause:start]


_SENTENCE_STOP = re.compile(r"[;。；!?！？]")


# --- Chinese ------------------------------------------------------------------------------

_BI = re.compile(r"(?<![相对无])(?P<not>不|没有|没)?比(?!较|如|例|率|赛|特|重|起|对|喻|拟)")
_NOT_AS = re.compile(r"没有|不像")
_CLAUSE_END_ZH = re.compile(r"[，,。；;！？!?]")


def _bi(sentence: str, mentions: list[Mention], options: Sequence[str]) -> dict[str, int]:
    """X 比 Y 快 / X 没有 Y 快 / X 不比 Y 差."""
    markers = [(m.start(), m.end(), bool(m.group("not"))) for m in _BI.finditer(sentence)]
    markers += [(m.start(), m.end(), True) for m in _NOT_AS.finditer(sentence)]
    for start, end, negated in markers:
        reference = _option_right_after(sentence, mentions, end, reach=3)
        subjects = _subjects_before(sentence, mentions, start)
        if reference is None or not subjects:
            continue
        stop = _CLAUSE_END_ZH.search(sentence, reference[1])
        last = max(m[1] for m in mentions if m[2] in subjects and m[1] <= start)
        # "X 体积比 Y 小": the measure sits before 比, the level after Y.
        said = sentence[last:start] + sentence[reference[1] : stop.start() if stop else None]
        sign = _comparative_sign(said, options)
        if result := _ranked(subjects, [reference[2]], -sign if negated else sign):
            return result
    return {}


_BEATS_ZH = re.compile(
    r"(?P<win>优于|胜过|胜于|强于|好于|领先于|领先|超过|超越|碾压|完胜|吊打|快于)|"
    r"(?P<lose>不如|逊于|逊色于|落后于|落后|劣于|比不上|弱于|不及|输给|慢于)"
)


def _beats_zh(sentence: str, mentions: list[Mention], options: Sequence[str]) -> dict[str, int]:
    """X 优于 Y / X 不如 Y."""
    for marker in _BEATS_ZH.finditer(sentence):
        reference = _option_right_after(sentence, mentions, marker.end(), reach=3)
        subjects = _subjects_before(sentence, mentions, marker.start())
        if reference is None or not subjects:
            continue
        if result := _ranked(subjects, [reference[2]], 1 if marker.group("win") else -1):
            return result
    return {}


_REFERENCE_ZH = re.compile(
    r"(?:相比于?|相较于?|比起|较之)\s*$|(?:与|和|跟|同)\s*$",
)
_REFERENCE_ZH_AFTER = re.compile(r"^\s*(?:相比|相较|比较|比起来|比较起来|对比)")


def _reference_zh(sentence: str, mentions: list[Mention], options: Sequence[str]) -> dict[str, int]:
    """相比 Y，X 更轻量 / 与 Y 相比，X 更成熟 / X 相比 Y 更快."""
    for mention in mentions:
        start, end, option = mention
        lead = _REFERENCE_ZH.search(sentence[max(0, start - 4) : start])
        if lead is None:
            continue
        if lead.group(0).strip() in ("与", "和", "跟", "同"):
            after = _REFERENCE_ZH_AFTER.match(sentence[end:])
            if after is None:
                continue  # "X 和 Y 都支持" lists, it does not compare
            mention = (start, end + after.end(), option)
        subjects, after, before = _around(sentence, mentions, start - len(lead.group(0)), mention)
        sign = _comparative_sign(after, options) or _comparative_sign(before, options)
        if result := _ranked(subjects, [option], sign):
            return result
    return {}


# --- which way a comparative points -------------------------------------------------------

# One-character comparatives that stance cues leave alone because alone they are ambiguous.
_SHORT_ZH = {
    "快": 1,
    "慢": -1,
    "好": 1,
    "差": -1,
    "强": 1,
    "弱": -1,
    "轻": 1,
    "重": -1,
    "贵": -1,
    "便宜": 1,
    "稳": 1,
    "易": 1,
    "难": -1,
    "省": 1,
    "安全": 1,
    "成熟": 1,
    "活跃": 1,
    "简单": 1,
    "复杂": -1,
}
_ADVERBS_ZH = re.compile(r"^(?:[\s要还更更加稍略显得]|一点|一些|得多|很多)*")


def _comparative_sign(said: str, options: Sequence[str]) -> int:
    sign = stance_polarity(said, options)
    if sign:
        return sign
    word = _ADVERBS_ZH.sub("", said)
    return next((s for w, s in _SHORT_ZH.items() if word.startswith(w)), 0)


_READERS: list[Callable[[str, list[Mention], Sequence[str]], dict[str, int]]] = [
    _not_instead,
    _reference,
    _reference_zh,
    _than,
    _beats,
    _choice,
    _bi,
    _beats_zh,
]
