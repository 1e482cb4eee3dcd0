"""What the three package indexes have in common: a package name worth asking for, and
the latest version, release cadence and licence written as facts."""

from __future__ import annotations

import datetime as dt
import re

from research.providers.primary.dates import release_cadence
from research.providers.primary.records import RecordWriter


def name_candidates(subject_option: str, identifier: str = "") -> list[str]:
    """Names to try, most likely first: the identifier alone when given; else the option
    in lower case with its spaces as hyphens, then run together ('Django REST framework':
    'django-rest-framework', 'djangorestframework')."""
    if identifier.strip():
        return [identifier.strip()]
    option = subject_option.strip().lower()
    hyphened = re.sub(r"[\s_.]+", "-", option).strip("-")
    squashed = re.sub(r"[\s_.-]+", "", option)
    return [name for name in dict.fromkeys((hyphened, squashed)) if name]


def write_latest(
    record: RecordWriter, name: str, registry: str, version: str, date: str | None
) -> None:
    said = f"Latest version of {name} on {registry}: {version}"
    said += f", released {date}" if date else ""
    record.fact("latest_release", version, said, event_date=date)


def write_cadence(record: RecordWriter, name: str, dates: list[dt.date], until: dt.date) -> bool:
    """The cadence fact; False when there is no dated release to count."""
    cadence = release_cadence(dates, until)
    if cadence is None:
        return False
    latest = max(day for day in dates if day <= until).isoformat()
    record.fact("release_cadence", cadence.value(), cadence.describe(name), event_date=latest)
    return True


def write_licence(record: RecordWriter, name: str, licence: str, how: str) -> None:
    record.fact("licence", licence, f"{name} licence ({how}): {licence}")
