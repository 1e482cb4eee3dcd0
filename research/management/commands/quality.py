"""`python manage.py quality`: how well Verdict tells agreement from contradiction, and
whether every quote in its reports can be found in the source it cites.

The measures live in tools/quality, outside the product, and are imported only here, when
the command runs."""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import override_settings

from research.models import Run
from research.store import StoreError, store_for
from research.store.backends import runs_root

FIXTURES = Path(settings.BASE_DIR) / "tests" / "fixtures"
PAIR_SETS = [FIXTURES / "claim_pairs.jsonl", FIXTURES / "claim_pairs_holdout.jsonl"]
QUESTIONS = [
    (
        "For our team's local-first notes app, choose between Quillsync, Loamdb and Tessera",
        ["licence risk:0.4", "maintenance activity:0.35", "customisation cost:0.25"],
        "notes_en",
    ),
    ("青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？", [], "notes_zh"),
]


class Command(BaseCommand):
    help = "Measure contradiction detection and report quote verification."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--pairs",
            action="append",
            metavar="JSONL",
            help="labelled pairs (repeat); default: the development and "
            "the second (later-written) set in tests/fixtures",
        )
        parser.add_argument("--misses", action="store_true", help="list every miss")
        parser.add_argument(
            "--corpus",
            metavar="DIR",
            help="instead: run every topic of a labelled corpus (devcorpus format) through "
            "the pipeline and score facts surfaced and contradictions flagged",
        )
        parser.add_argument(
            "--topic", action="append", default=[], help="with --corpus: only this topic"
        )
        parser.add_argument(
            "--develop",
            metavar="TOPICS",
            help="with --corpus: the topics the reader is developed on (comma-separated); "
            "their figures are printed beside --check's, and --misses lists only theirs",
        )
        parser.add_argument(
            "--check",
            metavar="TOPICS",
            help="with --corpus: the topics kept for checking that a change carries to pages "
            "it was not made from (comma-separated); their misses are never listed",
        )
        parser.add_argument(
            "--llm-stub",
            choices=["perfect"],
            help="with --corpus: run in LLM mode against a model stub on 127.0.0.1; "
            "'perfect' reads every sentence as the topic's labels (stances.jsonl) do",
        )
        parser.add_argument(
            "--llm-delay",
            type=float,
            default=0.0,
            metavar="SECONDS",
            help="with --llm-stub: each model call takes this long; the model round trips "
            "of each run are printed",
        )
        parser.add_argument("--json", metavar="FILE", help="with --corpus: also write JSON")
        parser.add_argument(
            "--corrections",
            metavar="RUN_ID",
            help="instead: print a run's corrections of the reader as labelled sentences, "
            "one JSON line each, in the development corpus's stances.jsonl format",
        )
        parser.add_argument(
            "--out", metavar="FILE", help="with --corrections: write the lines to FILE"
        )
        parser.add_argument(
            "--runs-dir",
            metavar="DIR",
            help="with --corpus: keep the run folders here (default: a temporary folder)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts.get("corrections"):
            self._corrections(opts["corrections"], opts.get("out"))
            return
        if opts["corpus"]:
            from tools.quality.corpus_runner import CorpusRunner

            CorpusRunner(self, opts).run()
            return
        for pairs in opts["pairs"] or [str(p) for p in PAIR_SETS]:
            self._pair_figures(Path(pairs), opts["misses"])
        self.stdout.write("Report quotes verified against stored sources:")
        # Measured in a throwaway folder, wherever the deployment keeps its runs.
        temporary = tempfile.TemporaryDirectory()
        with temporary as tmp, override_settings(RUNS_DIR=Path(tmp), RUNS_STORE=""):
            for question, dims, corpus in QUESTIONS:
                self._report_figures(question, dims, corpus)

    def _corrections(self, run_id: str, out: str | None) -> None:
        from tools.quality.corrections import stance_lines

        try:
            store = store_for(run_id)
            lines = stance_lines(store) if store.exists() else None
        except StoreError as exc:
            raise CommandError(str(exc)) from exc
        if lines is None:
            raise CommandError(f"no run {run_id!r} in {runs_root().location}")
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        if out:
            Path(out).write_text(text, encoding="utf-8")
            self.stdout.write(f"{len(lines)} corrected sentence(s) written to {out}")
        else:
            self.stdout.write(text, ending="")

    def _pair_figures(self, pairs: Path, misses: bool) -> None:
        for finder, sentences in (("typed facts", False), ("whole sentences", True)):
            self.stdout.write(f"Contradiction detection ({finder}) on {pairs.name}:")
            self._pair_rows(pairs, misses, sentences)

    def _pair_rows(self, pairs: Path, misses: bool, sentences: bool) -> None:
        from tools.quality.pairs import evaluate

        for label, lang in (("all", None), ("English", "en"), ("Chinese", "zh")):
            s = evaluate(pairs, lang, sentences)
            self.stdout.write(
                f"  {label:<8} pairs {s.tp + s.fp + s.fn + s.tn:3d} | precision "
                f"{s.precision:.2f} | recall {s.recall:.2f} | "
                f"tp {s.tp} fp {s.fp} fn {s.fn} tn {s.tn}"
            )
            if misses and lang is None:
                for miss in s.misses:
                    self.stdout.write(f"    {miss}")

    def _report_figures(self, question: str, dims: list[str], corpus: str) -> None:
        from tools.quality.corpus_runner import measuring_account
        from tools.quality.pairs import report_quotes

        before = set(Run.objects.values_list("pk", flat=True))
        call_command(
            "research",
            question,
            *[f"--dimension={d}" for d in dims],
            f"--source=local:{FIXTURES / 'corpus' / corpus}",
            f"--user={measuring_account()}",
            stdout=io.StringIO(),
        )
        run = Run.objects.exclude(pk__in=before).get()
        try:
            verified, total = report_quotes(settings.RUNS_DIR / run.run_id)
        finally:
            run.delete()
        share = verified / total if total else 0.0
        self.stdout.write(f"  {corpus:<9} {verified}/{total} quotes found verbatim ({share:.0%})")
