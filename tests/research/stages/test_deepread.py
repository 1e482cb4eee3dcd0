"""Deep-read against the local test web: every URL ends in an outcome, only readable
pages are stored, and quotes point exactly into the stored text."""

from __future__ import annotations

import ipaddress
import threading

import pytest

from research.artifacts import Dimension, Filtered, KeptCandidate, Limits, Plan, SubQuery
from research.context import StageContext
from research.outcomes import Outcome
from research.providers.base import FetchResult
from research.providers.fetch import HttpFetcher
from research.stages.deepread import deep_read
from tests.testweb import TestWeb

OPTIONS = ["Alderstream", "Brightwell"]
MAX_PAGE_CHARS = 1_500
MAX_BYTES = 40_000
# Long enough for a page served at once to come in on a machine busy with a parallel suite
# (the slow page takes four times as long).
FETCH_TIMEOUT = 1.5

SENTENCES = [
    "Alderstream is released under the MIT License, which keeps the licence risk low.",
    "The Alderstream maintainers shipped version 2.4 in March 2026 with 31 contributors.",
    "Teams report that Alderstream costs nothing to run beyond the servers it needs.",
    "Alderstream has a plugin API that makes extensions cheap to write and maintain.",
    "Its release notes list every breaking change with a migration guide attached.",
    "The community forum answers most Alderstream questions within a day or two.",
]


def article(title: str, tag: str = "") -> str:
    """An article whose main text is well over MAX_PAGE_CHARS long."""
    paragraphs = "".join(
        f"<p>{SENTENCES[n % len(SENTENCES)]} Section {n}{tag} adds detail number {n * 7}.</p>"
        for n in range(40)
    )
    return (
        f"<html><head><title>{title}</title></head><body><article><h1>{title}</h1>"
        f"{paragraphs}</article></body></html>"
    )


def make_plan(max_pages: int = 10) -> Plan:
    return Plan(
        question="Choose between Alderstream and Brightwell for our sync layer",
        options=OPTIONS,
        dimensions=[Dimension(name="licence risk", weight=1.0)],
        sources=["searxng:http://127.0.0.1"],
        queries=[SubQuery(id="q01", text="Alderstream licence risk")],
        limits=Limits(max_pages=max_pages, max_page_chars=MAX_PAGE_CHARS),
    )


def kept(urls: list[str], title: str = "Alderstream licence notes") -> Filtered:
    return Filtered(
        kept=[
            KeptCandidate(
                id=f"s{n:02d}",
                url=url,
                title=f"{title} {n}",
                provider="searxng",
                query="Alderstream licence risk",
                rank=n,
                score=90 - n,
                reasons=["test"],
            )
            for n, url in enumerate(urls)
        ],
        dropped=[],
    )


def fetcher(**overrides: object) -> HttpFetcher:
    options: dict = {
        "timeout": FETCH_TIMEOUT,
        "max_bytes": MAX_BYTES,
        "user_agent": "VerdictTest/1.0",
        "allowed_networks": [ipaddress.ip_network("127.0.0.1/32")],
        "tries": 1,
        "base_delay": 0,
    }
    options.update(overrides)
    return HttpFetcher(**options)


@pytest.fixture
def mixed_web(testweb: TestWeb) -> dict[str, str]:
    """One route of every kind deep-read meets on the open web, keyed by name."""
    testweb.add("/robots.txt", "User-agent: *\nDisallow: /private/\n", content_type="text/plain")
    body = article("Alderstream licence notes")
    return {
        "good": testweb.add("/good", body),
        "slow": testweb.add("/slow", article("Slow page"), delay=FETCH_TIMEOUT * 4),
        "broken": testweb.add("/broken", drop_connection=True),
        "redirect": testweb.add(
            "/away", status=302, headers={"Location": "http://127.0.0.2:9/elsewhere"}
        ),
        "oversized": testweb.add("/huge", "<html><body>" + "x" * MAX_BYTES * 2 + "</body></html>"),
        "robots": testweb.add("/private/page", article("Private page")),
        "missing": testweb.url("/gone"),
        # The same article republished under another title, as syndication sites do.
        "copy": testweb.add("/syndicated", body.replace("<title>", "<title>Reposted: ")),
    }


EXPECTED = {
    "good": Outcome.OK,
    "slow": Outcome.TIMEOUT,
    "broken": Outcome.UNAVAILABLE,
    "redirect": Outcome.BLOCKED,
    "oversized": Outcome.BLOCKED,
    "robots": Outcome.BLOCKED,
    "missing": Outcome.NO_HIT,
    "copy": Outcome.OK,
}


@pytest.fixture
def mixed_read(mixed_web):
    urls = list(mixed_web.values())
    result = deep_read(make_plan(), kept(urls), fetcher(), StageContext())
    by_name = {name: result.notes.sources[n] for n, name in enumerate(mixed_web)}
    return result, by_name


def test_every_url_ends_in_the_outcome_that_says_what_happened(mixed_read):
    _, by_name = mixed_read
    assert {name: notes.status for name, notes in by_name.items()} == EXPECTED


def test_refused_pages_say_why_they_were_refused(mixed_read):
    _, by_name = mixed_read
    assert "robots.txt" in by_name["robots"].detail
    assert "127.0.0.2" in by_name["redirect"].detail
    assert f"larger than {MAX_BYTES} bytes" in by_name["oversized"].detail


def test_only_the_page_that_was_read_has_stored_text(mixed_read):
    result, by_name = mixed_read
    good = by_name["good"]
    assert set(result.pages) == {good.source_id}
    assert good.page == f"round_3_pages/{good.source_id}.md"
    for name in ("slow", "broken", "redirect", "oversized", "robots", "missing"):
        assert by_name[name].page is None, name
        assert by_name[name].key_points == [], name


def test_every_key_point_quote_is_found_at_its_offset_in_the_stored_text(mixed_read):
    result, by_name = mixed_read
    good = by_name["good"]
    stored = result.pages[good.source_id]
    assert good.key_points
    for point in good.key_points:
        assert stored[point.offset : point.offset + len(point.quote)] == point.quote


def test_a_long_page_is_cut_to_the_character_cap(mixed_read):
    result, by_name = mixed_read
    good = by_name["good"]
    stored = result.pages[good.source_id]
    body = stored.split("---\n\n", 1)[1].lstrip("\n")
    assert good.truncated
    assert 0 < good.chars <= MAX_PAGE_CHARS
    assert len(body) == good.chars
    assert "Section 39" not in stored


def test_a_syndicated_copy_is_marked_as_a_duplicate_and_not_counted(mixed_read):
    result, by_name = mixed_read
    good, copy = by_name["good"], by_name["copy"]
    assert copy.duplicate_of == good.source_id
    assert copy.key_points == []
    assert [s.source_id for s in result.notes.ok_sources()] == [good.source_id]


def test_a_syndicated_copy_names_no_stored_page(mixed_read):
    result, by_name = mixed_read
    named = {s.page for s in result.notes.sources if s.page}
    assert named == {f"round_3_pages/{sid}.md" for sid in result.pages}
    assert by_name["copy"].page is None


def test_the_log_records_the_outcome_of_every_page(mixed_web):
    ctx = StageContext()
    deep_read(make_plan(), kept(list(mixed_web.values())), fetcher(), ctx)
    read = {e["url"]: e["outcome"] for e in ctx.events if e["event"] == "page_read"}
    assert read == {mixed_web[name]: outcome.value for name, outcome in EXPECTED.items()}


class AnsweringInReverse:
    """A fetcher whose pages answer only after the next page in the list has answered, so
    they finish last to first; it answers at all only if every page is in flight at once."""

    def __init__(self, urls: list[str]) -> None:
        self.urls = urls
        self.answered = {url: threading.Event() for url in urls}

    def fetch(self, url: str) -> FetchResult:
        later = self.urls[self.urls.index(url) + 1 :]
        if later and not self.answered[later[0]].wait(5.0):
            return FetchResult(url, Outcome.TIMEOUT, detail="the next page never answered")
        self.answered[url].set()
        body = article(f"Alderstream notes {url}", tag=f" of {url}").encode()
        return FetchResult(url, Outcome.OK, url, 200, "text/html; charset=utf-8", body)


def test_the_notes_follow_the_chosen_order_whatever_order_the_pages_arrive_in():
    urls = [f"https://site{n}.example/alderstream/{n}" for n in range(12)]
    ctx = StageContext()
    result = deep_read(make_plan(max_pages=12), kept(urls), AnsweringInReverse(urls), ctx)
    assert [s.status for s in result.notes.sources] == [Outcome.OK] * 12
    assert [s.url for s in result.notes.sources] == urls
    assert [e["url"] for e in ctx.events if e["event"] == "page_read"] == urls


def test_every_page_read_records_its_dates_and_where_they_came_from(testweb: TestWeb):
    testweb.add("/robots.txt", "", content_type="text/plain")
    meta = article("Alderstream licence notes").replace(
        "<head>",
        '<head><meta property="article:published_time" content="2025-04-02T09:00:00Z">'
        '<meta property="article:modified_time" content="2026-06-30T09:00:00Z">',
    )
    urls = [
        testweb.add("/meta", meta),
        testweb.add(
            "/header",
            article("Alderstream release notes", tag="b"),
            headers={"Last-Modified": "Tue, 03 Mar 2026 10:00:00 GMT"},
        ),
        testweb.add("/undated", article("Alderstream forum thread", tag="c")),
    ]
    result = deep_read(make_plan(), kept(urls), fetcher(), StageContext())
    dated = {s.url.rsplit("/", 1)[1]: s for s in result.notes.sources}
    assert (dated["meta"].published, dated["meta"].updated) == ("2025-04-02", "2026-06-30")
    assert dated["meta"].date_source == "HTML metadata"
    assert (dated["header"].published, dated["header"].updated) == (None, "2026-03-03")
    assert dated["header"].date_source == "Last-Modified header"
    assert (dated["undated"].published, dated["undated"].date_source) == (None, None)
    stored = result.pages[dated["meta"].source_id]
    assert "published: 2025-04-02\nupdated: 2026-06-30\ndates from: HTML metadata\n" in stored
    assert "published: unknown\n" in result.pages[dated["undated"].source_id]


ALIAS_PAGE = (
    "<html><head><title>Sync engines compared</title></head><body><article>"
    "<h1>Sync engines compared</h1>"
    "<p>Alderstream (ADS) is the sync engine most teams we spoke to had tried first.</p>"
    "<p>Brightwell is the other engine in this comparison, and it is newer.</p>"
    "</article></body></html>"
)


def unnamed_page(n: int) -> str:
    """A page that names Alderstream only as ADS, under a title that names no option."""
    return (
        f"<html><head><title>Engine notes {n}</title></head><body><article>"
        f"<h1>Engine notes {n}</h1>"
        f"<p>ADS is released under the MIT License, which keeps the licence risk low ({n}).</p>"
        f"<p>Brightwell changed its licence in 2025, which raised the licence risk ({n}).</p>"
        "</article></body></html>"
    )


class LastPageWaits:
    """Every page answers at once, but the last answers only once a page that came in has
    begun to be read; had reading waited for every page, the last would time out."""

    def __init__(self, bodies: dict[str, str], reading: threading.Event | None) -> None:
        self.bodies = bodies
        self.last = list(bodies)[-1]
        self.reading = reading

    def fetch(self, url: str) -> FetchResult:
        # Long enough for a loaded machine to extract the other pages and begin reading.
        if self.reading is not None and url == self.last and not self.reading.wait(30.0):
            return FetchResult(url, Outcome.TIMEOUT, detail="nothing was read meanwhile")
        body = self.bodies[url].encode()
        return FetchResult(url, Outcome.OK, url, 200, "text/html; charset=utf-8", body)


def engine_pages() -> dict[str, str]:
    bodies = {f"https://site{n}.example/engines/{n}": unnamed_page(n) for n in range(4)}
    return bodies | {"https://site9.example/engines/compared": ALIAS_PAGE}


@pytest.fixture
def reading(monkeypatch) -> threading.Event:
    """Set once deep-read begins to read a page for key points."""
    import research.stages.pagereads as pagereads

    started = threading.Event()
    read = pagereads.scored_points

    def noting_the_reading(*args, **kwargs):
        started.set()
        return read(*args, **kwargs)

    monkeypatch.setattr(pagereads, "scored_points", noting_the_reading)
    return started


def test_pages_are_read_while_the_last_page_is_still_being_fetched(reading):
    bodies = engine_pages()
    result = deep_read(
        make_plan(max_pages=5), kept(list(bodies)), LastPageWaits(bodies, reading), StageContext()
    )
    assert [s.status for s in result.notes.sources] == [Outcome.OK] * 5


def test_a_page_read_before_the_others_came_in_gives_the_notes_it_gives_after_them(reading):
    """The last page to arrive says ADS is Alderstream: the pages read before it came in
    are read again with that name, as they would be had every page come in first."""
    bodies = engine_pages()
    plan, filtered = make_plan(max_pages=5), kept(list(bodies))
    early = deep_read(plan, filtered, LastPageWaits(bodies, reading), StageContext())
    together = deep_read(plan, filtered, LastPageWaits(bodies, None), StageContext())

    assert early.notes.model_dump() == together.notes.model_dump()
    assert early.pages == together.pages
    assert early.notes.aliases == {"Alderstream": ["ADS"]}
    assert any(
        kp.option == "Alderstream" and kp.quote.startswith("ADS is released under the MIT")
        for kp in early.notes.sources[0].key_points
    )
