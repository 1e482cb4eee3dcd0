"""Dates as registries write them, and the release cadence they add up to."""

from __future__ import annotations

import datetime as dt
import itertools
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

_ISO = re.compile(r"^\s*(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
CADENCE_WINDOW_DAYS = 365
CADENCE_GAPS = 10  # the median gap is taken over at most this many recent gaps


def iso_day(value: object) -> str | None:
    """'2024-03-05T10:00:00Z' -> '2024-03-05'; a month or a year alone stays as it is
    ('2019-06'), since ClinicalTrials.gov and Wikidata give dates to that precision."""
    if not isinstance(value, str):
        return None
    match = _ISO.match(value)
    if not match:
        return None
    year, month, day = match.groups()
    try:
        if day:
            return dt.date(int(year), int(month), int(day)).isoformat()
        if month:
            dt.date(int(year), int(month), 1)
            return f"{year}-{month}"
    except ValueError:
        return None
    return year


def to_date(value: object) -> dt.date | None:
    """A full date, or None (a month or year alone is no day to count from)."""
    day = iso_day(value)
    if day is None or len(day) != 10:
        return None
    return dt.date.fromisoformat(day)


def timestamp(epoch: float) -> str:
    """An ISO timestamp in UTC to the second: '2026-11-20T10:00:00Z'."""
    moment = dt.datetime.fromtimestamp(epoch, dt.UTC).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class Cadence:
    in_window: int  # releases in the 12 months to `until`
    until: dt.date
    median_gap_days: float | None  # None with fewer than two releases
    gaps_counted: int
    total: int

    def value(self) -> str:
        text = f"{self.in_window} in 12 months"
        if self.median_gap_days is not None:
            text += f", median gap {self.median_gap_days:g} days"
        return text

    def describe(self, name: str) -> str:
        text = (
            f"{name} had {self.in_window} release{'' if self.in_window == 1 else 's'} "
            f"in the 12 months to {self.until.isoformat()}"
        )
        if self.median_gap_days is None:
            return text + f" ({self.total} release{'' if self.total == 1 else 's'} in all)"
        return (
            f"{text}; median gap between releases {self.median_gap_days:g} days "
            f"(last {self.gaps_counted} gap{'' if self.gaps_counted == 1 else 's'})"
        )


def release_cadence(dates: Iterable[dt.date], until: dt.date) -> Cadence | None:
    """How often releases came: how many in the year to `until`, and the median gap
    between the most recent ones. None without any dated release."""
    ordered = sorted(day for day in dates if day <= until)
    if not ordered:
        return None
    window_start = until - dt.timedelta(days=CADENCE_WINDOW_DAYS)
    in_window = sum(1 for day in ordered if day > window_start)
    recent = ordered[-(CADENCE_GAPS + 1) :]
    gaps = [(later - earlier).days for earlier, later in itertools.pairwise(recent)]
    median = float(statistics.median(gaps)) if gaps else None
    return Cadence(in_window, until, median, len(gaps), len(ordered))


HISTORY_WINDOWS = (365, 730)  # days: the last 12 and 24 months
ON_RHYTHM = 1.5  # a last release within 1.5 median gaps is the project's usual pace


@dataclass(frozen=True)
class History:
    """A project's stable releases as of `until`: how many in the last 12 and 24 months,
    the last one and its age, and the usual gap between releases."""

    until: dt.date
    in_12: int
    in_24: int
    last_version: str
    last: dt.date
    median_gap_days: float | None

    @property
    def age_days(self) -> int:
        return (self.until - self.last).days

    def value(self) -> str:
        said = f"{self.in_12} in 12 months, {self.in_24} in 24 months, last {self.age_days} days"
        if self.median_gap_days is not None:
            said += f", usual gap {self.median_gap_days:g} days"
        return said

    def describe(self, name: str) -> str:
        said = (
            f"{name} had {self.in_12} stable release{'' if self.in_12 == 1 else 's'} in the 12 "
            f"months to {self.until.isoformat()} and {self.in_24} in the 24 months; "
            f"the last, {self.last_version}, came out {self.last.isoformat()}, "
            f"{self.age_days} days before"
        )
        if self.median_gap_days is not None:
            said += f" (usual gap {self.median_gap_days:g} days)"
        return said


def release_history(releases: dict[str, dt.date], until: dt.date) -> History | None:
    """`releases` maps each stable, non-yanked version to its date. None without any
    released by `until`."""
    dated = sorted((day, version) for version, day in releases.items() if day <= until)
    if not dated:
        return None
    last, last_version = dated[-1]
    in_window = [
        sum(1 for day, _ in dated if (until - day).days < window) for window in HISTORY_WINDOWS
    ]
    recent = [day for day, _ in dated[-(CADENCE_GAPS + 1) :]]
    gaps = [(later - earlier).days for earlier, later in itertools.pairwise(recent)]
    median = float(statistics.median(gaps)) if gaps else None
    return History(until, in_window[0], in_window[1], last_version, last, median)


def parse_history(value: str) -> tuple[int, int, int, float | None] | None:
    """History.value() read back: (in 12 months, in 24 months, age in days, usual gap)."""
    found = re.match(
        r"(\d+) in 12 months, (\d+) in 24 months, last (\d+) days(?:, usual gap ([\d.]+) days)?",
        value,
    )
    if not found:
        return None
    in_12, in_24, age, gap = found.groups()
    return int(in_12), int(in_24), int(age), float(gap) if gap else None
