"""Stage 3: fetch the best kept pages, all at once, store their main text, note key points."""

from __future__ import annotations

import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from research.artifacts import (
    Filtered,
    KeptCandidate,
    KeyPoint,
    Notes,
    Plan,
    PrimaryRecordDoc,
    SourceNotes,
)
from research.context import StageContext
from research.llm import StageLLM
from research.names import page_artifact
from research.outcomes import Outcome
from research.providers.base import Fetcher, FetchResult
from research.providers.documents import decode_text, read_corpus_file
from research.providers.extract_pool import extract
from research.providers.pagedates import PageDate, find_page_date
from research.providers.urls import site_of, source_id
from research.reading import MIN_SCORE, Scored, best_points, scored_points
from research.stages.modelpoints import WIDER_NET, PageReading, model_key_points
from research.stages.pagereads import PageReader, page_option
from research.stages.records import SITES, date_source, record_dates, record_page

_LOCAL_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".md": "text/markdown",
    ".txt": "text/plain",
    ".pdf": "application/pdf",
}
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
KEY_POINTS = 24  # the most key points one page gives


@dataclass
class DeepRead:
    notes: Notes
    pages: dict[str, str]  # source_id -> stored text (the .md file's full content)


def deep_read(
    plan: Plan,
    filtered: Filtered,
    fetcher: Fetcher,
    ctx: StageContext,
    workers: int = 32,
    llm: StageLLM | None = None,
    records: list[PrimaryRecordDoc] | None = None,
) -> DeepRead:
    """With `llm`, the model re-picks and labels the key points of up to MODEL_PAGES of the
    pages read, from the reader's best sentences (research.stages.modelpoints); the other
    pages keep the reader's key points, as every page does without it. Which pages are read
    does not depend on the model: a configured one never makes a run read less.

    The primary sources' `records` are stored as pages too, besides the pages chosen (a
    page at a record's own address is not fetched: the record stands for it).

    A deep-read spread over workers is the same two steps apart: `read_part` for each share
    of `pages_to_read`, then `merge_parts`, which gives what this gives."""
    chosen = pages_to_read(plan, filtered, records)
    note_chosen(ctx, chosen)
    part = read_part(plan, filtered, chosen, fetcher, workers, min_score_for(llm))
    return merge_parts(plan, filtered, [part], ctx, llm, records)


def pages_to_read(
    plan: Plan, filtered: Filtered, records: list[PrimaryRecordDoc] | None = None
) -> list[KeptCandidate]:
    """The kept pages the run reads, in reading order (a record stands for its own page)."""
    recorded = {source_id(doc.url) for doc in records or []}
    kept = [k for k in filtered.kept if k.id not in recorded]
    return choose_pages(kept, plan.options, plan.limits.max_pages)


def note_chosen(ctx: StageContext, chosen: list[KeptCandidate]) -> None:
    ctx.record(
        "pages_chosen",
        ids=[c.id for c in chosen],
        reason="best-scored pages, taken in turn for each option so none is left out",
    )


def min_score_for(llm: StageLLM | None) -> int:
    """How low a sentence may score to be kept for a second look: lower for the model."""
    return WIDER_NET if llm else MIN_SCORE


@dataclass
class PageRead:
    notes: SourceNotes
    stored: str | None  # the stored text; None when the page gave none
    scored: list[Scored] | None = None  # its sentences, read with the part's aliases


@dataclass
class PartRead:
    """A share of the pages, fetched, stored and scored. Scoring needs the names the pages
    give the options, which only all pages together tell; a part scores with those its own
    pages and the search snippets give, and the merge scores again where that was not all."""

    pages: list[PageRead]
    aliases: dict[str, tuple[str, ...]]
    min_score: int


def read_part(
    plan: Plan,
    filtered: Filtered,
    share: list[KeptCandidate],
    fetcher: Fetcher,
    workers: int,
    min_score: int,
) -> PartRead:
    """Fetch, store and score a share of the pages to read, in the order given: each page
    is read as soon as it is in, while the others are still on their way (PageReader)."""
    reader = PageReader(plan, filtered.kept, min_score)
    results = _read_all(plan, share, fetcher, workers, reader.arrived)
    aliases = reader.aliases(results)
    pages = []
    for position, (notes, stored) in enumerate(results):
        scored = None if stored is None else reader.scored(position, notes, stored, aliases)
        pages.append(PageRead(notes, stored, scored))
    return PartRead(pages, aliases, min_score)


def merge_parts(
    plan: Plan,
    filtered: Filtered,
    parts: list[PartRead],
    ctx: StageContext,
    llm: StageLLM | None = None,
    records: list[PrimaryRecordDoc] | None = None,
) -> DeepRead:
    """The notes and pages of every part, in reading order, as one reading of all of them:
    syndicated copies are found across parts, and the options' other names are learnt from
    every page before key points are chosen."""
    reads = [page for part in parts for page in part.pages]
    results = [(page.notes, page.stored) for page in reads]
    _mark_syndicated_copies(results)
    min_score = min_score_for(llm)
    reader = PageReader(plan, filtered.kept, min_score)
    aliases = reader.aliases(results)
    if any(aliases.values()):
        ctx.record(
            "aliases_found",
            aliases={o: list(a) for o, a in aliases.items() if a},
            reason="the pages name these options so in brackets beside their names",
        )
    readings = _note_key_points(reader, parts, aliases)
    if llm is not None:
        model_key_points(plan, readings, llm, ctx, KEY_POINTS)
    results += [_record_read(plan, doc, aliases) for doc in records or []]
    pages = {
        notes.source_id: page
        for notes, page in results
        if page is not None and notes.duplicate_of is None
    }
    for notes, _ in results:
        ctx.record(
            "page_read",
            source_id=notes.source_id,
            url=notes.url,
            outcome=notes.status.value,
            detail=notes.detail,
            duplicate_of=notes.duplicate_of,
            key_points=len(notes.key_points),
            chars=notes.chars,
            published=notes.published,
            updated=notes.updated,
            dates_from=notes.date_source,
        )
    found = {o: list(a) for o, a in aliases.items() if a}
    return DeepRead(notes=Notes(sources=[n for n, _ in results], aliases=found), pages=pages)


def _note_key_points(
    reader: PageReader, parts: list[PartRead], aliases: dict[str, tuple[str, ...]]
) -> list[PageReading]:
    """Key points for every page read, once all are in. A part's scoring stands when it was
    read with the run's aliases and no higher a floor; otherwise its pages are read again.
    Each page's scored sentences (down to the reader's least score) are kept for a second
    look."""
    readings = []
    for part in parts:
        stands = part.aliases == aliases and part.min_score <= reader.min_score
        for page in part.pages:
            notes, stored = page.notes, page.stored
            if stored is None or notes.duplicate_of is not None:
                continue
            if stands and page.scored is not None:
                scored = [s for s in page.scored if s.table or s.score >= reader.min_score]
            else:
                scored = reader.read(notes, stored, aliases)
            notes.key_points = best_points(scored, KEY_POINTS)
            readings.append(PageReading(notes, scored, aliases))
    return readings


def _record_read(
    plan: Plan, doc: PrimaryRecordDoc, aliases: dict[str, tuple[str, ...]]
) -> tuple[SourceNotes, str]:
    """A record as a page: its facts are its key points; a paper's or trial's text (an
    abstract) is read for key points as well."""
    published, updated = record_dates(doc)
    dated = PageDate(published, updated, "record", date_source(doc))
    site = SITES.get(doc.provider, doc.provider)
    header = _header(source_id(doc.url), doc.url, doc.title, published, site, dated)
    notes, stored = record_page(doc, header)
    if doc.source_kind == "primary":
        body_at = len(header)
        option = notes.facts[0].option if notes.facts else None
        lines = {f.quote for f in notes.facts}
        scored = scored_points(
            stored[body_at:],
            plan.options,
            [d.name for d in plan.dimensions],
            page_option=option,
            base_offset=body_at,
            aliases=aliases,
        )
        read = [kp for kp in best_points(scored, KEY_POINTS) if kp.quote not in lines]
        notes.key_points = [*notes.key_points, *read]
    return notes, stored


def choose_pages(kept: list[KeptCandidate], options: list[str], limit: int) -> list[KeptCandidate]:
    """Take the best page about each option in turn (then pages about several), so a
    well-documented option cannot use up the whole reading budget."""
    buckets: dict[str | None, list[KeptCandidate]] = {}
    for cand in kept:  # already in score order
        buckets.setdefault(page_option(f"{cand.title} {cand.snippet}", options), []).append(cand)
    order = [*(o for o in options if o in buckets), *([None] if None in buckets else [])]
    chosen: list[KeptCandidate] = []
    while len(chosen) < min(limit, len(kept)):
        for key in order:
            if buckets[key] and len(chosen) < limit:
                chosen.append(buckets[key].pop(0))
    return sorted(chosen, key=kept.index)


SYNDICATED = 0.8  # share of word shingles two pages must share to count as one text


def _mark_syndicated_copies(results: list[tuple[SourceNotes, str | None]]) -> None:
    """A page republished on a second site is one source, not two independent ones."""
    seen: list[tuple[SourceNotes, set[int]]] = []
    for notes, page in results:
        if page is None:
            continue
        shingles = _shingles(page)
        original = next((n for n, s in seen if _jaccard(s, shingles) >= SYNDICATED), None)
        if original is None:
            seen.append((notes, shingles))
            continue
        notes.duplicate_of = original.source_id
        notes.key_points = []
        notes.page = None  # its text is the original's; only the original is stored
        notes.detail = f"same text as {original.source_id} ({original.url}); not counted twice"


def _shingles(text: str, size: int = 5) -> set[int]:
    words = text.split()
    return {hash(" ".join(words[i : i + size])) for i in range(max(1, len(words) - size + 1))}


def _jaccard(a: set[int], b: set[int]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _read_all(
    plan: Plan,
    chosen: list[KeptCandidate],
    fetcher: Fetcher,
    workers: int,
    arrived: Callable[[int, SourceNotes, str | None], None] | None = None,
) -> list[tuple[SourceNotes, str | None]]:
    """Every chosen page in flight at once, up to `workers` (the fetcher keeps its own bound
    per host); the results in the chosen order, whatever order they arrive in. Each page
    read is handed to `arrived` (with its position) as it comes in, while the others are
    still on their way."""
    if not chosen:
        return []
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(chosen)))) as pool:
        # Started host by host in turn, so that pages waiting for a busy host's slot do not
        # hold every thread while other hosts' pages wait to start.
        futures = {i: pool.submit(_read_one, plan, chosen[i], fetcher) for i in _by_host(chosen)}
        if arrived is not None:
            position = {future: i for i, future in futures.items()}
            for future in as_completed(position):
                if future.exception() is None:
                    arrived(position[future], *future.result())
        return [futures[i].result() for i in range(len(chosen))]


def _by_host(chosen: list[KeptCandidate]) -> list[int]:
    """The positions of `chosen`, taking one page of each host in turn."""
    queues: dict[str, list[int]] = {}
    for i, cand in enumerate(chosen):
        queues.setdefault(urlsplit(cand.url).hostname or "", []).append(i)
    order: list[int] = []
    while any(queues.values()):
        order += [q.pop(0) for q in queues.values() if q]
    return order


def _read_one(plan: Plan, cand: KeptCandidate, fetcher: Fetcher) -> tuple[SourceNotes, str | None]:
    if cand.local_path:
        result, dated = _load_local(cand)
    else:
        result = fetcher.fetch(cand.url)
        dated = _page_date(result)
    base = SourceNotes(
        source_id=cand.id,
        url=cand.url,
        final_url=result.final_url,
        title=cand.title,
        published=cand.published,
        site=site_of(cand.url),
        status=result.outcome,
        detail=result.detail,
    )
    if result.outcome is not Outcome.OK:
        return base, None
    # In an extraction process while this one reads the pages already in (extract_pool).
    page = extract(
        result.body, result.content_type, result.final_url or cand.url, plan.limits.max_page_chars
    )
    if not page.text.strip():
        base.status, base.detail = Outcome.NO_HIT, "the page has no readable main text"
        return base, None
    return _noted(plan, cand, base, page, dated)


def _page_date(result: FetchResult) -> PageDate | None:
    if result.outcome is not Outcome.OK:
        return None
    return find_page_date(result.body, result.content_type, result.headers)


def _noted(
    plan: Plan, cand: KeptCandidate, base: SourceNotes, page, dated: PageDate | None
) -> tuple[SourceNotes, str]:
    # The search title keeps the site suffix ("… | Loamdb Docs") that says whose page it is.
    title = cand.title if cand.title and cand.title != cand.url else page.title or cand.title
    if dated is None and cand.published:
        dated = PageDate(cand.published, None, "search-result", "the search result")
    published = dated.published if dated else None
    header = _header(cand.id, cand.url, title, published, base.site, dated)
    stored = header + page.text
    notes = base.model_copy(
        update={
            "title": title,
            "published": published,
            "updated": dated.updated if dated else None,
            "date_source": dated.detail if dated else None,
            "chars": len(page.text),
            "truncated": page.truncated,
            "page": page_artifact(cand.id),
            "detail": base.detail or ("truncated to the character cap" if page.truncated else ""),
        }
    )
    return notes, stored


def _header(
    sid: str,
    url: str,
    title: str,
    published: str | None,
    site: str,
    dated: PageDate | None = None,
) -> str:
    lines = [
        "---",
        f"source_id: {sid}",
        f"url: {url}",
        f"title: {_one_line(title)}",
        f"published: {published or 'unknown'}",
        *([f"updated: {dated.updated}"] if dated and dated.updated else []),
        *([f"dates from: {dated.detail}"] if dated else []),
        f"site: {site}",
        "---",
        "",
        "",
    ]
    return "\n".join(lines)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _load_local(cand: KeptCandidate) -> tuple[FetchResult, PageDate | None]:
    """Read like a fetched page: inside the corpus folder, under the size cap, and sniffed;
    dated by its front matter or HTML metadata, before the front matter is taken off."""
    path = Path(cand.local_path or "")
    declared = _LOCAL_TYPES.get(path.suffix.lower(), "text/plain")
    result = read_corpus_file(cand.url, path, cand.provider, declared)
    media_type = result.content_type.split(";", 1)[0]
    if result.outcome is not Outcome.OK or media_type not in ("text/markdown", "text/plain"):
        return result, _page_date(result)
    text = decode_text(result.body, result.content_type)
    dated = find_page_date(text, media_type)
    text = _FRONT_MATTER.sub("", text, count=1)
    body = text.encode("utf-8")
    return replace(result, body=body, content_type=f"{media_type}; charset=utf-8"), dated


def notes_markdown(notes: Notes) -> str:
    """A human-readable twin of round_3_notes.json."""
    lines = ["# Deep-read notes", ""]
    for src in notes.sources:
        lines += [
            f"## {src.title or src.url}",
            "",
            f"- source: `{src.source_id}` <{src.url}>",
            f"- outcome: **{src.status.value}**" + (f" ({src.detail})" if src.detail else ""),
            f"- published: {src.published or 'unknown'}"
            + (f"; updated: {src.updated}" if src.updated else "")
            + (f" (from {src.date_source})" if src.date_source else "")
            + f"; site: {src.site}",
            "",
        ]
        for kp in src.key_points:
            tag = " / ".join(x for x in (kp.option, kp.dimension) if x)
            lines.append(f'- [{tag}] "{kp.quote}" (offset {kp.offset}{_picked_by(kp)})')
        lines.append("")
    return "\n".join(lines)


_STANCES = {1: "for", -1: "against", 0: "neither for nor against"}


def _picked_by(kp: KeyPoint) -> str:
    if kp.origin != "model":
        return ""
    stance = _STANCES.get(kp.polarity) if kp.polarity is not None else None
    return "; picked by the model" + (f", {stance}" if stance else "")
