"""What the evidence viewer shows: one source's stored extract, every quote the run cites
from it highlighted where it stands.

The text is escaped before any <mark> is added, so a stored page holding markup shows it
as text. Each occurrence of a cited quote gets one <mark>; the first carries the quote's
anchor (research.web.report.run_files.quote_anchor), so a citation in the report jumps to it.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from research.artifacts import Correction, Corrections, Crosscheck, Notes, Plan, SourceNotes
from research.web.report.run_files import quote_anchor
from research.web.report.sources import source_kind
from research.web.report.strings import WebStrings


@dataclass
class Cited:
    quote: str
    anchor: str
    claim_ids: list[str] = field(default_factory=list)
    contradiction_ids: list[str] = field(default_factory=list)
    by_model: bool = False  # a claim on this quote was read by the model (LLM mode)
    flags: list[str] = field(default_factory=list)  # the reader reads a model claim otherwise
    occurrences: int = 0
    first: int = -1  # where its first occurrence starts

    def label(self, t: WebStrings) -> str:
        said = []
        if self.claim_ids:
            said.append(t("claims_label", ids=", ".join(self.claim_ids)))
        if self.by_model:
            said.append(t("read_by_model"))
        said += self.flags
        said += [t("contradiction_label", id=x) for x in self.contradiction_ids]
        if self.occurrences > 1:
            said.append(t("occurrences", count=self.occurrences))
        return " · ".join(said)


def evidence_page(
    src: SourceNotes,
    notes: Notes,
    plan: Plan,
    check: Crosscheck | None,
    text: str | None,
    corrections: Corrections | None = None,
) -> dict:
    """Everything the viewer shows of one source. `check` is None before cross-validation;
    `corrections` are the owner's, each shown on the claim it corrects."""
    t = WebStrings(plan.language)
    standing = {c.target_id: c for c in (corrections or Corrections()).active()}
    numbers = {s.source_id: n for n, s in enumerate(notes.ok_sources(), 1)}
    cited = cited_quotes(src.source_id, check)
    text = without_front_matter(text) if text is not None else None
    marked = highlight(text, cited) if text is not None else None
    kind_id, interested = source_kind(src, plan)
    return {
        "t": t,
        "L": t.labels(),
        "src": src,
        "n": numbers.get(src.source_id),
        "title": src.title or src.url,
        # A local file's address is a path on the server: it is named by its title only.
        "web_page": src.url.startswith(("http://", "https://")),
        "kind": t.kind(kind_id),
        "interested": interested,
        "published": src.published or t("unknown_date"),
        "text": marked,
        "stored": t("stored_chars", chars=len(text or "")),
        "cited": [
            {
                "quote": c.quote,
                "anchor": c.anchor,
                "label": c.label(t),
                "claims": [_claim_row(i, standing, t) for i in c.claim_ids],
            }
            for c in sorted(cited, key=lambda c: c.first)
            if c.occurrences
        ],
        "plan_options": plan.options,
        "plan_dimensions": [d.name for d in plan.dimensions],
        "no_text": t("no_text", status=source_status(src)),
        "duplicate": t("duplicate_of", id=src.duplicate_of) if src.duplicate_of else "",
    }


def without_front_matter(text: str) -> str:
    """The stored page without its front matter (source id, URL, title, dates): the viewer
    shows those above the text, from the notes."""
    if not text.startswith("---\n"):
        return text
    end = text.find("\n---\n", 4)
    return text if end < 0 else text[end + 5 :].lstrip("\n")


def _claim_row(claim_id: str, standing: dict[str, Correction], t: WebStrings) -> dict[str, str]:
    """A claim on a cited quote, and the correction standing on it, if any."""
    fix = standing.get(claim_id)
    said = t("corrected_by", who=fix.by, what=t(f"kind_{fix.kind}")) if fix else ""
    return {"claim_id": claim_id, "correction_id": fix.id if fix else "", "corrected": said}


def cited_quotes(source_id: str, check: Crosscheck | None) -> list[Cited]:
    """The quotes claims and contradictions take from this source, each once, in order."""
    found: dict[str, Cited] = {}

    def add(quote: str) -> Cited:
        return found.setdefault(quote, Cited(quote, quote_anchor(quote)))

    if check is None:
        return []
    for claim in check.claims:
        if claim.source_id == source_id and claim.quote:
            cited = add(claim.quote)
            cited.claim_ids.append(claim.id)
            cited.by_model = cited.by_model or claim.origin == "model"
            if claim.flag and claim.flag not in cited.flags:
                cited.flags.append(claim.flag)
    for x in check.contradictions:
        for side in (x.a, x.b, *x.a_also, *x.b_also):
            if side.source_id == source_id and side.quote:
                cited = add(side.quote)
                if x.id not in cited.contradiction_ids:
                    cited.contradiction_ids.append(x.id)
    return list(found.values())


def starts(text: str, quote: str) -> list[int]:
    """Where the quote stands in the text, occurrences not overlapping each other."""
    found, at = [], text.find(quote)
    while quote and at != -1:
        found.append(at)
        at = text.find(quote, at + len(quote))
    return found


def highlight(text: str, cited: list[Cited]) -> SafeString:
    """The text, escaped, with one <mark> per occurrence of each cited quote. A quote inside
    another nests in it; one that runs past the end of the quote it starts in is continued
    in a second, anchorless mark."""
    order = itertools.count()
    pending: list[tuple[int, int, int, str | None]] = []
    for c in cited:
        places = starts(text, c.quote)
        c.occurrences, c.first = len(places), places[0] if places else -1
        for k, at in enumerate(places, 1):
            anchor = c.anchor if k == 1 else f"{c.anchor}-{k}"
            heapq.heappush(pending, (at, -(at + len(c.quote)), next(order), anchor))
    out: list[str] = []
    pos, open_ends = 0, []

    def close_until(limit: int) -> None:
        nonlocal pos
        while open_ends and open_ends[-1] <= limit:
            end = open_ends.pop()
            out.append(escape(text[pos:end]) + "</mark>")
            pos = end

    while pending:
        start, neg_end, _, anchor = heapq.heappop(pending)
        end = -neg_end
        close_until(start)
        if open_ends and end > open_ends[-1]:
            heapq.heappush(pending, (open_ends[-1], -end, next(order), None))
            end = open_ends[-1]
        out.append(escape(text[pos:start]) + _open(anchor))
        pos = start
        open_ends.append(end)
    close_until(len(text))
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))


def _open(anchor: str | None) -> str:
    if anchor is None:
        return '<mark class="q cont">'
    return format_html('<mark class="q" id="{}">', anchor)


def source_status(src: SourceNotes) -> str:
    return src.status.value + (f", {src.detail}" if src.detail else "")
