"""A project reported archived, deprecated or unmaintained: its maintenance cell is capped
unless a later source says it is active again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from decisions.scoring.sources import RECORD_KINDS, SourceInfo, parse_published
from research.artifacts import Claim

STATUS_BASE_CAP = 15.0


STATUS_SCORE_CAP = 20.0


STATUS_ATTRIBUTE = "maintenance"


INACTIVE = "inactive"


@dataclass(frozen=True)
class Status:
    inactive: Claim | None  # the newest statement that the option is archived or unmaintained
    revival: Claim | None  # a source dated after it that says the option is active

    @property
    def capping(self) -> Claim | None:
        """The statement that caps the cell: not overtaken by a later one."""
        return self.inactive if self.revival is None else None


def status_of(claims: list[Claim], sources: dict[str, SourceInfo]) -> Status:
    status = [c for c in claims if c.attribute == STATUS_ATTRIBUTE]
    inactive = [c for c in status if c.value == INACTIVE]
    if not inactive:
        return Status(None, None)
    newest = max(inactive, key=lambda c: _dated(c, sources))
    when = _dated(newest, sources)
    # An undated "archived" cannot be shown to be old news; only a source saying the
    # option is active again lifts it.
    later = [
        c
        for c in status
        if c.value != INACTIVE and c.polarity > 0 and when > date.min and _dated(c, sources) > when
    ]
    return Status(newest, max(later, key=lambda c: _dated(c, sources)) if later else None)


def _dated(claim: Claim, sources: dict[str, SourceInfo]) -> date:
    """When the statement holds: a record's status on the day it was retrieved (its own
    date is its last release, which says nothing of the years since), a page's on its date."""
    info = sources[claim.source_id]
    if info.kind in RECORD_KINDS and claim.kind == "fact":
        return parse_published(claim.date) or info.published or date.min
    return info.published or date.min


def status_notes(status: Status, sources: dict[str, SourceInfo], text: dict[str, str]) -> list[str]:
    if status.inactive is None:
        return []
    said = status.inactive
    if status.revival is None:
        line = text["capped"].format(
            site=sources[said.source_id].site,
            option=said.option,
            quote=whole(said.quote),
            base=STATUS_BASE_CAP,
            score=STATUS_SCORE_CAP,
        )
        return [line]
    info = sources[status.revival.source_id]
    newer = info.published.isoformat() if info.published else ""
    return [
        text["revived"].format(
            site=info.site, newer=newer, option=said.option, quote=whole(said.quote)
        )
    ]


def whole(quote: str) -> str:
    """The quote as the source has it, so a report can print it; cut only when it spans
    lines, which a Markdown list item cannot hold."""
    return quote if "\n" not in quote.strip() else short(quote)


def short(quote: str, limit: int = 80) -> str:
    quote = " ".join(quote.split())
    return quote if len(quote) <= limit else quote[: limit - 3].rstrip() + "..."
