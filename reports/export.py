"""report.md for use outside its run folder.

Inside the run folder, report.md links each source's stored extract relatively
(`round_3_pages/<source_id>.md`). A copy anywhere else (a download, the CLI's `--out`)
needs those links absolute: to the evidence viewer of a web server, or to the files
themselves.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from research.names import PAGES_DIR

# A link destination naming a stored extract: inline `](…)`, a reference definition
# `[n]: …` at the start of a line, or an autolink `<…>`. The optional #fragment is kept.
_PAGE_LINK = re.compile(
    r"(?P<lead>\]\(\s*|^\[[^\]\n]+\]:[ \t]*|<)"
    rf"(?:\./)?{PAGES_DIR}/(?P<source_id>[A-Za-z0-9_-]+)\.md"
    r"(?P<fragment>#[A-Za-z0-9_-]*)?",
    re.MULTILINE,
)

UrlFor = Callable[[str], str]  # source id -> absolute URL of its stored extract


def absolute_page_links(markdown: str, url_for: UrlFor) -> str:
    """Point every link to a stored extract at `url_for(source_id)`; the visible link text
    (which names the file) is left as it is."""

    def swap(match: re.Match[str]) -> str:
        fragment = match.group("fragment") or ""
        return match.group("lead") + url_for(match.group("source_id")) + fragment

    return _PAGE_LINK.sub(swap, markdown)


def viewer_urls(base_url: str, run_id: str) -> UrlFor:
    """Links to the evidence viewer of a Verdict server at `base_url`
    (e.g. "https://verdict.example.org")."""
    root = base_url.rstrip("/")
    return lambda source_id: f"{root}/runs/{run_id}/evidence/{source_id}/"


def file_urls(run_dir: Path) -> UrlFor:
    """file:// links to the extracts in the run folder, for a copy kept on the same machine."""
    pages = Path(run_dir).resolve() / PAGES_DIR
    return lambda source_id: (pages / f"{source_id}.md").as_uri()


def location_urls(location: str) -> UrlFor:
    """Links to the extracts where the run is kept: file:// links in a run folder, the
    objects' s3:// addresses in a bucket."""
    if location.startswith("s3://"):
        return lambda source_id: f"{location}/{PAGES_DIR}/{source_id}.md"
    return file_urls(Path(location))


def export_filename(run_id: str) -> str:
    return f"verdict-report-{run_id}.md"
