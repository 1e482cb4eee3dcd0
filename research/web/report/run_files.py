"""A finished run's artifacts as the report pages read them, and the small helpers every
part of the page shares: citation numbers, quote anchors, sentences as HTML."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from decisions.corrections import corrected
from decisions.decide import verify_quotes
from decisions.scoring.sources import source_infos, standing
from research.artifacts import (
    Claim,
    Correction,
    Corrections,
    Crosscheck,
    Decision,
    Filtered,
    Notes,
    Plan,
)
from research.context import StageContext
from research.names import CROSSCHECK, DECISION, FILTERED, NOTES, PLAN
from research.store import RunStore, readers

REPORT_FILES = (PLAN, FILTERED, NOTES, CROSSCHECK, DECISION)
EvidenceUrl = Callable[[str], str]  # source id -> URL of its evidence viewer


@dataclass(frozen=True)
class RunFiles:
    run_id: str
    plan: Plan
    filtered: Filtered
    notes: Notes
    crosscheck: Crosscheck  # only claims whose quotes are in their stored source, corrected
    decision: Decision
    corrections: Corrections = field(default_factory=Corrections)
    read: Crosscheck | None = None  # the cross-check as the reader wrote it, uncorrected

    @cached_property
    def read_claims(self) -> dict[str, Claim]:
        """Every claim as the reader read it, corrected or not."""
        return {c.id: c for c in (self.read or self.crosscheck).claims}

    @cached_property
    def standing(self) -> dict[str, Correction]:
        """Claim or contradiction id -> the correction that stands on it."""
        return {c.target_id: c for c in self.corrections.active()}

    @cached_property
    def numbers(self) -> dict[str, int]:
        """Source id -> citation number, as report.md numbers them."""
        return {s.source_id: n for n, s in enumerate(self.notes.ok_sources(), 1)}

    @cached_property
    def claims(self) -> dict[str, Claim]:
        return {c.id: c for c in self.crosscheck.claims}

    @cached_property
    def strengths(self) -> dict[str, float]:
        """Claim id -> how much its page counts for it, as the scores count it."""
        infos = source_infos(self.notes, self.plan.options, self.plan.language)
        return {
            c.id: standing(c, infos[c.source_id]).strength
            for c in self.crosscheck.claims
            if c.source_id in infos
        }

    def cite(self, source_ids: list[str]) -> str:
        """ "[1], [3]": the citation numbers of these sources, in order."""
        numbers = self.numbers
        return ", ".join(f"[{n}]" for n in sorted({numbers[s] for s in source_ids if s in numbers}))


def report_ready(store: RunStore) -> bool:
    return all(store.has(name) for name in REPORT_FILES)


def load(store: RunStore) -> RunFiles:
    notes = readers.notes(store)
    check = readers.crosscheck(store)
    corrections = readers.corrections(store)
    pages = readers.stored_pages(store, notes)
    return RunFiles(
        run_id=store.run_id,
        plan=readers.plan(store),
        filtered=readers.filtered(store),
        notes=notes,
        # The same check the decide stage ran, so the page cites what the scores counted.
        crosscheck=verify_quotes(corrected(check, corrections), pages, StageContext()).crosscheck,
        decision=readers.decision(store),
        corrections=corrections,
        read=verify_quotes(check, pages, StageContext()).crosscheck,
    )


def quote_anchor(quote: str) -> str:
    """The id of a quote's first highlight in the evidence viewer."""
    return "q-" + hashlib.sha256(quote.encode("utf-8")).hexdigest()[:10]


@dataclass
class Quote:
    n: int  # the citation number of its source
    quote: str
    href: str  # the evidence viewer, at the quote's highlight


class Quoter:
    """Makes a cited quote, linked to its highlight; None for a source the report does
    not number (one that could not be read)."""

    def __init__(self, numbers: dict[str, int], evidence_url: EvidenceUrl) -> None:
        self.numbers, self.evidence_url = numbers, evidence_url

    def __call__(self, source_id: str, text: str) -> Quote | None:
        if source_id not in self.numbers:
            return None
        href = f"{self.evidence_url(source_id)}#{quote_anchor(text)}"
        return Quote(self.numbers[source_id], text, href)


_INLINE = re.compile(r"\*\*(?P<bold>.+?)\*\*|`(?P<code>[^`]+)`|\[(?P<cite>\d+)\]")


def rich(text: str, report_url: str = "") -> SafeString:
    """A sentence of reports.strings as HTML: its **bold** and `code`, and citations [n]
    linked to the evidence list (of the report at `report_url`, when it is another page).
    Everything else is escaped."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        if m.group("bold") is not None:
            out.append(format_html("<strong>{}</strong>", rich(m.group("bold"), report_url)))
        elif m.group("code") is not None:
            out.append(format_html("<code>{}</code>", m.group("code")))
        else:
            out.append(
                format_html(
                    '<a class="cite" href="{0}#src-{1}">[{1}]</a>', report_url, m.group("cite")
                )
            )
        pos = m.end()
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))
