"""`python manage.py bench`: time retrieve, filter and deep-read over a generated local web.

The pages and a SearXNG-style search endpoint answer after an injected latency, so the
figures that matter are wall times as multiples of one call's latency: deep-read's against
one page's latency (near 1x with parallel fetches, N x for a sequential reader), and
retrieve's against one search's latency (about ceil(sub-queries / searches in flight) x,
where one search at a time takes one x per sub-query).

First, the latency floor (tools.bench.latency): every request of a local web spread over
several hosts takes --latency, and it prints retrieve against one search, deep-read against
one robots.txt + page chain, the five stages against ten round trips, and the whole
`manage.py research` process (start-up, stages, exit), min / median / max of --floor-runs.

Then it submits `--queued` runs (20) at once to `--workers` real Celery worker processes (2)
through a Redis of its own, and prints when the first, the median and the last of them
finished, counted from their submission (tools.bench.queued_runs).

`python manage.py bench --scale`: one run of all five stages at each of 30, 60, 120 and 240
pages, each stage's CPU time, and the exponent of its growth fitted by least squares on
log time against log pages (tools.bench.scale); filter and cross-validate should stay near
linear (at most 1.2).

`python manage.py bench --chord [PAGES]`: deep-read of one run of PAGES pages (120) of
30,000 characters over a local web, as one task, then split into parts (a Celery chord) on
1, 2 and 3 worker processes (`--chord-workers`), with each time and its speed-up against
one worker (tools.bench.chord).

`python manage.py bench --llm`: model tokens per stage and per run (tools.bench.model_tokens)
for whole runs in LLM mode against the stub endpoint, with the configured limits (by default
50 candidates, 30 kept, 30 pages, 30,000 characters, as without a model): over the English
and Chinese notes corpora the tests use, and over a local web of full-length pages that
fills the limits.

`python manage.py bench --questions`: the time to read a question (its options and
dimensions) at 1, 4 and 16 times the longest question allowed, on text shaped to be read
slowly, and each as a multiple of the first (tools.bench.question_reading): every figure
should stay near its multiple of length, never its square.

The harnesses live in tools/bench, outside the product, and are imported only here, when
the command runs.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Benchmark the first three stages over a local web with injected latency."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--llm",
            action="store_true",
            help="instead: count model tokens per stage and per run in LLM mode, against "
            "a stub endpoint on 127.0.0.1",
        )
        parser.add_argument(
            "--scale",
            nargs="*",
            type=int,
            default=None,
            metavar="PAGES",
            help="instead: time every stage at each number of pages (default 30 60 120 240) "
            "and fit each stage's growth exponent",
        )
        parser.add_argument(
            "--chord",
            nargs="?",
            type=int,
            const=120,
            default=None,
            metavar="PAGES",
            help="instead: time deep-read of one run of PAGES pages (default 120) as one task, "
            "then spread over 1, 2 and 3 worker processes",
        )
        parser.add_argument(
            "--chord-workers",
            nargs="+",
            type=int,
            default=[1, 2, 3],
            metavar="N",
            help="the numbers of worker processes --chord times (default 1 2 3)",
        )
        parser.add_argument(
            "--questions",
            nargs="*",
            type=int,
            default=None,
            metavar="MULTIPLE",
            help="instead: time reading hostile questions at each multiple of the longest "
            "question allowed (default 1 4 16)",
        )
        parser.add_argument(
            "--fairness",
            action="store_true",
            help="instead: time the sign-in page while another user makes ten heavy MCP "
            "calls at once, with the text work in threads and then in processes",
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
        parser.add_argument(
            "--floor-runs",
            type=int,
            default=3,
            metavar="N",
            help="time the five stages and the command line N times over a local web where "
            "every request takes --latency, and print min / median / max (default 3; 0 "
            "skips it)",
        )
        parser.add_argument(
            "--floor-pages", type=int, default=24, help="pages read in the latency-floor runs"
        )
        parser.add_argument(
            "--floor-only",
            action="store_true",
            help="time the latency floor only, not the stages over --pages nor queued runs",
        )
        parser.add_argument(
            "--hosts", type=int, default=6, help="hosts the latency-floor pages are spread over"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["questions"] is not None:
            from tools.bench.question_reading import MULTIPLES, QuestionReadingBench

            multiples = opts["questions"] or MULTIPLES
            if min(multiples) < 1:
                raise CommandError("--questions needs multiples of 1 or more")
            QuestionReadingBench(self.stdout.write).run(multiples)
            return
        if opts["fairness"]:
            from tools.bench.fairness import FairnessBench

            FairnessBench(self.stdout.write).run()
            return
        if opts["llm"]:
            from tools.bench.model_tokens import bench_tokens

            bench_tokens(self.stdout.write)
            return
        if opts["chord"] is not None:
            from tools.bench.chord import ChordBench

            if opts["chord"] < 2 or min(opts["chord_workers"]) < 1:
                raise CommandError("--chord needs at least 2 pages and --chord-workers at least 1")
            ChordBench(self.stdout.write).run(opts["chord"], opts["chord_workers"])
            return
        if opts["scale"] is not None:
            from tools.bench.scale import SIZES, ScaleBench

            sizes = opts["scale"] or SIZES
            if len(set(sizes)) < 2 or min(sizes) < 1:
                raise CommandError("--scale needs at least two different page counts above 0")
            ScaleBench(self.stdout.write).run(sizes)
            return
        from tools.bench.latency import LatencyBench
        from tools.bench.stage_times import StageBench

        if opts["floor_runs"] > 0:
            LatencyBench(self.stdout.write).run(
                opts["floor_pages"], opts["hosts"], opts["latency"], opts["floor_runs"]
            )
        if opts["floor_only"]:
            return
        StageBench(self.stdout.write).run(
            opts["pages"], opts["latency"], opts["search_latency"], opts["queued"], opts["workers"]
        )
