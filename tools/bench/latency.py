"""How close a run comes to the latency floor (`manage.py bench`, "latency floor").

Every request of a local web answers after the same latency: the searches, each robots.txt
and each page, on several hosts (127.0.0.2, 127.0.0.3, ...), as real pages are spread over
sites. The floor of each part is a number of round trips:

- retrieve: one search, when every sub-query of the plan is in flight at once;
- deep-read: one robots.txt and one page, when every page is in flight at once;
- the five stages: ten round trips is the budget (3 s at 300 ms);
- the command line: the whole `manage.py research` process, start-up and exit included.

Each figure is measured three times (`repeat`) and printed as min / median / max.
"""

from __future__ import annotations

import ipaddress
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import override_settings

from research import services
from research.artifacts import STAGES, Question
from research.models import Run
from research.names import NOTES
from research.providers.fetch import HttpFetcher
from research.providers.search import build_provider
from research.runs.execute import execute_stage
from research.store import store_for
from tools.bench.fresh import forget_sentences
from tools.bench.pages import OPTIONS, TOPICS, page_html, results
from tools.fakes.localweb import LocalWeb

ROUND_TRIPS = 10  # the five stages' budget, in round trips
MANAGE = Path(settings.BASE_DIR) / "manage.py"


@dataclass
class Figures:
    """Seconds per figure, one entry per repetition."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    pages_ok: list[int] = field(default_factory=list)
    searches: list[int] = field(default_factory=list)

    def add(self, name: str, value: float) -> None:
        self.seconds.setdefault(name, []).append(value)

    def spread(self, name: str, unit: float = 1.0) -> str:
        values = sorted(v / unit for v in self.seconds[name])
        low, mid, high = values[0], statistics.median(values), values[-1]
        if unit == 1.0:
            return f"{low * 1000:5.0f} / {mid * 1000:5.0f} / {high * 1000:5.0f} ms"
        return f"{low:4.2f} / {mid:4.2f} / {high:4.2f} x"


class SpreadWeb:
    """The searches on 127.0.0.1, the pages over `hosts` more hosts, all after `latency`."""

    def __init__(self, pages: int, hosts: int, latency: float) -> None:
        self.search = LocalWeb()
        self.sites = [LocalWeb(host=f"127.0.0.{2 + h}") for h in range(hosts)]
        self.urls = []
        for n in range(pages):
            site = self.sites[n % hosts]
            self.urls.append(site.add(f"/page/{n}", page_html(n), delay=latency))
        for site in self.sites:
            robots = "User-agent: *\nAllow: /\n"
            site.add("/robots.txt", robots, content_type="text/plain", delay=latency)
        self.search.add_searxng(lambda q: results(q, self.urls), delay=latency)

    @property
    def source(self) -> str:
        return f"searxng:{self.search.base}"

    def __enter__(self) -> SpreadWeb:
        for web in (self.search, *self.sites):
            web.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for web in (self.search, *self.sites):
            web.stop()


class LatencyBench:
    """Writes its figures, a line at a time, through `write`."""

    def __init__(self, write: Callable[[str], Any]) -> None:
        self.write = write

    def run(self, pages: int, hosts: int, latency: float, repeat: int = 3) -> Figures:
        figures = Figures()
        with SpreadWeb(pages, hosts, latency) as web, tempfile.TemporaryDirectory() as tmp:
            limits = _limits(pages)
            with self._configured(Path(tmp) / "runs", limits):
                self._warm_up(web)
                cli = _Cli(Path(tmp), web.source, limits)
                for _ in range(repeat):
                    self._measure(web, figures)
                    cli.measure(figures)
            self._report(pages, hosts, latency, figures)
        return figures

    def _configured(self, runs: Path, limits: dict[str, int]) -> override_settings:
        return override_settings(
            RUNS_DIR=runs, FETCH_ALLOWED_NETWORKS=[ipaddress.ip_network("127.0.0.0/8")], **limits
        )

    def _warm_up(self, web: SpreadWeb) -> None:
        # A worker has paid its one-off costs (imports, the CA bundle) before its first run.
        self._stages(web.source)

    def _measure(self, web: SpreadWeb, figures: Figures) -> None:
        started = time.perf_counter()
        build_provider(web.source).search(f"{OPTIONS[0]} {TOPICS[0]}", 20)
        figures.add("search", time.perf_counter() - started)
        started = time.perf_counter()
        HttpFetcher.from_settings().fetch(web.urls[0])  # a new fetcher: robots.txt, then page
        figures.add("chain", time.perf_counter() - started)
        forget_sentences()
        cpu = time.process_time()
        timings, searches, pages_ok = self._stages(web.source)
        figures.add("stages_cpu", time.process_time() - cpu)
        for stage, seconds in timings.items():
            figures.add(stage, seconds)
        figures.add("stages", sum(timings.values()))
        figures.searches.append(searches)
        figures.pages_ok.append(pages_ok)

    def _stages(self, source: str) -> tuple[dict[str, float], int, int]:
        run = services.create_run(_question(source))
        timings = {}
        try:
            for stage in STAGES:
                started = time.perf_counter()
                execute_stage(run.run_id, stage)
                timings[stage] = time.perf_counter() - started
            store = store_for(run.run_id)
            searches = len(store.read_json("round_1_candidates.json")["provider_calls"])
            pages_ok = sum(1 for s in store.read_json(NOTES)["sources"] if s["status"] == "OK")
        finally:
            Run.objects.filter(pk=run.pk).delete()
        return timings, searches, pages_ok

    def _report(self, pages: int, hosts: int, latency: float, figures: Figures) -> None:
        runs = len(figures.seconds["stages"])
        self.write(
            f"latency floor: {latency * 1000:.0f} ms a request, {pages} pages on {hosts} hosts, "
            f"{figures.searches[0]} searches a run, pages read OK {figures.pages_ok}; "
            f"min / median / max of {runs}"
        )
        rows = (
            ("one search", "search", None),
            ("one robots + page chain", "chain", None),
            ("retrieve", "retrieve", ("search", "one search")),
            ("deep-read", "deepread", ("chain", "one robots + page chain")),
        )
        for label, name, against in rows:
            line = f"  {label:<24} {figures.spread(name)}"
            if against:
                ratios = [
                    a / b
                    for a, b in zip(figures.seconds[name], figures.seconds[against[0]], strict=True)
                ]
                figures.seconds[f"{name}/"] = ratios
                line += f" = {_ratio(ratios)} {against[1]}"
            self.write(line)
        for stage in ("filter", "crosscheck", "decide"):
            self.write(f"  {stage:<24} {figures.spread(stage)}")
        figures.seconds["stages/"] = [
            s / (ROUND_TRIPS * latency) for s in figures.seconds["stages"]
        ]
        self.write(
            f"  {'five stages':<24} {figures.spread('stages')} = "
            f"{_ratio(figures.seconds['stages/'])} {ROUND_TRIPS} round trips"
        )
        self.write(
            f"  {'five stages, CPU time':<24} {figures.spread('stages_cpu')} (this process, "
            "every thread: what no concurrency hides; pages are extracted in "
            f"{settings.EXTRACT_PROCESSES or 'no'} process(es) of their own)"
        )
        for label, name in (
            ("CLI start-up", "cli_start"),
            ("CLI five stages", "cli_stages"),
            ("CLI exit", "cli_exit"),
            ("CLI whole process", "cli_whole"),
            ("CLI research --help", "cli_help"),
        ):
            self.write(f"  {label:<24} {figures.spread(name)}")


def _ratio(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{ordered[0]:4.2f} / {statistics.median(ordered):4.2f} / {ordered[-1]:4.2f} x"


def _limits(pages: int) -> dict[str, int]:
    return {
        "MAX_PAGES": pages,
        "MAX_KEPT": max(pages, settings.MAX_KEPT),
        "MAX_CANDIDATES": max(pages, settings.MAX_CANDIDATES),
    }


def _question(source: str) -> Question:
    return Question(
        question=f"Choose between {OPTIONS[0]} and {OPTIONS[1]}",
        options=list(OPTIONS),
        dimensions=[{"name": t, "weight": 1.0} for t in TOPICS],
        sources=[source],
    )


class _Cli:
    """`manage.py research` in a process of its own, on a database and runs folder of its own."""

    def __init__(self, tmp: Path, source: str, limits: dict[str, int]) -> None:
        self.source = source
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LLM_")},
            "DATABASE_URL": f"sqlite:///{tmp / 'cli.sqlite3'}",
            "RUNS_DIR": str(tmp / "cli-runs"),
            "SECRET_KEY": "bench-only-secret-key-not-for-serving-anything",
            "FETCH_ALLOWED_NETWORKS": "127.0.0.0/8",
            "DEFAULT_SOURCES": "",
            # Each line as a terminal would see it, so the exit is timed from the last one.
            "PYTHONUNBUFFERED": "1",
            **{k: str(v) for k, v in limits.items()},
        }
        for command in (["migrate", "--noinput"], ["ensure_admin"]):
            subprocess.run(
                [sys.executable, str(MANAGE), *command],
                env=self.env,
                check=True,
                capture_output=True,
            )

    def measure(self, figures: Figures) -> None:
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, str(MANAGE), "research", "--help"],
            env=self.env,
            check=True,
            capture_output=True,
        )
        figures.add("cli_help", time.perf_counter() - started)
        wall_start = time.time()
        started = time.perf_counter()
        lines = list(self._lines())
        whole = time.perf_counter() - started
        last_line = lines[-1][0]
        run_folder = next(line.split(": ", 1)[1] for _, line in lines if line.startswith("Run "))
        stages = store_index_stages(Path(run_folder.strip()))
        first = _epoch(stages[STAGES[0]]["started"]) - wall_start
        last = _epoch(stages[STAGES[-1]]["finished"]) - wall_start
        figures.add("cli_start", first)
        figures.add("cli_stages", last - first)
        figures.add("cli_exit", whole - last_line)
        figures.add("cli_whole", whole)

    def _lines(self) -> Iterator[tuple[float, str]]:
        """Each line of the command's output, with when it arrived."""
        started = time.perf_counter()
        with _process(
            [
                sys.executable,
                str(MANAGE),
                "research",
                f"Choose between {OPTIONS[0]} and {OPTIONS[1]}",
                *(f"--dimension={t}:1" for t in TOPICS),
                f"--source={self.source}",
            ],
            self.env,
        ) as process:
            assert process.stdout is not None
            for line in process.stdout:
                yield time.perf_counter() - started, line.rstrip("\n")


@contextmanager
def _process(argv: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        yield process
    finally:
        process.wait()
    if process.returncode != 0:
        raise RuntimeError(f"manage.py research exited with {process.returncode}")


def store_index_stages(folder: Path) -> dict[str, dict[str, Any]]:
    return json.loads((folder / "index.json").read_text(encoding="utf-8"))["stages"]


def _epoch(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()
