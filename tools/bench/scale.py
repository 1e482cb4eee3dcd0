"""How each stage's time grows with the pages a run reads (`manage.py bench --scale`).

One run per size (30, 60, 120 and 240 pages by default) over a generated local web that
answers at once: every page about one of two options, with licences, versions, release
dates, prices and judgements that agree and disagree across pages, so that filter and
cross-validate have near-copies to look for and contradictions to find. Each stage's time is
the CPU time the process spent in it (the machine may be shared; CPU time is steadier than
wall time), and each stage's growth is the exponent k of time ~ pages^k, fitted by least
squares on log time against log pages: 1 is linear, 2 quadratic."""

from __future__ import annotations

import ipaddress
import itertools
import json
import math
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from django.test import override_settings

from research import services
from research.artifacts import STAGES, Question
from research.models import Run
from research.names import NOTES
from research.runs.execute import execute_stage
from research.store import store_for
from tools.bench.fresh import forget_sentences
from tools.bench.pages import ANGLES, NICKNAMES, OPTIONS, TOPICS, long_page
from tools.fakes.localweb import LocalWeb, Route

SIZES = (30, 60, 120, 240)
PAGE_CHARS = 1000  # about a dozen sentences a page
# A search returns at most 20 hits and a run asks a handful of queries: the pages are
# shared out among search endpoints of at most this many each, and each endpoint answers
# its queries with the next 20 of its pages, so that a run finds every page.
PAGES_PER_ENDPOINT = 40
HITS = 20
TARGET = 1.2  # the exponent filter and cross-validate should stay within
WATCHED = ("filter", "crosscheck")


def fitted_exponent(sizes: Sequence[float], times: Sequence[float]) -> float:
    """The slope of the least-squares line through (log size, log time)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-6)) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    if spread == 0:
        return 0.0
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread


def search_endpoints(web: LocalWeb, urls: list[str]) -> list[str]:
    """SearXNG endpoints on `web` that between them list every one of `urls`."""
    sources = []
    for e in range(math.ceil(len(urls) / PAGES_PER_ENDPOINT)):
        mine = list(range(e, len(urls), math.ceil(len(urls) / PAGES_PER_ENDPOINT)))
        web.routes[f"/e{len(urls)}-{e}/search"] = Route(handler=_answers(urls, mine))
        sources.append(f"searxng:{web.base}/e{len(urls)}-{e}")
    return sources


def _title(n: int) -> str:
    """Titles no two of which look alike to the near-copy rule, up to 468 pages: pages 12
    apart share their option, topic and angle, and differ in both nicknames."""
    first, second = NICKNAMES[(n + n // 156 * 7) % 39], NICKNAMES[(n // 12) % 39]
    return f"{OPTIONS[n % 2]} {TOPICS[n % 3]} {ANGLES[n % len(ANGLES)]}: {first} and {second} #{n}"


def _answers(urls: list[str], mine: list[int]):
    calls = itertools.count()

    def handle(query: dict[str, list[str]]) -> tuple[int, str, bytes]:
        start = next(calls) * HITS % len(mine)
        hits = [
            {
                "url": urls[n],
                "title": _title(n),
                "content": f"{OPTIONS[n % 2]} {TOPICS[n % 3]}: notes from page {n}",
                "publishedDate": "2026-06-01",
            }
            for n in (mine + mine)[start : start + HITS]
        ]
        return 200, "application/json", json.dumps({"results": hits}).encode()

    return handle


class ScaleBench:
    """Writes its table, a line at a time, through `write`."""

    def __init__(self, write: Callable[[str], Any]) -> None:
        self.write = write

    def run(self, sizes: Sequence[int] = SIZES) -> dict[str, float]:
        sizes = sorted(sizes)
        web = LocalWeb()
        urls = [web.add(f"/page/{n}", long_page(n, PAGE_CHARS)) for n in range(max(sizes))]
        web.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
        rows: list[dict[str, float]] = []
        web.start()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                for size in sizes:
                    sources = search_endpoints(web, urls[:size])
                    with self._configured(Path(tmp), size):
                        rows.append(self._timed_run(sources))
        finally:
            web.stop()
        return self._report(sizes, rows)

    def _configured(self, runs: Path, pages: int) -> override_settings:
        # The local web is on 127.0.0.1, which the fetcher refuses unless allowed.
        return override_settings(
            RUNS_DIR=runs,
            FETCH_ALLOWED_NETWORKS=[ipaddress.ip_network("127.0.0.1/32")],
            MAX_PAGES=pages,
            MAX_KEPT=pages,
            MAX_CANDIDATES=pages,
            LLM_BASE_URL="",
            LLM_MODEL="",
        )

    def _timed_run(self, sources: list[str]) -> dict[str, float]:
        run = services.create_run(
            Question(
                question=f"Choose between {OPTIONS[0]} and {OPTIONS[1]}",
                options=list(OPTIONS),
                dimensions=[{"name": t, "weight": 1.0} for t in TOPICS],
                sources=sources,
            )
        )
        row: dict[str, float] = {}
        forget_sentences()
        try:
            for stage in STAGES:
                started = time.process_time()
                execute_stage(run.run_id, stage)
                row[stage] = time.process_time() - started
            notes = store_for(run.run_id).read_json(NOTES)
            row["pages_ok"] = sum(1 for s in notes["sources"] if s["status"] == "OK")
            row["key_points"] = sum(len(s["key_points"]) for s in notes["sources"])
        finally:
            Run.objects.filter(pk=run.pk).delete()
        return row

    def _report(self, sizes: Sequence[int], rows: list[dict[str, float]]) -> dict[str, float]:
        self.write(
            f"bench --scale: CPU seconds per stage by pages read ({PAGE_CHARS:,} characters "
            "a page, a local web that answers at once)"
        )
        width = 12
        self.write(
            f"  {'pages':<{width}}" + "".join(f"{s:>9}" for s in sizes) + f"{'exponent':>11}"
        )
        self.write(f"  {'read OK':<{width}}" + "".join(f"{int(r['pages_ok']):>9}" for r in rows))
        self.write(
            f"  {'key points':<{width}}" + "".join(f"{int(r['key_points']):>9}" for r in rows)
        )
        exponents = {}
        for stage in STAGES:
            times = [r[stage] for r in rows]
            exponents[stage] = fitted_exponent(sizes, times)
            self.write(
                f"  {stage:<{width}}"
                + "".join(f"{t:>9.2f}" for t in times)
                + f"{exponents[stage]:>11.2f}"
            )
        over = [s for s in WATCHED if exponents[s] > TARGET]
        self.write(
            f"  filter and cross-validate {'within' if not over else 'OVER'} the "
            f"{TARGET} target exponent" + (f" ({', '.join(over)} over)" if over else "")
        )
        return exponents
