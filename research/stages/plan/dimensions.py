"""Reading the dimensions, and their weights, from the question itself, as options are read:

- a list after a cue: "weighing A, B and C", "considering ...", "in terms of ...",
  "compare X and Y on A and B", "考虑 A、B、C", "权衡 ...", "从 A、B 两个方面";
- an order of importance: "A matters most, then B", "most important is A, followed by B",
  "A matters more than B", "A 最重要，其次是 B";
- shares: "A 占 40%", "A: 40%", "A (40%)", "40% for A".

Weights: shares are taken as given, and dimensions without one split what is left; an order
of importance gives n, n-1, ... to the n dimensions named (those left unranked share the
lowest); otherwise every dimension weighs the same. The plan normalises them.

A dimension never names an option ("considering A or B" is about the options), and a cue
with nothing readable after it is a problem to report, never a reason to use a preset.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from research.stages.plan.options import _LIST_SEP, _ZH_LIST_SEP
from research.stages.plan.rules import CJK, MAX_DIMENSIONS, MAX_NAME_CHARS

MAX_WORDS = 5  # an English dimension longer than this is a misread clause
MAX_ZH_CHARS = 12

_CLAUSE_END = re.compile(r"[?!;:？！；：。]|(?<![vV][sS])\.(?:\s|$)|\s[—–-]\s")
_ZH_CLAUSE_END = re.compile(r"[?!;？！；。，,]")

# Words that end a list of dimensions: what follows is about the team, the time or a reason.
_EN_LIST_END = re.compile(
    r"\s(?:for|when|because|since|while|given|if|but|so|before|after|with|without|"
    r"then|followed|matters?|mattering|counts?|is|are|above|over|where|which|that)\b.*",
    re.IGNORECASE,
)

_EN_CUE = re.compile(
    r"\b(?:weighing(?:\s+up)?|weighting|weighted\s+(?:on|by)|considering|taking\s+into\s+"
    r"account|in\s+terms\s+of|with\s+(?:respect|regard)\s+to|focusing\s+on|focused\s+on|"
    r"prioriti[sz]ing|judged\s+(?:on|by)|judging\s+(?:by|on)|based\s+on|criteria(?:\s+are)?:?)"
    r"\s+(.+)",
    re.IGNORECASE,
)

_EN_COMPARE = re.compile(r"\bcompar(?:e|ing)\b", re.IGNORECASE)

_EN_COMPARE_ON = re.compile(_EN_COMPARE.pattern + r".+?\s(?:on|by)\s+(.+)", re.IGNORECASE)

_ZH_CUE = re.compile(
    r"(?:综合考虑|重点考虑|主要考虑|考虑到|考虑|权衡|兼顾|看重|关注|侧重|衡量|"
    r"(?:评估|评价|比较)?(?:维度|标准|指标)(?:是|为|包括|有)?)[：:\s]*(.+)"
)

# A count of aspects ("十二个") is a short numeral: unbounded, it would be read again from
# every character the lazy list before it grows by.
_ZH_FROM_ASPECTS = re.compile(
    r"从\s*(.+?)\s*(?:等)?\s*(?:[几两二三四五六七八九十\d]{1,8}\s*个)?\s*(?:方面|角度|维度)"
)

# The count starts where its numeral does, never inside it.
_ZH_TAIL = re.compile(
    r"(?:等)?(?:[这那]?(?<![几两二三四五六七八九十\d])[几两二三四五六七八九十\d]+\s*个)?"
    r"(?:方面|因素|角度|维度|指标)?"
    r"(?:来|去|上|中)?(?:看|考虑|比较|对比|评估|选择|选|决定|判断)?$"
)

_EN_LEAD = frozenset(
    """the a an its their our my your his her both overall also and or of for us we me to
    here it this that these those in on at with by as so but although though while really
    very much most more""".split()
)

# A share starts where its digits do (never inside them), so a long run of digits is read
# once, not once from each digit.
_PERCENT = r"(?<!\d)(\d+(?:\.\d+)?)\s*[%％]"

# The ranking patterns below start only where a clause starts (the text's start or just
# after punctuation): a match found from inside a clause is found from its start too, and a
# clause that has none is then scanned once rather than once from each of its characters.
_EN_CLAUSE_START = r"(?:^|(?<=[,;:.!?]))"
_ZH_CLAUSE_START = r"(?:^|(?<=[，,。；;：:！？!?]))"

_ZH_SHARE = re.compile(
    r"([\u4e00-\u9fffA-Za-z][\u4e00-\u9fffA-Za-z0-9 ]{0,20}?)\s*"
    r"(?:占比?|权重(?:为|是)?|比重(?:为|是)?|[（(]\s*占?)\s*" + _PERCENT
)

_EN_SHARE = re.compile(
    r"([A-Za-z][\w' -]{0,60}?)\s*(?::|=|\(|\bat\b|\bweighted(?:\s+at)?\b|\bweight(?:\s+of)?\b|"
    r"\bcounts?\s+(?:for\s+)?)?\s*" + _PERCENT + r"(?=\s*(?:[,;.)）]|\band\b|$))",
    re.IGNORECASE,
)

_EN_SHARE_FOR = re.compile(
    _PERCENT + r"\s*(?:for|on|to)\s+([A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,4})", re.IGNORECASE
)

_EN_MOST = re.compile(
    _EN_CLAUSE_START + r"([^,;:.!?]+?)\s+(?:matters?|mattering|counts?|weighs?|is|are)\s+"
    r"(?:the\s+)?most(?:\s+important)?\b(.*)",
    re.IGNORECASE,
)

# The name after "first" is bounded (a longer one is a misread anyway), so that each of many
# "first"s in one clause reads on only so far.
_EN_MOST_FIRST = re.compile(
    r"(?<![\w-])(?:most\s+important(?:ly)?(?:\s+is|\s+are)?|above\s+all|first(?:ly)?|"
    r"first\s+of\s+all)"
    rf"[\s,:]+([^,;:.!?]{{1,{2 * MAX_NAME_CHARS}}}?)(?=\s*(?:,|;|\.|$|\bthen\b|\bfollowed\b))(.*)",
    re.IGNORECASE,
)

_EN_MORE_THAN = re.compile(
    _EN_CLAUSE_START + r"([^,;:.!?]+?)\s+(?:matters?|counts?|is|are)\s+more(?:\s+important)?"
    r"\s+than\s+([^,;:.!?]+)",
    re.IGNORECASE,
)

_EN_NEXT = re.compile(r"\b(?:and\s+)?(?:then|followed\s+by|next|after\s+that)\b", re.IGNORECASE)

_ZH_MOST = re.compile(
    _ZH_CLAUSE_START + r"([^，,。；;：:！？!?]+?)\s*(?:是)?"
    r"(?:最重要|最关键|最为重要|优先|第一位|放在首位|是首要)(?:的)?(.*)"
)

_ZH_FIRST = re.compile(r"首先(?:是|看|考虑)?\s*([^，,。；;：:！？!?]+)(.*)")

_ZH_NEXT = re.compile(r"(?:其次|再次|然后|再者|最后)(?:是|看|考虑|才是)?")

# Tried on one clause at a time, from its start or just after a 比 (research.stages.plan
# reads a clause's last "重要" first, so a clause with many 比 and none after is read once).
_ZH_MORE_THAN = re.compile(
    r"(?:^|(?<=比))([^，,。；;：:！？!?比]+?)\s*比\s*([^，,。；;：:！？!?]+?)\s*(?:更|还)?"
    r"(?:重要|关键)"
)

_ZH_CLAUSE = re.compile(r"[^，,。；;：:！？!?]+")


@dataclass
class ReadDimensions:
    """What the question says about its dimensions. `dimensions` holds (name, weight) with
    weights not yet normalised; `cue` the words that announced dimensions, when some did;
    `problem` why they could not be read, when they could not."""

    dimensions: list[tuple[str, float]] = field(default_factory=list)
    cue: str = ""
    problem: str = ""


def read_dimensions(question: str, options: Sequence[str] = ()) -> ReadDimensions:
    text = " ".join(question.split())
    zh = bool(CJK.search(text))
    listed, list_cue = _listed(text, zh)
    ranked, rank_cue = _ranked(text, zh)
    shares, share_cue = _shares(text, zh)
    cue = list_cue or rank_cue or share_cue
    names = _merge([*listed, *[n for group in ranked for n in group], *shares], options)
    if not cue:
        return ReadDimensions()
    if not names:
        if _only_options([*listed, *shares, *[n for g in ranked for n in g]], options):
            return ReadDimensions()  # "considering A or B": the cue was about the options
        return ReadDimensions(cue=cue, problem=_unreadable(cue, zh))
    if len(names) > MAX_DIMENSIONS:
        return ReadDimensions(cue=cue, problem=_too_many(len(names)))
    weights, problem = _weights(names, ranked, shares, zh)
    return ReadDimensions(list(zip(names, weights, strict=True)), cue, problem)


# --- the three ways a question names its dimensions ---------------------------------------


def _listed(text: str, zh: bool) -> tuple[list[str], str]:
    if zh:
        for match in (_at_first(_ZH_FROM_ASPECTS, text, "从"), _ZH_CUE.search(text)):
            if match:
                return _zh_items(match.group(1)), match.group(0)[:24]
    for match in (_EN_CUE.search(text), _at_first(_EN_COMPARE_ON, text, _EN_COMPARE)):
        if match:
            cue = match.group(0)[: match.start(1) - match.start(0)].strip()
            return _en_items(match.group(1)), cue
    return [], ""


def _ranked(text: str, zh: bool) -> tuple[list[list[str]], str]:
    """Groups in order of importance: [["cost"], ["risk"]] for "cost matters most, then risk"."""
    if zh:
        match = _zh_more_than(text)
        if match:
            return [[_zh_name(match.group(1))], [_zh_name(match.group(2))]], "比…更重要"
        for pattern, cue in ((_ZH_FIRST, "首先"), (_ZH_MOST, "最重要")):
            match = pattern.search(text)
            if match:
                head = _zh_name(_zh_after_cue(match.group(1)))
                return [[head], *_zh_then(match.group(2))], cue
        return [], ""
    match = _EN_MORE_THAN.search(text)
    if match:
        return [[_en_head(match.group(1))], [_en_name(match.group(2))]], "more than"
    match = _EN_MOST.search(text)
    if match:
        return [[_en_head(match.group(1))], *_en_then(match.group(2))], "most"
    match = _EN_MOST_FIRST.search(text)
    then = _en_then(match.group(2)) if match else []
    if match and then:  # "first, A vs B" is no order of importance
        return [[_en_name(match.group(1))], *then], match.group(0).split()[0]
    return [], ""


def _at_first(pattern: re.Pattern[str], text: str, lead: str | re.Pattern[str]):
    """`pattern` matched where `lead` first occurs, for patterns that, failing there, fail at
    every later `lead` too: only the first is tried, so the text is read once."""
    start = text.find(lead) if isinstance(lead, str) else _start_of(lead.search(text))
    return pattern.match(text, start) if start >= 0 else None


def _start_of(match: re.Match[str] | None) -> int:
    return match.start() if match else -1


def _zh_more_than(text: str) -> re.Match[str] | None:
    """ "A 比 B 更重要" in the first clause that says it. A clause is read only up to its last
    重要 or 关键, where any such match ends."""
    for clause in _ZH_CLAUSE.findall(text):
        end = max(clause.rfind("重要"), clause.rfind("关键")) + 2
        if end > 1 and "比" in clause[:end]:
            match = _ZH_MORE_THAN.search(clause[:end])
            if match:
                return match
    return None


def _shares(text: str, zh: bool) -> tuple[dict[str, float], str]:
    found: dict[str, float] = {}
    if "%" not in text and "％" not in text:
        return found, ""  # every share names its percent; the patterns need not try
    if zh:
        for match in _ZH_SHARE.finditer(text):
            found[_zh_name(_zh_after_cue(_zh_last_item(match.group(1))))] = float(match.group(2))
    for match in _EN_SHARE.finditer(text):
        found[_en_head(_en_last_item(match.group(1)))] = float(match.group(2))
    for match in _EN_SHARE_FOR.finditer(text):
        found[_en_name(_LIST_SEP.split(match.group(2))[0])] = float(match.group(1))
    found = {name: share for name, share in found.items() if name}
    return found, ("%" if found else "")


# --- items ------------------------------------------------------------------------------


def _en_items(span: str) -> list[str]:
    span = _CLAUSE_END.split(span, maxsplit=1)[0]
    span = _EN_LIST_END.sub("", span)
    span = re.sub(r"\bas\s+well\s+as\b", ",", span, flags=re.IGNORECASE)
    return [_en_name(_strip_share(item)) for item in _LIST_SEP.split(span) if item.strip()]


def _zh_items(span: str) -> list[str]:
    span = re.split(r"[?!;:？！；：。]", span, maxsplit=1)[0]
    # A comma ends the list unless the list is separated by commas itself.
    if "、" in span or not re.search(r"[，,]", span):
        span = re.split(r"[，,]", span, maxsplit=1)[0]
    return [_zh_name(_strip_share(item)) for item in _ZH_LIST_SEP.split(span) if item.strip()]


def _strip_share(item: str) -> str:
    return re.sub(
        r"\s*(?:[（(]\s*)?(?:占比?|权重|比重|at|weighted)?\s*" + _PERCENT + r"\s*[）)]?", "", item
    )


def _en_name(item: str) -> str:
    words = item.strip(" \"'“”‘’()[]").rstrip(".,!?").split()
    first = 0
    while first < len(words) and words[first].lower() in _EN_LEAD:
        first += 1
    while len(words) > first and words[-1].lower() in _EN_LEAD:
        words.pop()
    name = " ".join(words[first:])
    return name if _plausible(name) else "?" + name


def _en_head(text: str) -> str:
    """The dimension at the end of "for our team cost": the last words that are no filler."""
    text = re.split(r"[,;:]", text)[-1]
    cue = _EN_CUE.search(text)
    words = (cue.group(1) if cue else text).split()
    start = len(words)
    while start and words[start - 1].lower() not in _EN_LEAD:
        start -= 1
    return _en_name(" ".join(words[max(start, len(words) - MAX_WORDS) :]))


def _en_last_item(text: str) -> str:
    parts = [p for p in _LIST_SEP.split(text) if p.strip()]
    return parts[-1] if parts else ""


def _en_then(rest: str) -> list[list[str]]:
    rest = _CLAUSE_END.split(rest, maxsplit=1)[0]
    groups = []
    for chunk in _EN_NEXT.split(rest)[1:]:
        chunk = re.sub(r"\b(?:matters?|counts?|is|are)\b.*", "", chunk, flags=re.IGNORECASE)
        items = [_en_name(i) for i in _LIST_SEP.split(chunk) if i.strip(" ,")]
        if items:
            groups.append(items)
    return groups


def _zh_name(item: str) -> str:
    name = _ZH_TAIL.sub("", item.strip(" \"'“”‘’「」（）()[]【】的")).strip()
    name = re.sub(r"^(?:[是为和与及]|以及)", "", name).strip()
    return name if _plausible(name) else "?" + name


def _zh_after_cue(text: str) -> str:
    match = _ZH_CUE.search(text)
    return match.group(1) if match else text


def _zh_last_item(text: str) -> str:
    parts = [p for p in re.split(r"[、，,；;：:。和与及]", text) if p.strip()]
    return parts[-1] if parts else ""


def _zh_then(rest: str) -> list[list[str]]:
    rest = re.split(r"[。；;！？!?]", rest, maxsplit=1)[0]
    groups = []
    for chunk in _ZH_NEXT.split(rest)[1:]:
        chunk = re.split(r"[，,]", chunk.strip("，, "), maxsplit=1)[0]
        items = [_zh_name(i) for i in _ZH_LIST_SEP.split(chunk) if i.strip()]
        if items:
            groups.append(items)
    return groups


# "weighing everything we know" names no dimension.
_VAGUE = frozenset("everything anything all something whatever 一切 所有 全部 各方面".split())


def _plausible(name: str) -> bool:
    if (
        not name
        or name.split()[0].casefold() in _VAGUE
        or len(name) > MAX_NAME_CHARS
        or not re.search(r"\w", name)
    ):
        return False
    if CJK.search(name):
        return len(name) <= MAX_ZH_CHARS and " " not in name.strip()
    return len(name.split()) <= MAX_WORDS


# --- merging and weighing -----------------------------------------------------------------


def _merge(names: list[str], options: Sequence[str]) -> list[str]:
    """In order of first mention, once each, without options or names that mention one.
    A misread name (marked "?") spoils the reading."""
    mentions = _OptionMentions(options)
    if any(n.startswith("?") for n in names if not mentions.in_(n.lstrip("?"))):
        return []
    kept: dict[str, str] = {}
    for name in names:
        if name and not mentions.in_(name):
            kept.setdefault(name.casefold(), name)
    return list(kept.values())


class _OptionMentions:
    """Whether a name mentions one of the options as a whole word. An option is looked for
    only in names that hold its first word, so that a question reading as hundreds of
    options and names is not checked name by option."""

    def __init__(self, options: Sequence[str]) -> None:
        self.by_word: dict[str, list[str]] = {}
        self.wordless: list[str] = []
        for option in dict.fromkeys(o for o in options if o):
            words = _words(option)
            if words:
                self.by_word.setdefault(words[0], []).append(option)
            else:
                self.wordless.append(option)

    def in_(self, name: str) -> bool:
        words = dict.fromkeys(_words(name))
        candidates = [o for w in words for o in self.by_word.get(w, ())] + self.wordless
        return any(
            re.search(rf"(?<!\w){re.escape(o)}(?!\w)", name, re.IGNORECASE) for o in candidates
        )


_WORD = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    """Words folded so that any two IGNORECASE matches fold alike ("İ" and "ı" match "i")."""
    return _WORD.findall(text.casefold().replace("\u0307", "").replace("ı", "i"))


def _only_options(names: list[str], options: Sequence[str]) -> bool:
    mentions = _OptionMentions(options)
    return bool(names) and all(mentions.in_(n.lstrip("?")) for n in names)


def _weights(
    names: list[str], ranked: list[list[str]], shares: dict[str, float], zh: bool
) -> tuple[list[float], str]:
    folded_shares = {k.casefold(): v for k, v in shares.items()}
    if folded_shares:
        given = {n: folded_shares[n.casefold()] for n in names if n.casefold() in folded_shares}
        rest = [n for n in names if n not in given]
        left = 100.0 - sum(given.values())
        if rest and left <= 0:
            return [1.0] * len(names), _no_share_left(rest, zh)
        each = left / len(rest) if rest else 0.0
        return [given.get(n, each) for n in names], ""
    if ranked:
        rank = {}
        for index, group in enumerate(ranked):
            for name in group:
                rank.setdefault(name.casefold(), len(names) - index)
        lowest = max(1, len(names) - len(ranked))
        return [float(rank.get(n.casefold(), lowest)) for n in names], ""
    return [1.0] * len(names), ""


# --- messages -------------------------------------------------------------------------------


def _unreadable(cue: str, zh: bool) -> str:
    example = "考虑 A、B、C" if zh else "weighing A, B and C"
    return (
        f"The question says what to weigh (\u201c{cue}\u201d) but no dimension could be read "
        f"from it: write them as \u201c{example}\u201d, or list them as dimensions."
    )


def _too_many(count: int) -> str:
    return f"The question names {count} dimensions; use at most {MAX_DIMENSIONS}."


def _no_share_left(rest: list[str], zh: bool) -> str:
    names = "、".join(rest) if zh else ", ".join(rest)
    return f"The shares in the question add up to 100% or more, leaving nothing for {names}."
