"""`python manage.py bench`: time retrieve, filter and deep-read over a generated local web.

The pages and a SearXNG-style search endpoint answer after an injected latency, so the
figures that matter are wall times as multiples of one call's latency: deep-read's against
one page's latency (near 1x with parallel fetches, N x for a sequential reader), and
retrieve's against one search's latency (about ceil(sub-queries / searches in flight) x,
where one search at a time takes one x per sub-query).

Then it submits `--queued` runs (20) at once to `--workers` real Celery worker processes (2)
through a Redis of its own, and prints when the first, the median and the last of them
finished, counted from their submission (research.queuebench).

`python manage.py bench --llm`: model tokens per stage and per run (research.llm.tokenbench)
for whole runs in LLM mode against the stub endpoint, with the configured limits (by default
50 candidates, 30 kept, 30 pages, 30,000 characters, as without a model): over the English
and Chinese notes corpora the tests use, and over a local web of full-length pages that
fills the limits.
"""

from __future__ import annotations

import ipaddress
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.test import override_settings

from research import queuebench, services
from research.llm import tokenbench
from research.localweb import LocalWeb
from research.models import Run
from research.names import CANDIDATES, NOTES
from research.runs.execute import execute_stage
from research.store import store_for

OPTIONS = ("Alderstream", "Brightwell")
TOPICS = ("licence", "maintenance", "cost")
ANGLES = (
    "review",
    "field notes",
    "migration diary",
    "postmortem",
    "FAQ",
    "deep dive",
    "benchmark write-up",
    "buyer's guide",
    "teardown",
    "retrospective",
    "primer",
    "audit",
)


# Two of these in each title, so that no two titles look alike to the filter's near-copy
# rule: pages 12 apart share their option, topic and angle.
NICKNAMES = (
    "harbour lantern meadow copper violin saddle orchard thistle quarry ember falcon glacier "
    "hammock juniper kettle lagoon marble nectar obsidian pepper quiver raven saffron tundra "
    "umber velvet willow yarrow zephyr anchor bramble cinder dune fjord garnet heron ivory "
    "jasper kelp"
).split()


def page_title(n: int) -> str:
    first, second = NICKNAMES[n % 39], NICKNAMES[(3 * n + 17) % 39]
    return f"{OPTIONS[n % 2]} {TOPICS[n % 3]} {ANGLES[n % len(ANGLES)]}: {first} and {second} #{n}"


CORPORA = Path(settings.BASE_DIR) / "tests" / "fixtures" / "corpus"
# The corpora the tests use, with the questions `manage.py quality` asks of them.
NOTES_RUNS = (
    (
        "notes_en",
        "For our team's local-first notes app, choose between Quillsync, Loamdb and Tessera",
        [
            {"name": "licence risk", "weight": 0.4},
            {"name": "maintenance activity", "weight": 0.35},
            {"name": "customisation cost", "weight": 0.25},
        ],
    ),
    ("notes_zh", "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？", []),
)
LONG_PAGES = 60  # more than the 50 candidates a run takes by default
LONG_SENTENCES = (
    "{o} is released under the {lic} licence, and version 3.{n}.{i} kept those terms.",
    "{o} shipped release 3.{n}.{i} on 2026-0{m}-1{d}, with {c} contributors merging fixes.",
    "The hosted plan of {o} costs ${price} per seat each month in the {i}th pricing tier.",
    "In our tests {o} was fast and reliable on documents of {c} thousand lines.",
    "Reviewers found the {o} documentation for plugin {i} confusing and slow to navigate.",
    "The {o} maintainers answered issue {n}{i} within {d} days, which teams praised.",
)


def long_page(n: int, chars: int) -> str:
    """A page longer than `chars`, the characters a page may be read to."""
    option = OPTIONS[n % 2]
    licence = ("MIT", "Apache-2.0", "BSL-1.1")[n % 3]
    sentences: list[str] = []
    while sum(len(s) for s in sentences) <= chars:
        i = len(sentences)
        sentences.append(
            LONG_SENTENCES[i % len(LONG_SENTENCES)].format(
                o=option, lic=licence, n=n, i=i, m=1 + i % 9, d=i % 9, c=10 + i, price=5 + i % 20
            )
        )
    body = "".join(f"<p>{s}</p>" for s in sentences)
    return (
        f"<html><head><title>{page_title(n)}</title>"
        f'<meta property="article:published_time" content="2026-06-{1 + n % 28:02d}">'
        f"</head><body><article><h1>{page_title(n)}</h1>{body}</article></body></html>"
    )


def page_html(n: int) -> str:
    option = OPTIONS[n % 2]
    topic = TOPICS[n % 3]
    body = " ".join(
        f"<p>{option} section {i}: its {topic} story is covered in detail here, with release "
        f"3.{n}.{i} shipped on 2026-0{1 + i % 9}-1{i % 9} and about {10 + i} contributors "
        f"commenting on {topic}.</p>"
        for i in range(12)
    )
    return (
        f"<html><head><title>{option} {topic} review {n}</title>"
        f'<meta property="article:published_time" content="2026-06-{1 + n % 28:02d}">'
        f"</head><body><article><h1>{option} {topic} review {n}</h1>{body}</article>"
        "</body></html>"
    )


class Command(BaseCommand):
    help = "Benchmark the first three stages over a local web with injected latency."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--llm",
            action="store_true",
            help="instead: count model tokens per stage and per run in LLM mode, against "
            "a stub endpoint on 127.0.0.1",
        )
        parser.add_argument("--pages", type=int, default=8)
        parser.add_argument("--latency", type=float, default=0.3, help="seconds per page")
        parser.add_argument(
            "--search-latency",
            type=float,
            default=None,
            help="seconds per search (default: the page latency)",
        )
        parser.add_argument(
            "--queued",
            type=int,
            default=20,
            metavar="N",
            help="also submit N runs at once to real workers and time when each finishes "
            "(default 20; 0 skips it)",
        )
        parser.add_argument(
            "--workers", type=int, default=2, help="worker processes for the queued runs"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["llm"]:
            self._tokens()
            return
        pages, latency = opts["pages"], opts["latency"]
        search_latency = latency if opts["search_latency"] is None else opts["search_latency"]
        workers = (settings.FETCH_CONCURRENCY, settings.SEARCH_CONCURRENCY)
        web = self._web(pages, latency, search_latency).start()
        try:
            with tempfile.TemporaryDirectory() as tmp, self._configured(Path(tmp), pages):
                # A worker pays one-off costs (CA bundle, imports) once, not per run; a
                # discarded first run keeps them out of the figures.
                self._time_run(web, workers)
                parallel = self._time_run(web, workers)
                sequential = self._time_run(web, (1, 1))
            self._report(pages, latency, workers[0], parallel, sequential)
            self._report_retrieve(search_latency, workers[1], parallel, sequential)
            if opts["queued"] > 0:
                self._queued(web, pages, opts["queued"], opts["workers"])
        finally:
            web.stop()

    def _queued(self, web: LocalWeb, pages: int, runs: int, workers: int) -> None:
        limits = {
            "MAX_PAGES": str(pages),
            "MAX_KEPT": str(max(pages, settings.MAX_KEPT)),
            "MAX_CANDIDATES": str(max(pages, settings.MAX_CANDIDATES)),
        }
        figures = queuebench.measure(f"searxng:{web.base}", runs, workers, limits)
        self.stdout.write(figures.line())

    def _web(self, pages: int, latency: float, search_latency: float) -> LocalWeb:
        web = LocalWeb()
        urls = [web.add(f"/page/{n}", page_html(n), delay=latency) for n in range(pages)]

        def results(query: str) -> list[dict]:
            return [
                {
                    "url": u,
                    "title": page_title(n),
                    "content": f"{OPTIONS[n % 2]} {TOPICS[n % 3]}: notes from page {n}",
                    "publishedDate": "2026-06-01",
                }
                for n, u in enumerate(urls)
            ]

        web.add_searxng(results, delay=search_latency)
        web.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
        return web

    def _configured(self, runs: Path, pages: int) -> override_settings:
        # The local web is on 127.0.0.1, which the fetcher refuses unless allowed.
        return override_settings(
            RUNS_DIR=runs,
            FETCH_ALLOWED_NETWORKS=[ipaddress.ip_network("127.0.0.1/32")],
            MAX_PAGES=pages,
            MAX_KEPT=max(pages, settings.MAX_KEPT),
            MAX_CANDIDATES=max(pages, settings.MAX_CANDIDATES),
        )

    def _time_run(self, web: LocalWeb, workers: tuple[int, int]) -> dict[str, float]:
        """One run with `workers` = (parallel fetches, searches in flight per provider)."""
        with override_settings(FETCH_CONCURRENCY=workers[0], SEARCH_CONCURRENCY=workers[1]):
            return self._timed_stages(web)

    def _timed_stages(self, web: LocalWeb) -> dict[str, float]:
        run = services.create_run(
            question=f"Choose between {OPTIONS[0]} and {OPTIONS[1]}",
            options=list(OPTIONS),
            dimensions=[{"name": t, "weight": 1.0} for t in TOPICS],
            preset="",
            sources=[f"searxng:{web.base}"],
            limits={},
        )
        timings = {}
        try:
            for stage in ("retrieve", "filter", "deepread"):
                started = time.perf_counter()
                execute_stage(run.run_id, stage)
                timings[stage] = time.perf_counter() - started
                if stage == "retrieve":
                    # Counted before filter, whose replan (if any) adds its own searches.
                    timings["searches"] = _searches(run.run_id)
            notes = store_for(run.run_id).read_json(NOTES)
            timings["pages_ok"] = sum(1 for s in notes["sources"] if s["status"] == "OK")
        finally:
            Run.objects.filter(pk=run.pk).delete()
        return timings

    def _report(
        self, pages: int, latency: float, workers: int, parallel: dict, sequential: dict
    ) -> None:
        self.stdout.write(
            f"bench: {pages} pages, {latency * 1000:.0f} ms latency each, "
            f"{workers} parallel fetches"
        )
        for label, t in (("parallel", parallel), ("sequential (1 worker)", sequential)):
            self.stdout.write(
                f"  {label:<22} retrieve {t['retrieve'] * 1000:7.0f} ms | filter "
                f"{t['filter'] * 1000:6.0f} ms | deep-read {t['deepread'] * 1000:7.0f} ms "
                f"= {t['deepread'] / latency:4.2f} x page latency | pages OK {t['pages_ok']}"
            )
        self.stdout.write(
            f"  deep-read speed-up from parallel fetching: "
            f"{sequential['deepread'] / parallel['deepread']:.1f}x"
        )

    def _report_retrieve(
        self, search_latency: float, workers: int, parallel: dict, sequential: dict
    ) -> None:
        self.stdout.write(
            f"  retrieve: {parallel['searches']} searches, {search_latency * 1000:.0f} ms "
            f"latency each | {workers} in flight per provider: "
            f"{parallel['retrieve'] / search_latency:4.2f} x search latency | one at a time: "
            f"{sequential['retrieve'] / search_latency:4.2f} x"
        )

    # --- tokens (--llm) ---------------------------------------------------------------------

    def _tokens(self) -> None:
        limits = tokenbench.limits()
        self.stdout.write(
            f"bench --llm: model tokens per stage and per run, counted by a stub endpoint on "
            f"127.0.0.1 (about 4 characters or one CJK character a token) | limits "
            f"{limits['MAX_CANDIDATES']} candidates / {limits['MAX_KEPT']} kept / "
            f"{limits['MAX_PAGES']} pages / "
            f"{limits['MAX_PAGE_CHARS']:,} characters | target {tokenbench.TARGET:,} a run"
        )
        web = LocalWeb()
        chars = limits["MAX_PAGE_CHARS"]
        urls = [web.add(f"/long/{n}", long_page(n, chars)) for n in range(LONG_PAGES)]
        web.add_searxng(lambda query: _results(query, urls))
        web.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
        web.start()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                runs = [
                    self._measured(
                        Path(tmp) / corpus,
                        f"notes corpus ({corpus})",
                        question,
                        dimensions,
                        f"local:{CORPORA / corpus}",
                    )
                    for corpus, question, dimensions in NOTES_RUNS
                ]
                runs.append(
                    self._measured(
                        Path(tmp) / "long",
                        f"local web, {LONG_PAGES} pages over {chars:,} characters",
                        f"Choose between {OPTIONS[0]} and {OPTIONS[1]}",
                        [{"name": t, "weight": 1.0} for t in TOPICS],
                        f"searxng:{web.base}",
                    )
                )
        finally:
            web.stop()
        for run in runs:
            for line in tokenbench.lines(run):
                self.stdout.write(line)

    def _measured(
        self, runs_dir: Path, label: str, question: str, dimensions: list[dict], source: str
    ) -> tokenbench.RunTokens:
        with tokenbench.stub_endpoint(runs_dir, allow_loopback=True) as stub:
            run = services.create_run(
                question=question,
                options=[],
                dimensions=dimensions,
                preset="",
                sources=[source],
                limits={},
            )
            try:
                caps = tokenbench.run_all_stages(run.run_id, stub)
                return tokenbench.measure(label, run.run_id, stub, caps)
            finally:
                Run.objects.filter(pk=run.pk).delete()


def _results(query: str, urls: list[str]) -> list[dict]:
    """Every page, starting at a place the query picks: the queries of a run find more
    distinct pages between them than any one search returns."""
    start = sum(query.encode()) % len(urls)
    order = list(range(start, len(urls))) + list(range(start))
    return [
        {
            "url": urls[n],
            "title": page_title(n),
            "content": f"{OPTIONS[n % 2]} {TOPICS[n % 3]}: notes from page {n}",
            "publishedDate": "2026-06-01",
        }
        for n in order
    ]


def _searches(run_id: str) -> int:
    candidates = store_for(run_id).read_json(CANDIDATES)
    return len(candidates["provider_calls"])
