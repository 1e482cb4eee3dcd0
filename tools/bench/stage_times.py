"""Times retrieve, filter and deep-read over a generated local web whose pages and search
API answer after an injected latency (`manage.py bench`), then, with --queued, runs
submitted at once to real workers (tools.bench.queued_runs)."""

from __future__ import annotations

import ipaddress
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import override_settings

from research import services
from research.artifacts import Question
from research.models import Run
from research.names import CANDIDATES, NOTES
from research.runs.execute import execute_stage
from research.store import store_for
from tools.bench import queued_runs
from tools.bench.pages import OPTIONS, TOPICS, page_html, page_title
from tools.fakes.localweb import LocalWeb


class StageBench:
    """Writes its figures, a line at a time, through `write`."""

    def __init__(self, write: Callable[[str], Any]) -> None:
        self.write = write

    def run(
        self, pages: int, latency: float, search_latency: float | None, queued: int, workers: int
    ) -> None:
        search_latency = latency if search_latency is None else search_latency
        in_flight = (settings.FETCH_CONCURRENCY, settings.SEARCH_CONCURRENCY)
        web = self._web(pages, latency, search_latency).start()
        try:
            with tempfile.TemporaryDirectory() as tmp, self._configured(Path(tmp), pages):
                # A worker pays one-off costs (CA bundle, imports) once, not per run; a
                # discarded first run keeps them out of the figures.
                self._time_run(web, in_flight)
                parallel = self._time_run(web, in_flight)
                sequential = self._time_run(web, (1, 1))
            self._report(pages, latency, in_flight[0], parallel, sequential)
            self._report_retrieve(search_latency, in_flight[1], parallel, sequential)
            if queued > 0:
                self._queued(web, pages, queued, workers)
        finally:
            web.stop()

    def _queued(self, web: LocalWeb, pages: int, runs: int, workers: int) -> None:
        limits = {
            "MAX_PAGES": str(pages),
            "MAX_KEPT": str(max(pages, settings.MAX_KEPT)),
            "MAX_CANDIDATES": str(max(pages, settings.MAX_CANDIDATES)),
        }
        figures = queued_runs.measure(f"searxng:{web.base}", runs, workers, limits)
        self.write(figures.line())

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
            Question(
                question=f"Choose between {OPTIONS[0]} and {OPTIONS[1]}",
                options=list(OPTIONS),
                dimensions=[{"name": t, "weight": 1.0} for t in TOPICS],
                sources=[f"searxng:{web.base}"],
            )
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
        self.write(
            f"bench: {pages} pages, {latency * 1000:.0f} ms latency each, "
            f"{workers} parallel fetches"
        )
        for label, t in (("parallel", parallel), ("sequential (1 worker)", sequential)):
            self.write(
                f"  {label:<22} retrieve {t['retrieve'] * 1000:7.0f} ms | filter "
                f"{t['filter'] * 1000:6.0f} ms | deep-read {t['deepread'] * 1000:7.0f} ms "
                f"= {t['deepread'] / latency:4.2f} x page latency | pages OK {t['pages_ok']}"
            )
        self.write(
            f"  deep-read speed-up from parallel fetching: "
            f"{sequential['deepread'] / parallel['deepread']:.1f}x"
        )

    def _report_retrieve(
        self, search_latency: float, workers: int, parallel: dict, sequential: dict
    ) -> None:
        self.write(
            f"  retrieve: {parallel['searches']} searches, {search_latency * 1000:.0f} ms "
            f"latency each | {workers or 'all'} in flight per provider: "
            f"{parallel['retrieve'] / search_latency:4.2f} x search latency | one at a time: "
            f"{sequential['retrieve'] / search_latency:4.2f} x"
        )


def _searches(run_id: str) -> int:
    candidates = store_for(run_id).read_json(CANDIDATES)
    return len(candidates["provider_calls"])
