"""Measures that need more than a unit to be read right: prices by period, seat and
currency; multiples against a named baseline; percentages of a named measure; hazard
ratios of a named outcome. What cannot be typed this way is left alone, so two numbers
are only ever compared when they measure the same thing."""

from __future__ import annotations

import re

from research.reading.claims.facts import Fact

_AMOUNT = r"(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"


def measure_facts(sentence: str) -> list[Fact]:
    facts = [
        *_prices(sentence),
        *_multiples(sentence),
        *_percentages(sentence),
        *_hazard_ratios(sentence),
        *_median_times(sentence),
    ]
    return list({f.attribute: f for f in reversed(facts)}.values())[::-1]  # first per attribute


def format_number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _number(text: str) -> float:
    return float(text.replace(",", "").replace("\u2212", "-").replace(" ", ""))


# --- prices -------------------------------------------------------------------------------

_CURRENCIES = {"$": "", "us$": "", "usd": "", "€": " (EUR)", "eur": " (EUR)", "£": " (GBP)"}
_PER = r"\s*(?:/|per|a|an|each)\s*"
_MONTH = r"(?:month|mo)\b"
_YEAR = r"(?:year|yr|annum)\b"
_SEAT = r"(?:seat|user|member)\b"
_PERIODS = [
    ("price per seat per month", rf"{_PER}{_SEAT}{_PER}{_MONTH}|{_PER}{_MONTH}{_PER}{_SEAT}"),
    ("price per seat per year", rf"{_PER}{_SEAT}{_PER}{_YEAR}|{_PER}{_YEAR}{_PER}{_SEAT}"),
    ("price per month", rf"{_PER}{_MONTH}|\s*for an? (?:one-)?month(?:ly)? supply|\s*monthly\b"),
    # Dollar prices per year and per seat are read by numbers.py.
    ("yearly price", rf"{_PER}{_YEAR}|\s*annually\b"),
    ("price per seat", rf"{_PER}{_SEAT}"),
]
_PRICE = re.compile(
    r"(?P<cur>US\$|\$|€|£)\s?"
    + _AMOUNT
    + r"(?P<k>k\b)?(?P<period>"
    + "|".join(f"(?P<p{i}>{p})" for i, (_, p) in enumerate(_PERIODS))
    + ")",
    re.I,
)
# Prices that are not what the option costs: a co-pay, a discount, a saving.
_NOT_THE_PRICE = re.compile(
    r"\bco-?pays?\b|\bdeductibles?\b|\bcoupons?\b|\bsav(?:e|es|ing|ings)\b|\bdiscounts?\b|"
    r"\brebates?\b|\boff\b",
    re.I,
)


def _prices(sentence: str) -> list[Fact]:
    if _NOT_THE_PRICE.search(sentence):
        return []
    facts = []
    for match in _PRICE.finditer(sentence):
        if re.search(r"(?:\bto|[-–])\s*$", sentence[: match.start()]):
            continue  # the top of a range: "$0 to $25 per month"
        index = next(i for i in range(len(_PERIODS)) if match.group(f"p{i}"))
        attribute = _PERIODS[index][0]
        currency = _CURRENCIES[match.group("cur").lower()]
        if not currency and attribute in ("yearly price", "price per seat"):
            continue
        value = _number(match.group("n")) * (1000 if match.group("k") else 1)
        facts.append(Fact(attribute + currency, "fact", format_number(value), 0))
    return facts


# --- multiples ----------------------------------------------------------------------------

_MULTIPLE = re.compile(
    r"(?P<n>\d+(?:\.\d+)?)\s*(?:x|×|times)\s+"
    r"(?:(?P<cmp>faster|slower|more|less|fewer|smaller|larger|bigger|higher|lower|better|worse|"
    r"cheaper)\s+)?(?:(?:the\s+)?(?P<what>(?!than\b|of\b)[a-z][\w-]*)\s+)?"
    r"(?:than|of|compared (?:to|with)|vs\.?|versus)\s+(?P<base>[A-Z][\w+-]*(?:\.[\w+-]+)*)",
)


def _multiples(sentence: str) -> list[Fact]:
    """ "54x the memory of NATS and 2.7x of RabbitMQ" -> memory vs NATS 54, vs RabbitMQ 2.7.
    A multiple without a baseline ("10x better") says too little to compare."""
    facts, measure = [], None
    for match in _MULTIPLE.finditer(sentence):
        cmp, what = match.group("cmp"), match.group("what")
        if what:
            measure = what if cmp in (None, "more") else f"{cmp} {what}"
        elif (cmp and cmp != "more") or measure is None:
            measure = cmp
        if measure:
            attribute = f"multiple ({measure} vs {match.group('base')})"
            facts.append(Fact(attribute, "fact", format_number(_number(match.group("n"))), 0))
    return facts


# --- percentages --------------------------------------------------------------------------

_INTERVAL = re.compile(
    r"\b\d{2}(?:\.\d+)?\s*%\s*(?:CI|confidence interval|credible interval)\b[^;)]*", re.I
)
_PERCENT = re.compile(r"(?P<sign>[-−]\s?)?(?P<n>\d+(?:\.\d+)?)\s*%")
_STOP = {"the", "a", "an", "of", "for", "in", "to", "by", "was", "were", "is", "are", "with"}
_PERCENT_FORMS = [
    # "38% of professional developers use X": a share of users, not of patients or people.
    re.compile(
        r"%\s+of\s+(?:the\s+)?(?P<what>(?:[A-Za-z][\w-]*\s+){0,3}?(?:developers|respondents|"
        r"companies|teams|engineers|organi[sz]ations|sites))\s+(?:now\s+|currently\s+)?"
        r"(?:use|used|using|prefer|chose|choose|adopted)\b",
        re.I,
    ),
    # "12% faster than Loamdb": a comparison needs its baseline.
    re.compile(
        r"%\s+(?P<what>(?:faster|slower|smaller|larger|bigger|cheaper|fewer|less|more|lower|"
        r"higher)(?:\s+[a-z][\w-]*)?\s+than\s+[A-Z][\w+-]*)"
    ),
    re.compile(
        r"%\s+(?P<what>(?:reduction|increase|improvement|drop|decrease|rise|gain)\s+in\s+"
        r"(?:the\s+)?[A-Za-z][\w-]*(?:\s+(?:of\s+)?[A-Za-z][\w-]*)?)",
        re.I,
    ),
]
_MEASURE_BEFORE = re.compile(r"(?P<what>(?:[A-Za-z][\w-]*\s+){1,3}?)(?:of|by)\s+$", re.I)


def _percentages(sentence: str) -> list[Fact]:
    """One percentage of a named measure: "38% of professional developers", "12% faster",
    "market share of 38%". Several percentages in one sentence are left alone."""
    text = _INTERVAL.sub(lambda m: " " * len(m.group(0)), sentence)
    found = list(_PERCENT.finditer(text))
    if len(found) != 1:
        return []
    match = found[0]
    measure = _percent_measure(text, match)
    if not measure:
        return []
    value = _number(match.group("n")) * (-1 if match.group("sign") else 1)
    return [Fact(f"percentage ({measure})", "fact", format_number(value), 0)]


def _percent_measure(text: str, match: re.Match[str]) -> str | None:
    after = text[match.end() - 1 :]
    for form in _PERCENT_FORMS:
        found = form.match(after)
        if found:
            what = found.group("what").lower()
            return f"share of {_trimmed(what)}" if form is _PERCENT_FORMS[0] else what
    before = _MEASURE_BEFORE.search(text[: match.start()])
    return _trimmed(before.group("what")) if before else None


def _trimmed(words: str) -> str | None:
    """A measure's name without leading little words and verbs: "stroke was reduced" ->
    "stroke reduced"; None when it names a group rather than a measure."""
    kept = [w for w in words.lower().split() if w not in _VERBS]
    while kept and kept[0] in _STOP:
        kept.pop(0)
    if any(w in _GROUPS or any(c.isdigit() for c in w) for w in kept):
        return None
    return " ".join(kept) or None


_VERBS = {"was", "were", "is", "are", "been", "has", "have", "had", "got", "kept"}
_GROUPS = {"group", "groups", "arm", "arms", "respectively", "placebo", "vs", "versus", "patients"}


# --- hazard ratios ------------------------------------------------------------------------

_HAZARD = re.compile(
    r"\b(?:HR|hazard ratio)\]?\s*(?:\[HR\]\s*)?(?:of|was|=|:)?\s*(?P<n>\d+(?:\.\d+)?)", re.I
)
_FOR_OUTCOME = re.compile(
    r"hazard ratio for (?P<what>(?:[A-Za-z][\w-]*\s+){0,3}?[A-Za-z][\w-]*)\s+(?:of|was|=|:)",
    re.I,
)
_OUTCOME_BEFORE = re.compile(r"(?P<what>(?:[A-Za-z][\w-]*\s+){0,3}[A-Za-z][\w-]*)\s*$")
_NOT_OUTCOME = _STOP | {"rate", "rates", "risk", "on", "at", "and", "or", "reduction", "lower"}


def _hazard_ratios(sentence: str) -> list[Fact]:
    """ "a reduction in nonfatal stroke (HR 0.74, 95% CI ...)" -> hazard ratio (nonfatal
    stroke) 0.74. Without a named outcome a hazard ratio is left alone."""
    found = list(_HAZARD.finditer(sentence))
    if len(found) != 1:
        return []
    match = found[0]
    outcome = _FOR_OUTCOME.search(sentence)
    what = outcome.group("what") if outcome else _outcome_before(sentence, match.start())
    if not what:
        return []
    value = format_number(_number(match.group("n")))
    return [Fact(f"hazard ratio ({what.lower()})", "fact", value, 0)]


def _outcome_before(sentence: str, at: int) -> str | None:
    """The words just before the parenthesis that holds the hazard ratio."""
    paren = sentence.rfind("(", 0, at)
    if paren < 0 or ")" in sentence[paren:at]:
        return None
    before = _OUTCOME_BEFORE.search(sentence[:paren])
    if before is None:
        return None
    words = before.group("what").split()
    while words and words[0].lower() in _NOT_OUTCOME:
        words.pop(0)
    while words and words[-1].lower() in _CHANGES:
        words.pop()
    return _trimmed(" ".join(words))


_CHANGES = {"increased", "decreased", "reduced", "rose", "fell", "improved", "worsened", "lower"}


# --- median times -------------------------------------------------------------------------

_MEDIAN = re.compile(
    r"\bmedian\s+(?P<what>overall survival|progression[- ]free survival|"
    r"duration of (?:response|treatment)|time to (?:progression|treatment failure)|"
    r"PFS|OS|DoR|TTP)\b(?:\s*\((?:PFS|OS|DoR|TTP)\))?[^.;]{0,40}?"
    r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>months?|mo\b|years?|weeks?)",
    re.I,
)
_TIMES = re.compile(r"\d+(?:\.\d+)?\s*(?:months?|mo\b|years?|weeks?)", re.I)
_SHORT = {
    "pfs": "progression-free survival",
    "os": "overall survival",
    "dor": "duration of response",
}
_IN_MONTHS = {"month": 1.0, "months": 1.0, "mo": 1.0, "year": 12.0, "years": 12.0}
_IN_MONTHS |= {"week": 12 / 52, "weeks": 12 / 52}


def _median_times(sentence: str) -> list[Fact]:
    """ "a median progression-free survival of 18.9 months" -> median progression-free
    survival (months) 18.9. A sentence with more than one time (two arms, a range) is left
    alone: which is whose is not in the figure."""
    if len(_TIMES.findall(sentence)) != 1:
        return []
    match = _MEDIAN.search(sentence)
    if match is None:
        return []
    what = match.group("what").lower().replace("progression free", "progression-free")
    what = _SHORT.get(what, what)
    months = _number(match.group("n")) * _IN_MONTHS[match.group("unit").lower()]
    return [Fact(f"median {what} (months)", "fact", format_number(round(months, 1)), 0)]
