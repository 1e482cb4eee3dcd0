"""The numbered evidence list: every source read, what kind of page it is, and where."""

from __future__ import annotations

from dataclasses import dataclass

from research.artifacts import Plan, SourceNotes
from research.reading import classify
from research.web.report.run_files import EvidenceUrl, RunFiles
from research.web.report.strings import WebStrings


@dataclass
class SourceView:
    n: int
    source_id: str
    title: str
    url: str
    site: str
    kind_id: str  # primary | comparison | community | interested
    kind: str
    interested: str | None  # whose interest it is
    published: str | None
    published_label: str
    href: str  # its evidence viewer


def sources(files: RunFiles, evidence_url: EvidenceUrl, t: WebStrings) -> list[SourceView]:
    return [
        _source(s, files.numbers[s.source_id], files.plan, evidence_url, t)
        for s in files.notes.ok_sources()
    ]


def _source(
    src: SourceNotes, n: int, plan: Plan, evidence_url: EvidenceUrl, t: WebStrings
) -> SourceView:
    kind_id, interested = source_kind(src, plan)
    return SourceView(
        n=n,
        source_id=src.source_id,
        title=src.title or src.url,
        # A local file's address is a path on the server: shown only for http(s) pages.
        url=src.url if src.url.startswith(("http://", "https://")) else "",
        site=src.site,
        kind_id=kind_id,
        kind=t.kind(kind_id),
        interested=interested,
        published=src.published,
        published_label=t("published", date=src.published) if src.published else "",
        href=evidence_url(src.source_id),
    )


def source_kind(src: SourceNotes, plan: Plan) -> tuple[str, str | None]:
    """The kind of page (primary, comparison, community or interested), and for an
    interested party, whose interest it is, in the plan's language."""
    kind = classify(src.final_url or src.url, src.title, plan.options, language=plan.language)
    if kind.interested:
        return "interested", kind.why
    return kind.kind, None
