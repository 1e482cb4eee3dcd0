"""Reading the options from the question itself: "between A, B and C", "A vs B", "A or B",
"A、B、C 三选一" and the like."""

from __future__ import annotations

import re
from collections.abc import Callable

from research.stages.plan.rules import CJK, MAX_EXTRACTED_WORDS, MAX_NAME_CHARS, MIN_OPTIONS

_LIST_SEP = re.compile(
    r"\s*(?:,\s*(?:and|or)\s+|,|;|/|&|、|，|\band\b|\bor\b|\bvs\.?(?=\s|$)|\bversus\b)\s*",
    re.IGNORECASE,
)


_ZH_LIST_SEP = re.compile(
    r"\s*(?:、|，|,|/|以及|或者|还是|和|与|跟|及|或|\bvs\.?(?=\s|$)|\bversus\b|\band\b|\bor\b)\s*",
    re.IGNORECASE,
)


# A clause ends at sentence punctuation; "vs." and "Node.js" keep their dots.
_CLAUSE_END = re.compile(r"[?!;:？！；：。]|(?<![vV][sS])\.(?:\s|$)|\s[—–-]\s")


_ZH_CLAUSE_END = re.compile(r"[?!;:？！；：。]|(?<![vV][sS])\.(?:\s|$)")


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


_LEAD_FILLER = _wordset(
    """should we i you they use using pick picking choose choosing select go with adopt buy
    is are which one better the a an our my do does compare comparing between for team
    it to decide deciding on consider considering evaluate evaluating what how good"""
)


_TAIL_FILLER = _wordset(
    """for in on at when with weighing weighted considering regarding based given better
    best overall now today to as which that if since because from by who what is are
    would will should under over"""
)


_FILLER = _LEAD_FILLER | _TAIL_FILLER


# Longest first, so "选择" goes before "选" can leave "择" behind.
_ZH_LEAD_FILLER = sorted(
    _wordset("请问 我们 我 团队 公司 到底 究竟 应该 应当 该 要 是 选择 选 使用 采用 用 购买 买 在"),
    key=len,
    reverse=True,
)


_ZH_TAIL_FILLER = re.compile(r"(?:哪个|哪一个|更好|更合适|比较好|好|合适|呢|吗|吧|呀)+$")


_QUOTES = "\"'“”‘’「」『』《》`()（）[]【】"


_TRAILING_PUNCT = ".,;:!?。，；：！？…"

_SHARE = re.compile(r"\d\s*%")


def extract_options(question: str) -> list[str]:
    """Read the options from the question's phrasing; [] when no phrasing matches."""
    finders: list[Callable[[str], list[str]]] = [_between, _choose, _versus, _either]
    if CJK.search(question):
        finders = [_zh_between, _zh_pick_one, _zh_or, _zh_compare, *finders]
    for finder in finders:
        found = finder(question)
        if len(found) >= MIN_OPTIONS:
            return found
    return []


def _between(question: str) -> list[str]:
    match = re.search(r"\bbetween\s+(.+)", question, re.IGNORECASE)
    return _english_list(_clause(match.group(1))) if match else []


def _choose(question: str) -> list[str]:
    pattern = r"\b(?:choose|pick|select|compare|comparing)\b\s*(?:from|among|between)?\s*:?\s*(.+)"
    match = re.search(pattern, question, re.IGNORECASE)
    return _english_list(_clause(match.group(1))) if match else []


def _versus(question: str) -> list[str]:
    for clause in _CLAUSE_END.split(question):
        parts = re.split(r"\s+(?:vs\.?|versus)\s+", clause, flags=re.IGNORECASE)
        if len(parts) >= 2:
            head = re.split(r"[,;]", parts[0])[-1]
            return _english_list(" vs ".join([head, *parts[1:]]))
    return []


def _either(question: str) -> list[str]:
    """'A or B?' only as a question, so 'A or better' in a statement is not an option list."""
    if not question.rstrip().endswith(("?", "？")):
        return []
    for clause in _CLAUSE_END.split(question):
        if re.search(r"\bor\b", clause, re.IGNORECASE):
            return _english_list(clause)
    return []


def _english_list(span: str) -> list[str]:
    items = [_clean(i) for i in _LIST_SEP.split(_cut_tail(span))]
    items = [i for i in items if i]
    # "A vs B, cost 60%, risk 40%": items giving a share of the weight are dimensions.
    while items and _SHARE.search(items[-1]):
        items.pop()
    # "Which is better, A or B?": a leading item of filler words only is not an option.
    first = 0
    while len(items) - first > MIN_OPTIONS and all(
        w.lower() in _FILLER for w in items[first].split()
    ):
        first += 1
    items = items[first:]
    if not items:
        return []
    items[0] = _strip_lead(items[0])
    return items if all(_plausible(i) for i in items) else []


def _clause(text: str) -> str:
    return _CLAUSE_END.split(text, maxsplit=1)[0]


def _cut_tail(span: str) -> str:
    """Cut "A and B for analytics" at the first filler word after the first separator.

    Words before the first separator belong to the lead ("Should we use A or B"), which
    _strip_lead handles, so they are not searched for a tail.
    """
    first = _LIST_SEP.search(span)
    start = first.end() if first else 0
    words = span[start:].split()
    for index, word in enumerate(words[1:], start=1):
        if word.lower().strip(_TRAILING_PUNCT) in _TAIL_FILLER:
            return span[:start] + " ".join(words[:index])
    return span


def _strip_lead(item: str) -> str:
    """Drop "should we use" from "should we use Quillnote", always keeping the last word."""
    words = item.split()
    first = 0
    while len(words) - first > 1 and words[first].lower() in _LEAD_FILLER:
        first += 1
    words = words[first:]
    if len(words) > 3:
        words = _trailing_names(words)
    return " ".join(words)


def _trailing_names(words: list[str]) -> list[str]:
    """In "we want a notes tool Quillnote", the name is the trailing capitalised run."""
    start = len(words)
    while start and (words[start - 1][:1].isupper() or words[start - 1][:1].isdigit()):
        start -= 1
    return words[start:] or words[-1:]


def _clean(item: str) -> str:
    return item.strip().strip(_QUOTES).strip().rstrip(_TRAILING_PUNCT).strip().strip(_QUOTES)


def _plausible(item: str) -> bool:
    return 0 < len(item) <= MAX_NAME_CHARS and len(item.split()) <= MAX_EXTRACTED_WORDS


def _zh_between(question: str) -> list[str]:
    """The span of "在…之间" on the first line that has one. Only the line's first 在 needs
    trying: when no 之间 follows it, none follows a later one either."""
    for line in question.splitlines():
        start = line.find("在")
        end = line.find("之间", start + 2) if start >= 0 else -1
        if end >= 0:
            return _chinese_list(line[start + 1 : end])
    return []


# Anchored at a line's start, so a question without the marker is scanned once, not once
# from every character; the first line that has the marker matches from its start anyway.
_ZH_PICK_ONE = re.compile(r"^(.+?)\s*[二两三四五六七八]选一", re.MULTILINE)


_ZH_COMPARE = re.compile(
    # "A 和 B 选哪个": a verb of choosing before 哪个 is not part of the last option.
    r"^(.+?)\s*(?:对比|比较|相比|(?:选择|选用|选|用|挑|买)?\s*哪一?个|谁更)",
    re.MULTILINE,
)


def _zh_pick_one(question: str) -> list[str]:
    match = _ZH_PICK_ONE.search(question)
    return _chinese_list(_last_clause(match.group(1))) if match else []


def _zh_or(question: str) -> list[str]:
    for clause in _ZH_CLAUSE_END.split(question):
        if "还是" in clause:
            return _chinese_list(clause)
    return []


def _zh_compare(question: str) -> list[str]:
    match = _ZH_COMPARE.search(question)
    return _chinese_list(_last_clause(match.group(1))) if match else []


def _last_clause(text: str) -> str:
    """The clause just before the marker. With "、" as the list separator, a comma ends the
    preamble ("笔记工具，A、B、C 三选一"); without it, commas may separate the options."""
    clause = _ZH_CLAUSE_END.split(text.rstrip(_TRAILING_PUNCT + " "))[-1]
    return re.split(r"[，,]", clause)[-1] if "、" in clause else clause


def _chinese_list(span: str) -> list[str]:
    items = [_clean(i) for i in _ZH_LIST_SEP.split(span)]
    items = [i for i in items if i]
    if not items:
        return []
    items[0] = _strip_zh_lead(_strip_lead(items[0]))
    items[-1] = _clean(_ZH_TAIL_FILLER.sub("", items[-1]))
    return items if all(_plausible(i) for i in items) else []


def _strip_zh_lead(item: str) -> str:
    """Drop "我们应该用" from "我们应该用飞书". At least two characters stay, so a name that
    starts like a filler word ("用友") keeps its first character."""
    start, changed = 0, True
    while changed:
        changed = False
        for filler in _ZH_LEAD_FILLER:
            if item.startswith(filler, start) and len(item) - start - len(filler) >= 2:
                start += len(filler)
                # Skip the spaces .strip() would drop, without copying the rest each time.
                while start < len(item) and item[start].isspace():
                    start += 1
                changed = True
    return item[start:].strip()
