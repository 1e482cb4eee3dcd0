"""What the three package indexes have in common: a package name worth asking for, and
the latest version, release cadence, release history and licence written as facts.

Only stable releases count toward cadence and history: a pre-release (PEP 440's a, b, rc
and dev; semver's "-suffix") or a version only a `next`-like tag points at is a preview, and
a yanked release was withdrawn.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from urllib.parse import urlsplit

from packaging.version import InvalidVersion, Version

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary.client import ApiAnswer, ApiClient
from research.providers.primary.dates import release_cadence, release_history
from research.providers.primary.records import Gap, RecordWriter, Subject


def name_in_url(url: str, host: str, section: str) -> str:
    """The name after /section/ in an address on host:
    ('https://pypi.org/project/Flask/3.1.0/', 'pypi.org', 'project') -> 'Flask'."""
    parts = urlsplit(url.strip())
    segments = [segment for segment in parts.path.split("/") if segment]
    if (parts.hostname or "").endswith(host) and segments[:1] == [section]:
        return segments[1] if len(segments) > 1 else ""
    return ""


def first_answer(
    client: ApiClient,
    call: Call,
    subject: Subject,
    name_from_url: Callable[[str], str],
    path_for: Callable[[str], str],
) -> tuple[str, ApiAnswer | None]:
    """Ask the index for each name the subject may go by, until one answers other than
    "no such package": that name and its answer (None when there was no name to ask)."""
    identifier = subject.identifier or (name_from_url(subject.url) if subject.url else "")
    name, answer = "", None
    for name in name_candidates(subject.option, identifier):
        answer = client.get(path_for(name), call=call)
        if answer.outcome is not Outcome.NO_HIT:
            break
    return name, answer


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


def pep440_stable(version: str) -> bool:
    """A final or post release under PEP 440; a version it cannot read counts as stable
    unless it looks like a preview."""
    try:
        return not Version(version).is_prerelease
    except InvalidVersion:
        return not re.search(r"(?i)(?:a|b|rc|alpha|beta|dev|pre)\d*$", version)


def semver_stable(version: str) -> bool:
    """'1.0.0' is stable; '1.0.0-rc.1' (a semver pre-release) is not. Build metadata
    ('1.0.0+build') does not make a pre-release."""
    return "-" not in version.split("+", 1)[0]


def write_releases(
    record: RecordWriter, name: str, stable: dict[str, dt.date], until: dt.date
) -> list[Gap]:
    """The cadence and history facts of the stable releases up to `until`, or the gap."""
    dates = list(stable.values())
    if not write_cadence(record, name, dates, until):
        return [Gap("release_cadence", Outcome.NO_HIT, "no dated stable releases")]
    history = release_history(stable, until)
    if history is not None:
        record.fact(
            "release_history",
            history.value(),
            history.describe(name),
            event_date=history.last.isoformat(),
        )
    return []
