"""How studies and benchmarks report a result, read the way a careful reader reads them.

"Reduced the risk of", "a 26% risk reduction" and a hazard ratio whose whole confidence
interval lies below 1 favour the option on the outcome they name; "noninferior", "no
significant difference", "did not increase the risk" and an interval that crosses 1 are
neutral: they say the option is no worse, not that it is better. "Did not reduce" is a
benefit that was looked for and not found.
"""

from __future__ import annotations

import re

NEUTRAL = 0.0  # a result that rules out a stance on the outcome it names

_THING = (
    r"(?:risks?|rates?|incidence|occurrence|odds|numbers?|hazards?|events?|deaths?|mortality|"
    r"hospitali[sz]ations?|heart attacks?|strokes?|infarctions?|admissions?|complications?)"
)
_VERB = r"(?:reduc(?:e|es|ed|ing)|lower(?:s|ed|ing)?|decreas(?:e|es|ed|ing)|cuts?)"
_UP = r"(?:increas(?:e|es|ed|ing)|rais(?:e|es|ed|ing)|doubl(?:e|es|ed|ing))"

_PATTERNS: list[tuple[re.Pattern[str], float]] = [
    (
        re.compile(
            r"\bnon-?inferior(?:ity)?\b(?![^.;]*\bsuperior)|\bnon-?significant(?:ly)?\b|"
            r"\bno (?:statistically )?significant (?:\w+ )?(?:differences?|reductions?|"
            r"increases?|effects?|changes?|benefits?|trends?)\b|"
            r"\bnot (?:statistically )?significant(?:ly)?\b|"
            rf"\bdid not (?:significantly )?{_UP}\s+(?:the\s+)?(?:\w+\s+){{0,2}}?{_THING}\b|"
            r"\bdid not (?:significantly )?(?:differ|change|affect|alter|worsen)\b|"
            r"\bno (?:impact|effect|difference|increase) (?:on|in|of|between)\b|"
            r"\bsimilar (?:rates?|risks?|incidence|outcomes?)\b|\b(?:was|were|is|are) neutral\b|"
            r"\bneutral (?:effect|impact|on)\b|\bnot associated with\b|"
            r"(?:无|没有)(?:统计学)?显著(?:性)?差异|非劣效",
            re.I,
        ),
        NEUTRAL,
    ),
    (
        re.compile(
            rf"\bdid not (?:significantly )?(?:{_VERB}|improve)\b|"
            rf"\b(?:significantly |substantially |markedly )?{_UP}\s+(?:the\s+)?"
            rf"(?:\w+\s+){{0,2}}?{_THING}\b|\b(?:higher|increased|elevated|greater) "
            rf"(?:\w+ )?(?:risks?|rates?|incidence|odds|mortality)\b|"
            r"(?:显著)?增加了?[\u4e00-\u9fff]{0,8}?(?:风险|发生率|死亡率)",
            re.I,
        ),
        -1.0,
    ),
    (
        re.compile(
            rf"\b(?:significantly |substantially |markedly )?{_VERB}\s+(?:the\s+)?"
            rf"(?:\w+\s+){{0,2}}?{_THING}\b|"
            r"\b\d+(?:\.\d+)?\s?(?:%|percent|per ?cent)\s+(?:relative\s+|absolute\s+)?"
            r"(?:risk\s+)?reduction\b|"
            rf"\b(?:significant|substantial|marked)\s+reductions?\b|"
            rf"\breductions? in (?:the\s+)?{_THING}\b|\brisk[- ]reduc(?:ing|tion)\b|"
            rf"\b(?:lower|reduced|decreased|fewer) (?:\w+ )?{_THING}\b|"
            r"\bimproved (?:\w+ )?outcomes?\b|"
            r"\b(?:risks?|rates?|incidence|odds) of [\w -]{1,40}? (?:was|were) "
            r"(?:\d+(?:\.\d+)?\s?% )?(?:lower|reduced)\b|"
            r"(?:显著)?(?:降低|减少)了?[\u4e00-\u9fff]{0,8}?(?:风险|发生率|死亡率|血糖)|降糖",
            re.I,
        ),
        1.0,
    ),
]
_RATIO = re.compile(
    r"\b(?:HR|RR|OR|hazard ratio|relative risk|risk ratio|odds ratio)\b[^0-9]{0,16}?"
    r"(?P<value>\d?\.\d+)",
    re.I,
)
_INTERVAL = re.compile(r"(?P<low>\d?\.\d+)\s*(?:-|–|—|to|,)\s*(?P<high>\d?\.\d+)")


def results_hits(text: str) -> list[tuple[int, int, float]]:
    """(start, end, weight) of every result the text reports: +1 for the option, -1
    against it, NEUTRAL for a result that favours neither."""
    hits: list[tuple[int, int, float]] = []
    for pattern, weight in _PATTERNS:
        for match in pattern.finditer(text):
            if not any(s < match.end() and match.start() < e for s, e, _ in hits):
                hits.append((match.start(), match.end(), weight))
    hits += _ratio_hits(text)
    return hits


def _ratio_hits(text: str) -> list[tuple[int, int, float]]:
    """A ratio with its confidence interval: below 1 throughout favours, above 1
    throughout disfavours, across 1 says nothing."""
    hits = []
    for ratio in _RATIO.finditer(text):
        window = text[ratio.end() : ratio.end() + 48]
        interval = _INTERVAL.search(window)
        if interval is None:
            continue
        low, high = float(interval.group("low")), float(interval.group("high"))
        if low > high:
            continue
        weight = 1.0 if high < 1 else -1.0 if low > 1 else NEUTRAL
        hits.append((ratio.start(), ratio.end() + interval.end(), weight))
    return hits
