"""Reading each page for key points as soon as it is in, while the others are still on
their way, so that deep-read's reading waits for no network.

What a page gives depends on the other names the pages give the options ("Ozempic
(semaglutide)", research.reading.text.discover_aliases), and those are known for sure only
once every page is in. A page is read with the names known when it came in; once all are
in, it keeps that reading if the names turned out the same, and is read again if not, so
its key points never depend on when it arrived.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from research.artifacts import KeptCandidate, Plan, SourceNotes
from research.reading import AliasFinds, Scored, aliases_from, aliases_in, mentions, scored_points

HEADER_END = "\n---\n\n"  # the stored text's front matter ends here; the page follows

Aliases = dict[str, tuple[str, ...]]


class PageReader:
    """Reads pages for key points as they arrive (`arrived`), then for good (`scored`)."""

    def __init__(self, plan: Plan, kept: list[KeptCandidate], min_score: int) -> None:
        self.plan = plan
        self.min_score = min_score
        self.urls = {k.id: k.url for k in kept}
        self.snippets = [aliases_in(f"{k.title} {k.snippet}", plan.options) for k in kept]
        self.pages: dict[int, AliasFinds] = {}  # by position, in the order they arrived
        self.early: dict[int, tuple[Aliases, list[Scored]]] = {}

    def arrived(self, position: int, notes: SourceNotes, stored: str | None) -> None:
        """Read the page at `position` of the chosen pages with the names known so far."""
        if stored is None:
            return
        self.pages[position] = aliases_in(stored, self.plan.options)
        aliases = aliases_from([*self.snippets, *self.pages.values()], self.plan.options)
        self.early[position] = (aliases, self.read(notes, stored, aliases))

    def aliases(self, results: list[tuple[SourceNotes, str | None]]) -> Aliases:
        """The names the search snippets and every page read give the options."""
        finds = [
            self.pages.get(i) or aliases_in(page, self.plan.options)
            for i, (_, page) in enumerate(results)
            if page is not None
        ]
        return aliases_from([*self.snippets, *finds], self.plan.options)

    def scored(
        self, position: int, notes: SourceNotes, stored: str, aliases: Aliases
    ) -> list[Scored]:
        """The page's scored sentences given every name the pages give the options."""
        early = self.early.pop(position, None)
        if early is not None and early[0] == aliases:
            return early[1]
        return self.read(notes, stored, aliases)

    def read(self, notes: SourceNotes, stored: str, aliases: Aliases) -> list[Scored]:
        """The page's scored sentences given these names for the options."""
        body_at = stored.index(HEADER_END) + len(HEADER_END)
        options = self.plan.options
        url = self.urls.get(notes.source_id, notes.url)
        subject = page_option(notes.title, options, aliases) or page_option(
            url_words(url), options, aliases
        )
        return scored_points(
            stored[body_at:],
            options,
            [d.name for d in self.plan.dimensions],
            page_option=subject,
            base_offset=body_at,
            aliases=aliases,
            min_score=self.min_score,
        )


def url_words(url: str) -> str:
    """An address as words: docs.nats.io/concepts reads "docs nats io concepts"."""
    parts = urlsplit(url)
    return re.sub(r"[-_/.]+", " ", f"{parts.hostname or ''} {parts.path}")


def page_option(title: str, options: list[str], aliases: Aliases | None = None) -> str | None:
    """The one option a title names, if it names exactly one."""
    named = [o for o in options if mentions(title, o, (aliases or {}).get(o, ()))]
    return named[0] if len(named) == 1 else None
