"""Words for the run pages: what a stage's counts, outcomes and timings mean to a reader.

Pure functions over plain data, so the run page and its progress partial say the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, ngettext, npgettext

from research.selectors import Verdict

# What a failed call's outcome means, for searches and for pages, with its count.
_SEARCHES = {
    "NO_HIT": lambda n: ngettext("%(n)d search found nothing", "%(n)d searches found nothing", n),
    "TIMEOUT": lambda n: ngettext("%(n)d search timed out", "%(n)d searches timed out", n),
    "UNAVAILABLE": lambda n: ngettext(
        "%(n)d search could not be made", "%(n)d searches could not be made", n
    ),
    "UNAUTHORIZED": lambda n: ngettext(
        "%(n)d search was refused access", "%(n)d searches were refused access", n
    ),
    "RATE_LIMITED": lambda n: ngettext(
        "%(n)d search was rate-limited", "%(n)d searches were rate-limited", n
    ),
    "BLOCKED": lambda n: ngettext("%(n)d search was blocked", "%(n)d searches were blocked", n),
}
_PAGES = {
    "NO_HIT": lambda n: ngettext("%(n)d page was empty", "%(n)d pages were empty", n),
    "TIMEOUT": lambda n: ngettext("%(n)d page timed out", "%(n)d pages timed out", n),
    "UNAVAILABLE": lambda n: ngettext(
        "%(n)d page could not be reached", "%(n)d pages could not be reached", n
    ),
    "UNAUTHORIZED": lambda n: ngettext(
        "%(n)d page was refused access", "%(n)d pages were refused access", n
    ),
    "RATE_LIMITED": lambda n: ngettext(
        "%(n)d page was rate-limited", "%(n)d pages were rate-limited", n
    ),
    "BLOCKED": lambda n: ngettext(
        "%(n)d page was blocked (robots.txt, a private address, or its size or type)",
        "%(n)d pages were blocked (robots.txt, a private address, or their size or type)",
        n,
    ),
}

# What each stage is doing, for the line under its name while it runs or waits.
STAGE_PURPOSE = {
    "retrieve": gettext_lazy("Plans the search and collects candidate sources."),
    "filter": gettext_lazy(
        "Keeps the most relevant candidates and says why each other one was dropped."
    ),
    "deepread": gettext_lazy("Reads the kept pages and notes key points with exact quotes."),
    "crosscheck": gettext_lazy(
        "Turns the notes into claims and finds where sources agree or disagree."
    ),
    "decide": gettext_lazy("Scores every option on every dimension and writes the report."),
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
            label(int(counts[key])),
        )
        for key, label in shown
        if isinstance(counts.get(key), int | float) and not isinstance(counts.get(key), bool)
    ]


ROUNDED = {"confidence"}  # a score out of 100 reads better whole

# stage -> (counts key, its label for a count)
FACTS: dict[str, list[tuple[str, Callable[[int], str]]]] = {
    "retrieve": [
        ("candidates", lambda n: ngettext("candidate found", "candidates found", n)),
        ("queries", lambda n: npgettext("a count on the run page", "query", "queries", n)),
    ],
    "filter": [
        ("kept", lambda n: ngettext("kept", "kept", n)),
        ("dropped", lambda n: ngettext("dropped", "dropped", n)),
    ],
    "deepread": [
        ("read", lambda n: ngettext("page read", "pages read", n)),
        ("ok", lambda n: ngettext("usable", "usable", n)),
        ("key_points", lambda n: ngettext("key point", "key points", n)),
    ],
    "crosscheck": [
        ("claims", lambda n: ngettext("claim", "claims", n)),
        ("contradictions", lambda n: ngettext("contradiction", "contradictions", n)),
        ("consensus", lambda n: ngettext("agreement", "agreements", n)),
        ("gaps", lambda n: ngettext("gap", "gaps", n)),
    ],
    "decide": [("confidence", lambda n: ngettext("/100 confidence", "/100 confidence", n))],
}


def notes(stage: str, counts: dict[str, Any], outcomes: dict[str, int]) -> list[str]:
    """Plain sentences about what went unusually: failed calls, a replan, dropped quotes."""
    # The run's failed searches are said once for the whole run (run_views.searches_context),
    # in the figure the report gives, so retrieve's own share is not said again here.
    failed = _failures(outcomes) if stage != "retrieve" else {}
    said = [_outcome_sentence(stage, outcomes)] if failed else []
    if stage == "filter" and counts.get("replans"):
        said.append(
            gettext("Too few sources survived, so retrieve searched again with broader queries.")
        )
    if stage == "decide":
        said += _decide_notes(counts)
    if stage == "deepread" and counts.get("parts"):
        said.append(_parts_note(counts))
    return said


def _parts_note(counts: dict[str, Any]) -> str:
    """A deep-read spread over the workers: in how many parts, and, while it runs, how many
    of them are read."""
    parts = int(counts["parts"])
    if "read" in counts:  # finished: the merge's counts
        return ngettext(
            "Read in %(n)d part, then merged.",
            "Read in %(n)d parts, then merged.",
            parts,
        ) % {"n": parts}
    return ngettext(
        "Reading in %(n)d part, shared out among the workers: %(done)d read so far.",
        "Reading in %(n)d parts, shared out among the workers: %(done)d read so far.",
        parts,
    ) % {"n": parts, "done": int(counts.get("parts_read") or 0)}


def _failures(outcomes: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in outcomes.items() if k != "OK" and v}


def _outcome_sentence(stage: str, outcomes: dict[str, int]) -> str:
    words = _SEARCHES if stage == "retrieve" else _PAGES
    parts = []
    for outcome, count in sorted(_failures(outcomes).items(), key=lambda kv: -kv[1]):
        say = words.get(outcome)
        parts.append(say(count) % {"n": count} if say else f"{count} {outcome}")
    return _join(parts) + gettext(".")


def model_note(calls: dict[str, int]) -> str:
    """How many of a stage's model calls gave a usable answer; '' when all did."""
    made = sum(calls.values())
    used = calls.get("OK", 0)
    if not made or used == made:
        return ""
    return ngettext(
        "The model's answer was used for %(used)d of %(made)d call; the deterministic reader's "
        "own judgement stands for the other %(rest)d (the run's log says why).",
        "The model's answer was used for %(used)d of %(made)d calls; the deterministic reader's "
        "own judgement stands for the other %(rest)d (the run's log says why).",
        made,
    ) % {"used": used, "made": made, "rest": made - used}


def _decide_notes(counts: dict[str, Any]) -> list[str]:
    dropped = counts.get("quotes_dropped") or 0
    if not dropped:
        return []
    return [
        ngettext(
            "%(n)d quote could not be found in the stored page and was left out.",
            "%(n)d quotes could not be found in the stored page and were left out.",
            dropped,
        )
        % {"n": dropped}
    ]


def duration(seconds: float | None) -> str:
    """'0.4 s', '12 s', '3 min 05 s', '1 h 02 min'."""
    if seconds is None:
        return ""
    if seconds < 10:
        return gettext("%(s).1f s") % {"s": seconds}
    whole = round(seconds)
    if whole < 60:
        return gettext("%(s)d s") % {"s": whole}
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return gettext("%(m)d min %(s)02d s") % {"m": minutes, "s": secs}
    hours, minutes = divmod(minutes, 60)
    return gettext("%(h)d h %(m)02d min") % {"h": hours, "m": minutes}


def ago(moment: datetime, now: datetime) -> str:
    """'just now', '5 min ago', '3 h ago', '2 days ago', then the date."""
    seconds = (now - moment).total_seconds()
    if seconds < 60:
        return gettext("just now")
    if seconds < 3600:
        return gettext("%(n)d min ago") % {"n": seconds // 60}
    if seconds < 86400:
        return gettext("%(n)d h ago") % {"n": seconds // 3600}
    days = int(seconds // 86400)
    if days < 14:
        return ngettext("%(n)d day ago", "%(n)d days ago", days) % {"n": days}
    return date_format(moment, "j M Y")


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return gettext("%(first)s and %(last)s") % {
        "first": gettext(", ").join(parts[:-1]),
        "last": parts[-1],
    }


# The decision file cites claims by id for programs; the report turns them into source
# numbers, and a summary card has room for neither.
_CLAIM_LIST = re.compile(r"\s*[(（](?:claims?|论断|主张)\s[^)）]*[)）]")


def readable_reason(reason: str) -> str:
    return _CLAIM_LIST.sub("", reason)


def card_reasons(verdict: Verdict | None) -> list[str]:
    """The reasons of a verdict as its summary card shows them."""
    return [readable_reason(r) for r in verdict.reasons] if verdict else []
