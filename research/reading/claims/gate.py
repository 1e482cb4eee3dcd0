"""Whether a sentence states anything at all.

A careful reader takes a stance only from a statement. Headings, titles and tag lines,
questions, calls to action, an article describing itself, a study describing its own
design, and fragments cut mid-sentence may be quoted, but they judge nothing.
"""

from __future__ import annotations

import re

from research.reading.text import has_cjk

_BULLET = re.compile(r"^\s*(?:[-*+•·▪◦‣–—]|\d{1,2}[.)、]|[①-⑩])\s*(?=\S)")
_TERMINAL = re.compile(r"[.!。！…](?:[\"'”’)\]）】*_]|\[\d+\])*\s*$")
_QUESTION = re.compile(r"[?？]")
# "Why exactly-once is a myth, and how ...": a title or a list of questions.
_INDIRECT_QUESTION = re.compile(r"^(?:why|how|whether)\b", re.I)
# Function words a sentence does not end on: the page was cut there.
_DANGLING = re.compile(
    r"\b(?:a|an|the|of|to|for|from|with|by|in|on|at|and|or|but|both|as|than|that|which|"
    r"whose|its|their|is|are|was|were|be|very|more|most|such|into|onto|between|about)\s*$",
    re.I,
)
_CALL_TO_ACTION = re.compile(
    r"^(?:to (?:\w+ ){1,8}?[^,]*,\s*(?:contact|visit|see|click|email|call|go to)\b|"
    r"compare|learn|understand|discover|find out|read|click|explore|check out|sign up|subscribe|"
    r"download|get started|join|follow|share|watch|register|contact|consult|talk to|ask|"
    r"visit|see|try|book|request|schedule|buy|order|shop|let's|let us)\b(?!-)|"
    r"^(?:立即|马上|现在就|点击|下载|注册|订阅|关注|了解更多|免费试用|欢迎)",
    re.I,
)
# An article, video or page describing itself: "This article compares ...".
_SELF_DESCRIPTION = re.compile(
    r"^(?:in )?(?:this|the following|our|the present) (?:article|post|blog post|guide|"
    r"tutorial|page|video|section|chapter|review|comparison|benchmark|report|analysis|"
    r"write-?up|piece|overview|table|chart|list|survey)\b|"
    r"^an? (?:[\w-]+ ){0,3}(?:benchmark|comparison|guide|overview|review|look|introduction|"
    r"tutorial|analysis)s? (?:comparing|of|to|at|on|into)\b|"
    r"^(?:here(?:'s| is| are)|below (?:is|are|we)|we(?:'ll| will) (?:look|compare|explore|"
    r"cover|discuss|walk)|let's (?:look|compare|dive|explore))\b|"
    r"^(?:本文|这篇文章|本篇|下面|接下来|以下)(?:将|会|我们|来|对|介绍|比较|对比|分析|总结)",
    re.I,
)
# "Achieving Guaranteed Reliability in Celery: Why ...": a title, then its subtitle, with
# no full stop ("Alternative Drug Classes: other classes offer ..." is a labelled sentence).
_TITLE_BEFORE_COLON = re.compile(
    r"^(?:(?:[A-Z][\w'-]*|[0-9][\w.]*|a|an|the|and|or|of|in|on|for|to|with|vs\.?|by|at)\s+)"
    r"{2,}(?:[A-Z][\w'-]*)\s*:\s"
)
_SECTION_NUMBER = re.compile(r"^\d+(?:\.\d+)+\.?\s+\S")  # "1.1 React: ..."
_LINK = re.compile(r"https?://\S+")
_MARKER = re.compile(r"\s*(?:[-*+•·▪◦‣–—]|\d{1,2}[.)、]|[①-⑩])\s*")
# "Feature Status: Stable ... Documentation Source: https://...": fields, not sentences.
_METADATA = re.compile(
    r"\b[A-Z][\w ]{1,24}:\s+\S.*\s[A-Z][\w ]{1,24}:\s+\S|\b(?i:source):\s*https?://"
)
# The writer's own plans: "I wanted to benchmark FastAPI and Django".
_PLAN = re.compile(
    r"^(?:so |now |first,? )?(?:i|we)(?:'m|'re| am| are)?\s*(?:was |were |have |had )?"
    r"(?:wanted|want|plan(?:ned)?|decided|tried|set out|going|intend(?:ed)?|aim(?:ed)?|"
    r"will|'ll)\b|^(?:我|我们)(?:打算|准备|计划|想要?|将要?|决定)",
    re.I,
)
# A study describing how it was done rather than what it found.
_STUDY_DESIGN = re.compile(
    r"\b(?:we|they|patients|participants|subjects) (?:were )?(?:randomly assigned|"
    r"randomi[sz]ed|enrolled|recruited|assigned)\b|"
    r"\b(?:were|was) randomi[sz]ed\b|\brandomly assigned\b|"
    r"\b(?:the )?(?:aim|objective|purpose|goal)s? (?:of (?:this|the|our) (?:study|trial|"
    r"analysis|review)|was|were|is)\b|"
    r"\b(?:was|were|is) to (?:assess|evaluate|compare|determine|investigate|examine|test)\b|"
    r"\b(?:primary|secondary|key secondary|composite) (?:end ?points?|outcomes?) (?:was|were|"
    r"is|are|included|consisted|comprised|defined)\b|"
    r"^(?:outcomes?|end ?points?|methods?|design|population|setting|interventions?|"
    r"participants|inclusion criteria|exclusion criteria)\b\s*[:A-Z]|"
    r"\binclusion criteria\b|\bexclusion criteria\b|\bdouble-blind\b|"
    r"\b(?:conducted|designed|powered|performed) (?:as \w+ )?to (?:demonstrate|show|assess|"
    r"evaluate|test|determine)\b|\b(?:was|is) a (?:\w+ ){0,3}(?:randomi[sz]ed|placebo-controlled|"
    r"multicentre|multicenter) (?:\w+ )?(?:trial|study)\b",
    re.I,
)


def not_a_statement(quote: str, before: str = "", after: str = "") -> str | None:
    """Why the quote states nothing a stance can be read from, or None when it does.

    `before` and `after` are the stored text just around the quote: a quote that opens a
    line and has no full stop is a heading or a title; one the text ends on without a
    full stop was cut off."""
    text = quote.strip()
    bullet = _BULLET.match(text)
    body = text[bullet.end() :] if bullet else text
    marker = before.rsplit("\n", 1)[-1]
    if before and _MARKER.fullmatch(marker):  # the quote starts after its list marker
        before, bullet = before[: len(before) - len(marker)], bullet or _BULLET.match("- x")
    elif _MARKER.fullmatch(before.rstrip("\n").rsplit("\n", 1)[-1] or "x"):
        bullet = bullet or _BULLET.match("- x")  # "-" on a line of its own, the item below
    if _QUESTION.search(body):
        return "a question"
    if _INDIRECT_QUESTION.match(body):
        return "a question or a title"
    if body.lstrip().startswith("#") or _SECTION_NUMBER.match(text):
        return "a heading"
    if _CALL_TO_ACTION.match(body):
        return "a call to action"
    if _METADATA.search(body) or _LINK.search(body):
        return "page metadata"
    if _TITLE_BEFORE_COLON.match(body) and not _TERMINAL.search(body):
        return "a heading or title"
    if _SELF_DESCRIPTION.search(body):
        return "the page describing itself"
    if _PLAN.match(body):
        return "the writer describing a plan"
    if _STUDY_DESIGN.search(body):
        return "a study describing its design"
    if _starts_mid_sentence(body, before):
        return "a fragment cut at its start"
    if _TERMINAL.search(body) or body.endswith((":", "：")):
        return None
    return _unfinished(body, bullet is not None, before, after)


def _unfinished(body: str, bullet: bool, before: str, after: str) -> str | None:
    """A line without a full stop: a list item states; a line on its own is a heading or
    a title; a sentence the text stops in was cut off."""
    if _DANGLING.search(body) or not (after.strip() or bullet):
        return "a fragment cut at its end"
    alone = (not before or before.endswith("\n")) and after.startswith("\n")
    if bullet and alone and before.endswith("\n\n") and after.startswith("\n\n"):
        return "a heading or title"  # "2. React's ecosystem", numbered, on its own
    if bullet or "|" in body:
        return None
    if alone and _heading_like(body):
        return "a heading or title"
    if alone and _TAG_LINE.match(body):
        return "a tag line"
    return None


# "青鸟流程：快速、可靠、易用", "Quillsync: fast, simple, secure": a slogan, not a sentence.
_TAG_LINE = re.compile(
    r"^[^:：]{1,30}[:：]\s*(?:[\u4e00-\u9fff]{1,4}|[A-Za-z-]+(?: [A-Za-z-]+)?)"
    r"(?:\s*[、,，/]\s*(?:[\u4e00-\u9fff]{1,4}|[A-Za-z-]+(?: [A-Za-z-]+)?)){1,5}\s*$"
)


def _heading_like(body: str) -> bool:
    """A title names a topic: no clause breaks ("React's ecosystem"), or Title Case
    throughout ("Bitwarden Changes Its SDK License")."""
    if not re.search(r"[,，;；:：、]", body):
        return True
    if _PAPER_TITLE.search(body):
        return True
    if has_cjk(body):
        return False
    words = [w for w in re.findall(r"[A-Za-z][\w'-]*", body) if w.lower() not in _MINOR]
    return len(words) >= 3 and all(w[0].isupper() or w[0].isdigit() for w in words)


# "...: observations from TECOS", "...: a subgroup analysis of ...": a paper's title.
_PAPER_TITLE = re.compile(
    r":\s*(?:observations|results|findings|evidence|lessons|insights|an? (?:[\w-]+ ){0,3}"
    r"(?:analysis|study|trial|review|meta-analysis|report))\b",
    re.I,
)
# Words a title leaves in lower case.
_MINOR = frozenset(
    """a an the and or nor but for of to in on at by as from with into onto over than via vs
    per is are its""".split()
)


def _starts_mid_sentence(body: str, before: str) -> bool:
    """A line that opens in lower case with a word that only continues a sentence
    ("with type 2 diabetes ..."), or after a line the sentence had not ended on. A name
    written in lower case ("npm installs ...", "iOS") opens a sentence."""
    first = body[:1]
    if has_cjk(first) or not first.isalpha() or not first.islower():
        return False
    if _CONTINUES.match(body):
        return True
    if re.match(r"[a-z]+[A-Z0-9]|[a-z]{1,4}\b", body):
        return False
    line_before = before.rstrip("\n").rsplit("\n", 1)[-1].rstrip()
    return bool(line_before) and not re.search(r"[.!?:。！？：]$", line_before)


_CONTINUES = re.compile(
    r"(?:and|or|but|nor|with|without|of|to|in|on|for|from|by|at|as|than|that|which|who|"
    r"whose|while|when|where|because|so|the|a|an|is|are|was|were|be|been|its|their|"
    r"respectively|versus|vs)\b"
)


_ENGLISH = frozenset(
    "the a an is are was were be been and or of to in on for with that this it its by as "
    "at from not but can has have which than".split()
)
_OTHER = frozenset(
    """el la los las un una es son y o de del que en con para por se su sus lo al como más
    pero não é um uma os as do da dos das em com mais mas ao à le les des du une et est sont
    pour dans sur avec cette qui ce der die das und ist nicht mit für ein eine zu den auf
    sich""".split()
)
_WORDS = re.compile(r"[a-zà-ÿ]+", re.I)


def foreign(text: str) -> bool:
    """Written in a language the reader has no words for (Spanish, Portuguese, French,
    German, Russian ...): its negations and verdicts would be misread, so it gives no
    stance. English and Chinese are read."""
    if re.search(r"[\u0400-\u04ff]", text):
        return True
    if has_cjk(text):
        return False
    words = [w.lower() for w in _WORDS.findall(text)]
    english = sum(w in _ENGLISH for w in words)
    other = sum(w in _OTHER for w in words)
    return other >= 3 and other > english
