"""The Python Package Index's JSON API: GET /pypi/<name>/json.

`info.version` is the latest release (PyPI leaves out pre-releases and yanked releases);
each release's date is the first upload of its files, and a release whose files were all
yanked, or a pre-release, does not count. PyPI has said the `releases` key of this answer
may go: without it, the release history comes from the Simple API's JSON form
(GET /simple/<name>/, PEP 691 and 700), whose files carry their upload times. The licence
is read from the PEP 639 licence expression, else a short licence field, else the licence
classifiers.
"""

from __future__ import annotations

import datetime as dt
from urllib.parse import quote, urlsplit

from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    parse_sdist_filename,
    parse_wheel_filename,
)

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.primary.base import (
    ApiProvider,
    flag,
    items,
    obj,
    require_dict,
    text,
)
from research.providers.primary.client import ApiAnswer
from research.providers.primary.dates import iso_day, to_date
from research.providers.primary.records import Gap, PrimaryResult, Subject
from research.providers.primary.releases import (
    first_answer,
    name_in_url,
    pep440_stable,
    write_latest,
    write_licence,
    write_releases,
)

_SHORT_LICENCE = 60
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"
_CODE_HOSTS = ("github.com", "gitlab.com", "codeberg.org", "bitbucket.org")


def name_from_url(url: str) -> str:
    """'https://pypi.org/project/Flask/3.1.0/' -> 'Flask'."""
    return name_in_url(url, "pypi.org", "project")


class PyPIProvider(ApiProvider):
    name = "pypi"
    label = "PyPI"
    service = "the PyPI JSON API"
    source_kind = "registry"

    def _lookup(self, subject: Subject, call: Call) -> PrimaryResult:
        name, answer = first_answer(
            self.client, call, subject, name_from_url, lambda n: f"pypi/{quote(n, safe='')}/json"
        )
        if answer is None:
            return self.result(subject, Outcome.NO_HIT, detail="no package name to look for")
        if not answer.ok:
            return self.failed(subject, answer, f"package named {subject.option!r}")
        package = require_dict(answer.data, "the package")
        releases, api_urls = self._releases(name, package, call)
        return self._result(subject, answer, package, releases, api_urls)

    def _releases(
        self, name: str, package: dict, call: Call
    ) -> tuple[dict[str, str] | None, tuple[str, ...]]:
        """Each stable release's date, from the JSON API's `releases` or, when that key is
        gone, from the Simple API; None when neither could be read."""
        if isinstance(package.get("releases"), dict):
            return _release_dates(obj(package, "releases")), ()
        name = text(obj(package, "info"), "name") or name
        answer = self.client.get(f"simple/{quote(name, safe='')}/", call=call, accept=SIMPLE_JSON)
        if not answer.ok or not isinstance(answer.data, dict):
            return None, (answer.url,)
        return _simple_dates(answer.data), (answer.url,)

    def _result(
        self,
        subject: Subject,
        answer: ApiAnswer,
        package: dict,
        released: dict[str, str] | None,
        api_urls: tuple[str, ...],
    ) -> PrimaryResult:
        info = obj(package, "info")
        name = text(info, "name")
        version = text(info, "version")
        if not name or not version:
            detail = "PyPI's answer names no package and version"
            return self.result(subject, Outcome.UNAVAILABLE, detail=detail)
        url = text(info, "package_url") or text(info, "project_url")
        url = url or f"https://pypi.org/project/{name}/"
        record = self.writer(subject, answer, url=url, title=f"{name} on PyPI")
        if text(info, "summary"):
            record.line(f"Summary: {text(info, 'summary')}")
        latest_date = (released or {}).get(version) or _first_upload(items(package, "urls"))
        write_latest(record, name, "PyPI", version, latest_date)
        until = dt.datetime.fromtimestamp(answer.fetched_at or 0, dt.UTC).date()
        stable = {
            number: day
            for number, when in (released or {}).items()
            if pep440_stable(number) and (day := to_date(when)) is not None
        }
        if released is None:
            gaps = [Gap("release_cadence", Outcome.UNAVAILABLE, "release history: not readable")]
        else:
            gaps = write_releases(record, name, stable, until)
        licence = _licence(info)
        if licence is None:
            gaps.append(Gap("licence", Outcome.NO_HIT, "the package metadata states no licence"))
        else:
            write_licence(record, name, *licence)
        built = record.build(
            published=min((released or {}).values(), default=None),
            updated=latest_date,
            api_urls=(answer.url, *api_urls),
        )
        links = {"registry": url, **_links(info)}
        return self.result(
            subject, Outcome.OK, records=[built], facts=record.facts, gaps=gaps, links=links
        )


def _release_dates(releases: dict) -> dict[str, str]:
    """Each release's date: the first upload among its files that were not yanked."""
    dates: dict[str, str] = {}
    for version, files in releases.items():
        day = _first_upload(files if isinstance(files, list) else [])
        if day:
            dates[version] = day
    return dates


def _simple_dates(index: dict) -> dict[str, str]:
    """Each release's first upload among its files that were not yanked, from the Simple
    API's JSON form; files whose name gives no version are left out."""
    uploads: dict[str, list[str]] = {}
    for entry in items(index, "files"):
        version = _file_version(text(entry, "filename"))
        day = iso_day(text(entry, "upload-time"))
        if version and day and entry.get("yanked") in (None, False):
            uploads.setdefault(version, []).append(day)
    return {version: min(days) for version, days in uploads.items()}


def _file_version(filename: str) -> str:
    try:
        if filename.endswith(".whl"):
            return str(parse_wheel_filename(filename)[1])
        if filename.endswith((".tar.gz", ".zip")):
            return str(parse_sdist_filename(filename)[1])
    except (InvalidSdistFilename, InvalidWheelFilename):
        return ""
    return ""


def _first_upload(files: list) -> str | None:
    uploads = [
        iso_day(text(entry, "upload_time_iso_8601") or text(entry, "upload_time"))
        for entry in files
        if isinstance(entry, dict) and flag(entry, "yanked") is not True
    ]
    return min((day for day in uploads if day), default=None)


def _licence(info: dict) -> tuple[str, str] | None:
    expression = text(info, "license_expression")
    if expression:
        return expression, "licence expression"
    field = text(info, "license")
    if field and "\n" not in field and len(field) <= _SHORT_LICENCE:
        return field, "licence field"
    named = [
        entry.split("::")[-1].strip()
        for entry in items(info, "classifiers")
        if isinstance(entry, str) and entry.startswith("License ::") and entry.count("::") >= 2
    ]
    return (", ".join(named), "classifier") if named else None


def _links(info: dict) -> dict[str, str]:
    links: dict[str, str] = {}
    urls = [value for value in obj(info, "project_urls").values() if isinstance(value, str)]
    if text(info, "home_page"):
        urls.append(text(info, "home_page"))
    for url in urls:
        host = (urlsplit(url).hostname or "").lower()
        if host.removeprefix("www.") in _CODE_HOSTS and "repository" not in links:
            links["repository"] = url
    homepage = obj(info, "project_urls").get("Homepage") or text(info, "home_page")
    if isinstance(homepage, str) and homepage.startswith(("http://", "https://")):
        links.setdefault("homepage", homepage)
    return links
