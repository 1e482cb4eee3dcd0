"""Words for the run pages: what a stage's counts, outcomes and timings mean to a reader.

Pure functions over plain data, so the run page and its progress partial say the same thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from research.selectors import Verdict

# What a provider outcome means when it is not OK, after "1 page ..." and "2 pages ...".
OUTCOME_WORDS = {
    "NO_HIT": ("found nothing", "found nothing"),
    "TIMEOUT": ("timed out", "timed out"),
    "UNAVAILABLE": ("could not be reached", "could not be reached"),
    "UNAUTHORIZED": ("was refused access", "were refused access"),
    "RATE_LIMITED": ("was rate-limited", "were rate-limited"),
    "BLOCKED": (
        "was blocked (robots.txt, a private address, or its size or type)",
        "were blocked (robots.txt, a private address, or their size or type)",
    ),
}

# What each stage is doing, for the line under its name while it runs or waits.
STAGE_PURPOSE = {
    "retrieve": "Plans the search and collects candidate sources.",
    "filter": "Keeps the most relevant candidates and says why each other one was dropped.",
    "deepread": "Reads the kept pages and notes key points with exact quotes.",
    "crosscheck": "Turns the notes into claims and finds where sources agree or disagree.",
    "decide": "Scores every option on every dimension and writes the report.",
}


@dataclass(frozen=True)
class Fact:
    """One figure of a stage, shown as a large number with a small label."""

    value: str
    label: str


def plural(count: int, one: str, many: str | None = None) -> str:
    return one if count == 1 else (many or one + "s")


def facts(stage: str, counts: dict[str, Any]) -> list[Fact]:
    """The headline figures of a finished stage, in the order a reader asks for them."""
    shown = FACTS.get(stage, [])
    return [
        Fact(
            _number(round(counts[key]) if key in ROUNDED else counts[key]),
            plural(int(counts[key]), one, many),
        )
        for key, one, many in shown
        if isinstance(counts.get(key), int | float) and not isinstance(counts.get(key), bool)
    ]


ROUNDED = {"confidence"}  # a score out of 100 reads better whole

# stage -> (counts key, singular label, plural label)
FACTS: dict[str, list[tuple[str, str, str]]] = {
    "retrieve": [
        ("candidates", "candidate found", "candidates found"),
        ("queries", "query", "queries"),
    ],
    "filter": [("kept", "kept", "kept"), ("dropped", "dropped", "dropped")],
    "deepread": [
        ("read", "page read", "pages read"),
        ("ok", "usable", "usable"),
        ("key_points", "key point", "key points"),
    ],
    "crosscheck": [
        ("claims", "claim", "claims"),
        ("contradictions", "contradiction", "contradictions"),
        ("consensus", "agreement", "agreements"),
        ("gaps", "gap", "gaps"),
    ],
    "decide": [("confidence", "/100 confidence", "/100 confidence")],
}


def notes(stage: str, counts: dict[str, Any], outcomes: dict[str, int]) -> list[str]:
    """Plain sentences about what went unusually: failed calls, a replan, dropped quotes."""
    said = [_outcome_sentence(stage, outcomes)] if _failures(outcomes) else []
    if stage == "filter" and counts.get("replans"):
        said.append("Too few sources survived, so retrieve searched again with broader queries.")
    if stage == "decide":
        said += _decide_notes(counts)
    return said


def _failures(outcomes: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in outcomes.items() if k != "OK" and v}


def _outcome_sentence(stage: str, outcomes: dict[str, int]) -> str:
    what = ("search", "searches") if stage == "retrieve" else ("page", "pages")
    parts = [
        f"{count} {plural(count, *what)} {plural(count, *_verb(outcome))}"
        for outcome, count in sorted(_failures(outcomes).items(), key=lambda kv: -kv[1])
    ]
    sentence = _join(parts)
    return sentence[:1].upper() + sentence[1:] + "."


def _verb(outcome: str) -> tuple[str, str]:
    fallback = f"ended {outcome.lower().replace('_', ' ')}"
    return OUTCOME_WORDS.get(outcome, (fallback, fallback))


def model_note(calls: dict[str, int]) -> str:
    """How many of a stage's model calls gave a usable answer; '' when all did."""
    made = sum(calls.values())
    used = calls.get("OK", 0)
    if not made or used == made:
        return ""
    rest = made - used
    return (
        f"The model's answer was used for {used} of {made} {plural(made, 'call')}; the "
        f"deterministic reader's own judgement stands for the other {rest} (the run's log "
        "says why)."
    )


def _decide_notes(counts: dict[str, Any]) -> list[str]:
    dropped = counts.get("quotes_dropped") or 0
    if not dropped:
        return []
    return [
        f"{dropped} {plural(dropped, 'quote')} could not be found in the stored page "
        f"and {plural(dropped, 'was', 'were')} left out."
    ]


def duration(seconds: float | None) -> str:
    """'0.4 s', '12 s', '3 min 05 s', '1 h 02 min'."""
    if seconds is None:
        return ""
    if seconds < 10:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def ago(moment: datetime, now: datetime) -> str:
    """'just now', '5 min ago', '3 h ago', '2 days ago', then the date."""
    seconds = (now - moment).total_seconds()
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86400:
        return f"{int(seconds // 3600)} h ago"
    days = int(seconds // 86400)
    if days < 14:
        return f"{days} {plural(days, 'day')} ago"
    return f"{moment:%-d %b %Y}"


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


# The decision file cites claims by id for programs; the report turns them into source
# numbers, and a summary card has room for neither.
_CLAIM_LIST = re.compile(r"\s*[(（](?:claims?|论断|主张)\s[^)）]*[)）]")


def readable_reason(reason: str) -> str:
    return _CLAIM_LIST.sub("", reason)


def card_reasons(verdict: Verdict | None) -> list[str]:
    """The reasons of a verdict as its summary card shows them."""
    return [readable_reason(r) for r in verdict.reasons] if verdict else []
