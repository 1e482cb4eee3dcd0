"""page_fetch_markdown and extract_key_points: a page read through the guarded fetcher, and
the sentences of a page that say something checkable about the options."""

from __future__ import annotations

from django.conf import settings
from mcp_types import CallToolResult

from research import offload
from research.mcp.common import (
    INVALID,
    NOT_READY,
    Reporter,
    artifact_uri,
    failed,
    owned_run,
    text_part,
    valid_source_id,
)
from research.mcp.tools.results import (
    FETCH_STEPS,
    KeyPointOut,
    KeyPoints,
    PageText,
    invalid,
)
from research.names import (
    NOTES,
    page_artifact,
)
from research.outcomes import Outcome
from research.providers.extract import extract_page
from research.providers.fetch import HttpFetcher
from research.reading import discover_aliases, key_points
from research.store import readers, store_for


def fetch_page(
    url: str, start_index: int, max_length: int, reporter: Reporter
) -> PageText | CallToolResult:
    fetched = HttpFetcher.from_settings().fetch(url.strip())
    result = PageText(status=fetched.outcome, url=url, final_url=fetched.final_url)
    reporter.step(
        f"fetched {fetched.final_url or url}: {fetched.outcome}",
        total=FETCH_STEPS,
        level="info" if fetched.outcome.looked else "warning",
    )
    if fetched.outcome is not Outcome.OK:
        result.message = fetched.detail or f"the fetch ended {fetched.outcome}"
        if fetched.outcome is Outcome.NO_HIT:
            return result  # the server answered: there is no such page
        return failed(result, f"{fetched.outcome}: {result.message}")
    page = offload.call(
        extract_page,
        fetched.body,
        fetched.content_type,
        fetched.final_url or url,
        settings.FETCH_MAX_BYTES,
    )
    result.title, result.published, result.site = page.title, page.published, page.site
    result.total_length = len(page.text)
    reporter.step(f"extracted {len(page.text):,} characters of main text", total=FETCH_STEPS)
    if not page.text.strip():
        result.status, result.message = Outcome.NO_HIT, "the page has no readable main text"
        return result
    if start_index >= len(page.text):
        result.status = INVALID
        result.message = (
            f"start_index {start_index} is past the end: the text has {len(page.text)} characters"
        )
        return failed(result, result.message)
    result.content, result.next_index = text_part(page.text, start_index, max_length)
    result.start_index = start_index
    return result


# --- extract_key_points --------------------------------------------------------------------


def key_points_of_source(user, run_id: str, source: str) -> KeyPoints | CallToolResult:
    result = KeyPoints(status=Outcome.OK, run_id=run_id, source_id=source)
    try:
        owned_run(user, run_id)
    except LookupError as exc:
        result.status, result.message = Outcome.NO_HIT, str(exc)
        return failed(result, str(exc))
    if not valid_source_id(source):
        return invalid(result, f"not a source id: {source!r}")
    store = store_for(run_id)
    if not readers.sound(store, NOTES):
        result.status = NOT_READY
        result.message = (
            f"Run {run_id} has no deep-read notes yet. Read the page with page_fetch_markdown "
            "and pass its text here instead, or wait for the deep-read stage."
        )
        return failed(result, result.message)
    notes = next((s for s in readers.notes(store).sources if s.source_id == source), None)
    if notes is None:
        result.status = Outcome.NO_HIT
        result.message = f"deep-read read no source {source!r} in run {run_id}"
        return failed(result, result.message)
    if notes.status is not Outcome.OK:
        result.status = notes.status
        result.message = f"the page could not be read: {notes.detail or notes.status}"
        return failed(result, result.message)
    if notes.duplicate_of:
        result.status = Outcome.NO_HIT
        result.message = f"{notes.detail}: read the key points of {notes.duplicate_of}"
        return result
    result.uri = artifact_uri(run_id, page_artifact(source))
    result.key_points = [
        KeyPointOut(**kp.model_dump(include=set(KeyPointOut.model_fields)))
        for kp in notes.key_points
    ]
    result.message = f"{len(result.key_points)} key points, offsets in the stored page"
    return result


def key_points_of_text(
    text: str, options: list[str], dimensions: list[str], limit: int
) -> KeyPoints | CallToolResult:
    result = KeyPoints(status=Outcome.OK)
    names = [o.strip() for o in options if o.strip()]
    if not text.strip():
        return invalid(result, "The text is empty.")
    if not names:
        return invalid(result, "Name at least one option the key points should be about.")
    points = key_points(
        text,
        names,
        [d.strip() for d in dimensions if d.strip()],
        page_option=names[0] if len(names) == 1 else None,
        limit=limit,
        aliases=discover_aliases([text], names),
    )
    result.key_points = [
        KeyPointOut(**kp.model_dump(include=set(KeyPointOut.model_fields))) for kp in points
    ]
    if not points:
        result.status = Outcome.NO_HIT
        result.message = "no sentence of the text says something checkable about the options"
    else:
        result.message = f"{len(points)} key points, offsets in the text given"
    return result
