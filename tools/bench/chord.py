"""Deep-read of one large run spread over worker processes (`manage.py bench --chord N`).

One run of N pages (120 by default) over a local web that answers at once: pages of
30,000 characters, the most a page is read to by default, so that reading them (extracting
the main text and scoring every sentence) is what takes the time. Retrieve and filter run
here; deep-read runs on real Celery workers: first as one task on one worker (not split),
then split into parts (a chord) on 1, 2 and 3 worker processes. Each figure is deep-read's
wall time from the moment it is queued, the workers up and idle, to its end, beside the CPU
seconds the workers spent meanwhile: their ratio is how many cores were busy reading. On a
machine with fewer free cores than workers, the time stops falling at the number of cores.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.test import override_settings

from research import services
from research.artifacts import Question
from research.models import Run
from research.runs import tasks
from research.runs.execute import execute_stage
from research.store import store_for
from tools.bench.pages import OPTIONS, TOPICS, long_page
from tools.bench.queued_runs import _broker, _start_worker, _wait
from tools.bench.scale import search_endpoints
from tools.fakes.localweb import LocalWeb

PAGES = 120
WORKERS = (1, 2, 3)
PAGE_CHARS = 30_000
PARTS = 12  # parts per run: enough for three workers to share out evenly
TIMEOUT = 1800.0


class ChordBench:
    """Writes its table, a line at a time, through `write`."""

    def __init__(self, write: Callable[[str], Any]) -> None:
        self.write = write

    def run(self, pages: int = PAGES, workers: Sequence[int] = WORKERS) -> dict[str, float]:
        web = LocalWeb()
        urls = [web.add(f"/page/{n}", long_page(n, PAGE_CHARS)) for n in range(pages)]
        web.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
        part_pages = max(1, -(-pages // PARTS))
        self.write(
            f"bench --chord: deep-read of one run of {pages} pages of {PAGE_CHARS:,} "
            f"characters, split into parts of {part_pages} pages"
        )
        figures: dict[str, float] = {}
        web.start()
        try:
            with tempfile.TemporaryDirectory() as tmp, _broker(Path(tmp)) as url:
                runs = Path(tmp) / "runs"
                runs.mkdir()
                sources = search_endpoints(web, urls)
                # (label, workers, DEEPREAD_SPLIT_PAGES): not split, then split at once.
                plans = [("one task", 1, pages)]
                plans += [(f"{n} worker{'s' if n > 1 else ''}", n, 1) for n in workers]
                for label, count, split in plans:
                    env = {
                        "REDIS_URL": url,
                        "RUNS_DIR": str(runs),
                        "DEEPREAD_SPLIT_PAGES": str(split),
                        "DEEPREAD_PART_PAGES": str(part_pages),
                    }
                    with self._configured(runs, pages):
                        run = self._filtered_run(sources)
                        try:
                            logs = Path(tmp) / label.replace(" ", "-")
                            with _workers(env, count, logs) as pids:
                                row = self._deep_read(run, pids)
                        finally:
                            Run.objects.filter(pk=run.pk).delete()
                    figures[label] = row["wall"]
                    self._line(label, row, figures)
        finally:
            web.stop()
        return figures

    def _configured(self, runs: Path, pages: int) -> override_settings:
        return override_settings(
            RUNS_DIR=runs,
            FETCH_ALLOWED_NETWORKS=[ipaddress.ip_network("127.0.0.1/32")],
            MAX_PAGES=pages,
            MAX_KEPT=pages,
            MAX_CANDIDATES=pages,
            MAX_PAGE_CHARS=PAGE_CHARS,
            LLM_BASE_URL="",
            LLM_MODEL="",
            CELERY_TASK_ALWAYS_EAGER=False,
        )

    def _filtered_run(self, sources: list[str]) -> Run:
        run = services.create_run(
            Question(
                question=f"Choose between {OPTIONS[0]} and {OPTIONS[1]}",
                options=list(OPTIONS),
                dimensions=[{"name": t, "weight": 1.0} for t in TOPICS],
                sources=sources,
            )
        )
        for stage in ("retrieve", "filter"):
            execute_stage(run.run_id, stage)
        return run

    def _deep_read(self, run: Run, pids: list[int]) -> dict[str, float]:
        """Deep-read's wall time from the moment it is queued (the workers idle) to its
        end, and the CPU seconds the workers spent meanwhile."""
        store = store_for(run.run_id)
        cpu = sum(_cpu_seconds(pid) for pid in pids)
        queued = time.monotonic()
        tasks.enqueue(run.run_id, "deepread")

        def done() -> bool:
            entry = store.index()["stages"]["deepread"]
            if entry["status"] == "failed":
                raise RuntimeError(f"deep-read failed: {entry.get('error')}")
            return entry["status"] == "done"

        _wait_long(done)
        wall = time.monotonic() - queued
        cpu = sum(_cpu_seconds(pid) for pid in pids) - cpu
        entry = store.index()["stages"]["deepread"]
        notes = store.read_json("round_3_notes.json")
        return {
            "wall": wall,
            "cpu": cpu,
            "parts": len((entry.get("parts") or {}).get("shares") or [None]),
            "ok": sum(1 for s in notes["sources"] if s["status"] == "OK"),
        }

    def _line(self, label: str, row: dict[str, float], figures: dict[str, float]) -> None:
        base = figures.get("1 worker") or figures["one task"]
        self.write(
            f"  {label:<10} {row['wall']:6.1f} s deep-read | {row['cpu']:6.1f} CPU s in the "
            f"workers ({row['cpu'] / row['wall']:4.2f} cores busy) | {int(row['parts']):>2} "
            f"part(s) | {int(row['ok'])} pages read | {base / row['wall']:4.2f} x the speed "
            "of 1 worker"
        )


@contextmanager
def _workers(extra: dict[str, str], count: int, logs: Path) -> Iterator[list[int]]:
    """`count` worker processes, up and idle; killed afterwards, whatever stage their run
    is in (the bench times deep-read alone)."""
    from django.conf import settings

    logs.mkdir()
    env = {
        **os.environ,
        **extra,
        "DATABASE_URL": f"sqlite:///{settings.DATABASES['default']['NAME']}",
        "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32",
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    procs = [_start_worker(n, env, logs) for n in range(count)]
    try:
        for n in range(count):
            log = logs / f"worker{n}.log"
            _wait(lambda log=log: " ready." in log.read_text(errors="replace"), "a worker")
        yield [proc.pid for proc in procs]
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(20)


def _wait_long(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"deep-read still going after {TIMEOUT:.0f} s")
        time.sleep(0.1)


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a worker process so far (a solo pool: it runs the
    tasks itself)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
