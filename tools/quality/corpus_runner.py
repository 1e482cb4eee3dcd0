"""Runs each topic of a labelled corpus through the real pipeline and prints its scores
(`python manage.py quality --corpus DIR`)."""

from __future__ import annotations

import io
import json
import re
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.test import override_settings

from research.models import Run
from research.names import CROSSCHECK
from research.selectors import analysis_of
from research.store import INDEX
from tools.fakes.llm_stub import LLMStub
from tools.fakes.perfect_reader import perfect_stub, round_trips
from tools.quality.corpus import FUNNEL, RunArtifacts, TopicScore, load_truth, score_run, topics
from tools.quality.judgement import (
    WRONG_KINDS,
    Judgement,
    judge_run,
    load_labels,
    scored_claims,
    share,
)

# The research command's first line names its run; other processes may add runs meanwhile.
_RUN_LINE = re.compile(r"^Run (\S+): ", re.M)


class CorpusRunner:
    def __init__(self, command: BaseCommand, opts: dict[str, Any]) -> None:
        self.out = command.stdout
        self.corpus = Path(opts["corpus"]).resolve()
        self.split = _split(opts.get("develop"), opts.get("check"))
        self.only = (
            set(opts["topic"])
            | set(self.split.get("develop", ()))
            | set(self.split.get("check", ()))
        )
        self.json_path = opts.get("json")
        self.runs_dir = opts.get("runs_dir")
        self.misses = opts.get("misses", False)
        self.llm_stub = opts.get("llm_stub")
        self.llm_delay = float(opts.get("llm_delay") or 0.0)
        self.readers: dict[str, dict[str, Any]] = {}  # topic -> who read its scored claims

    def run(self) -> list[TopicScore]:
        chosen = self._topics()
        with ExitStack() as stack:
            runs = (
                Path(self.runs_dir)
                if self.runs_dir
                else Path(stack.enter_context(tempfile.TemporaryDirectory()))
            )
            runs.mkdir(parents=True, exist_ok=True)
            stack.enter_context(override_settings(RUNS_DIR=runs, RUNS_STORE=""))  # read as folders
            scores = [self._score_topic(topic) for topic in chosen]
        self._print(scores)
        self._print_split(scores)
        if self.json_path:
            summary = _summary(scores)
            if self.split:
                summary["split"] = {
                    part: _total([s for s in scores if s.topic in names]).as_dict()
                    | {"topics": sorted(names)}
                    for part, names in self.split.items()
                }
            if self.llm_stub:
                summary["readers"] = self.readers
            Path(self.json_path).write_text(
                json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
            )
            self.out.write(f"Figures written to {self.json_path}")
        return scores

    def _topics(self) -> list[Path]:
        if not self.corpus.is_dir():
            raise CommandError(f"no corpus folder at {self.corpus}")
        available = topics(self.corpus)
        if not available:
            raise CommandError(f"{self.corpus} has no topic folders with truth.json and pages/")
        unknown = self.only - {t.name for t in available}
        if unknown:
            raise CommandError(
                f"no topic {', '.join(sorted(unknown))} in {self.corpus}; "
                f"its topics: {', '.join(t.name for t in available)}"
            )
        return [t for t in available if not self.only or t.name in self.only]

    def _score_topic(self, topic: Path) -> TopicScore:
        truth = load_truth(topic)
        out = io.StringIO()
        with ExitStack() as stack:
            stub = stack.enter_context(self._model(topic))
            started = time.monotonic()
            call_command(
                "research",
                truth["question"],
                *[f"--option={o}" for o in truth["options"]],
                *[f"--dimension={d}:1" for d in truth["dimensions"]],
                f"--source=local:{topic / 'pages'}",
                f"--user={measuring_account()}",
                stdout=out,
            )
            seconds = time.monotonic() - started
        run = Run.objects.get(run_id=_run_id(out.getvalue()))
        folder = Path(settings.RUNS_DIR) / run.run_id
        score = score_run(topic.name, truth, RunArtifacts.load(folder))
        labels = load_labels(topic)
        if labels is not None:
            score.judgement = judge_run(topic.name, folder, labels).as_dict()
        score.seconds = round(seconds, 2)
        analysis = analysis_of(json.loads((folder / INDEX).read_text(encoding="utf-8")))
        score.tokens, score.mode, score.model = analysis.total, analysis.mode, analysis.model
        self.readers[topic.name] = readers_of(folder) | model_calls(stub, self.llm_delay)
        if not self.runs_dir:
            run.delete()
        else:
            self.out.write(f"{topic.name}: run folder {folder}")
        return score

    @contextmanager
    def _model(self, topic: Path) -> Iterator[LLMStub | None]:
        """LLM mode against a stub for the topic's run, when asked for."""
        if not self.llm_stub:
            yield None
            return
        stub = perfect_stub(topic, self.llm_delay)
        try:
            with override_settings(
                LLM_BASE_URL=stub.base_url,
                LLM_MODEL=f"{self.llm_stub}-reader-stub",
                LLM_API_KEY="",
                LLM_STAGE_MODELS={},
            ):
                yield stub
        finally:
            stub.stop()

    def _print_readers(self, scores: list[TopicScore]) -> None:
        """Who read the scored claims (the model, or the rules: typed facts and stances),
        and in LLM mode the model's calls and round trips."""
        if not self.readers:
            return
        w = self.out.write
        w(
            f"{'topic':<12} {'scored':>7} {'by model':>9} {'rules facts':>12} "
            f"{'rules stances':>14} {'calls':>6} {'round trips':>12} {'secs':>6}"
        )
        for s in scores:
            r = self.readers.get(s.topic)
            if r is None:
                continue
            trips = f"{r['round_trips']:.1f}" if self.llm_delay else "-"
            w(
                f"{s.topic:<12} {r['scored']:>7} {share(r['model'], r['scored']):>9} "
                f"{r['rules_facts']:>12} {r['rules_stances']:>14} {r['calls']:>6} "
                f"{trips:>12} {s.seconds:>6.1f}"
            )
        if self.llm_delay:
            w(f"round trips: time waiting on the model over one call's {self.llm_delay}s")

    def _print(self, scores: list[TopicScore]) -> None:
        w = self.out.write
        w(
            f"{'topic':<12} {'facts':>7} {'contra':>7}  "
            + " ".join(f"{f:>9}" for f in FUNNEL)
            + f"  {'quotes':>9} {'conf':>5} {'secs':>6} {'tokens':>7}"
        )
        for s in [*scores, _total(scores)]:
            funnel = " ".join(f"{_share(s.funnel[f], s.facts):>9}" for f in FUNNEL)
            conf = "-" if s.confidence is None else f"{s.confidence:.0f}"
            w(
                f"{s.topic:<12} {s.facts_surfaced:>3}/{s.facts:<3} "
                f"{s.contradictions_flagged:>3}/{s.contradictions:<3}  {funnel}  "
                f"{_share(s.quotes_verified, s.quotes_total):>9} {conf:>5} {s.seconds:>6.1f} "
                f"{s.tokens:>7}"
            )
        w(
            "funnel: share of facts whose page was a candidate, kept, read OK, "
            "surfaced as a key point, used by a claim"
        )
        w(_mode_line(scores))
        self._print_readers(scores)
        self._print_judgement(scores)
        if self.misses:
            hidden = set(self.split.get("check", ()))
            if hidden:
                w(f"misses of the check topics are not listed: {', '.join(sorted(hidden))}")
            for s in scores:
                if s.topic in hidden:
                    continue
                for miss in s.missed_facts:
                    w(f"  {s.topic} missed fact: {miss}")
                for miss in s.missed_contradictions:
                    w(f"  {s.topic} missed contradiction: {miss}")
                judged = s.judgement or {}
                for line in judged.get("wrong_claims", []):
                    w(f"  {s.topic} {line}")
                for line in judged.get("missed_stances", []):
                    w(f"  {s.topic} missed stance: {line}")
                for line in judged.get("false_contradictions", []):
                    w(f"  {s.topic} not a real contradiction: {line}")

    def _print_split(self, scores: list[TopicScore]) -> None:
        """The develop and check topics' figures side by side: the check figure is the one
        that says whether a change carries to pages it was not made from."""
        if not self.split:
            return
        w = self.out.write
        w(
            f"{'split':<8} {'topics':>6} {'facts':>13} {'truth contra':>13} "
            f"{'claim precision':>16} {'stance recall':>15} {'contra precision':>17}"
        )
        for part, names in self.split.items():
            total = _total([s for s in scores if s.topic in names])
            j = _judgement(total) if total.judgement else Judgement(topic=part)
            w(
                f"{part:<8} {len(names):>6} "
                f"{share(total.facts_surfaced, total.facts):>13} "
                f"{share(total.contradictions_flagged, total.contradictions):>13} "
                f"{share(j.correct, j.judged):>16} {share(j.recalled, j.stances):>15} "
                f"{share(j.contradictions_real, j.contradictions_judged):>17}"
            )
        for part, names in self.split.items():
            w(f"{part}: {', '.join(sorted(names))}")

    def _print_judgement(self, scores: list[TopicScore]) -> None:
        """Claim precision, stance recall and contradiction precision, against the
        labelled sentences and pairs of the topics that have them."""
        judged = [_judgement(s) for s in scores if s.judgement]
        unlabelled = [s.topic for s in scores if s.judgement is None and s.topic != "all"]
        if not judged:
            return
        total = Judgement(topic="all")
        for j in judged:
            total.add(j)
        w = self.out.write
        w(
            f"{'topic':<12} {'claim precision':>16} {'wrong: option/dim/polarity':>27} "
            f"{'stance recall':>15} {'contradiction precision':>24} {'reported':>9}"
        )
        for j in [*judged, total]:
            wrong = "/".join(str(j.wrong[k]) for k in WRONG_KINDS)
            w(
                f"{j.topic:<12} {share(j.correct, j.judged):>16} {wrong:>27} "
                f"{share(j.recalled, j.stances):>15} "
                f"{share(j.contradictions_real, j.contradictions_judged):>24} "
                f"{j.contradictions:>9}"
            )
        w(
            "judged against the labelled sentences (stances.jsonl) and contradictions "
            "(contradictions.jsonl): a claim or contradiction whose quotes match no label "
            "is not judged"
        )
        if unlabelled:
            w(f"no labels to judge against: {', '.join(unlabelled)}")


def readers_of(folder: Path) -> dict[str, int]:
    """The run's scored claims by who read them: the model, or the rules (a typed fact or
    a stance)."""
    path = folder / CROSSCHECK
    crosscheck = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    claims = scored_claims(crosscheck)
    rules = [c for c in claims if c.get("read_by") != "model"]
    return {
        "scored": len(claims),
        "model": len(claims) - len(rules),
        "rules_facts": sum(c.get("kind") != "stance" for c in rules),
        "rules_stances": sum(c.get("kind") == "stance" for c in rules),
    }


def model_calls(stub: LLMStub | None, delay: float) -> dict[str, Any]:
    if stub is None:
        return {"calls": 0, "round_trips": 0.0}
    return {"calls": len(stub.requests), "round_trips": round(round_trips(stub, delay), 2)}


def _split(develop: str | None, check: str | None) -> dict[str, set[str]]:
    """--develop and --check as sets of topic names; a topic in both is refused, since a
    check topic the reader was developed on checks nothing."""
    parts = {
        part: {t.strip() for t in (given or "").split(",") if t.strip()}
        for part, given in (("develop", develop), ("check", check))
    }
    parts = {part: names for part, names in parts.items() if names}
    both = parts.get("develop", set()) & parts.get("check", set())
    if both:
        raise CommandError(
            f"a topic cannot be both developed on and checked: {', '.join(sorted(both))}"
        )
    return parts


def _judgement(score: TopicScore) -> Judgement:
    data = dict(score.judgement or {})
    for name in ("wrong_claims", "missed_stances", "false_contradictions"):
        data.pop(name, None)
    return Judgement(**data)


def _mode_line(scores: list[TopicScore]) -> str:
    """Which method produced the figures, and in LLM mode what a run cost in tokens."""
    llm = [s for s in scores if s.mode == "llm"]
    if not llm:
        return "analysis: deterministic (no LLM), 0 tokens"
    models = sorted({s.model for s in llm if s.model})
    used = sorted(s.tokens for s in llm)
    return (
        f"analysis: LLM-assisted ({', '.join(models) or 'model not named'}) in "
        f"{len(llm)} of {len(scores)} runs; tokens per run: median {used[len(used) // 2]}, "
        f"max {used[-1]}"
    )


def _run_id(research_output: str) -> str:
    match = _RUN_LINE.search(research_output)
    if match is None:
        raise CommandError("the research command did not name its run")
    return match.group(1)


MEASURING_ACCOUNT = "verdict-quality"


def measuring_account() -> str:
    """Measurement runs belong to an account of their own, which cannot sign in."""
    user, created = get_user_model().objects.get_or_create(username=MEASURING_ACCOUNT)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return MEASURING_ACCOUNT


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.0%}" if whole else "-"


def _total(scores: list[TopicScore]) -> TopicScore:
    return TopicScore(
        topic="all",
        facts=sum(s.facts for s in scores),
        facts_surfaced=sum(s.facts_surfaced for s in scores),
        contradictions=sum(s.contradictions for s in scores),
        contradictions_flagged=sum(s.contradictions_flagged for s in scores),
        funnel={f: sum(s.funnel[f] for s in scores) for f in FUNNEL},
        quotes_verified=sum(s.quotes_verified for s in scores),
        quotes_total=sum(s.quotes_total for s in scores),
        confidence=None,
        recommendation=None,
        seconds=round(sum(s.seconds for s in scores), 2),
        tokens=sum(s.tokens for s in scores),
        judgement=_judgement_total(scores),
    )


def _judgement_total(scores: list[TopicScore]) -> dict[str, Any] | None:
    judged = [_judgement(s) for s in scores if s.judgement]
    if not judged:
        return None
    total = Judgement(topic="all")
    for j in judged:
        total.add(j)
    return total.as_dict()


def _summary(scores: list[TopicScore]) -> dict[str, Any]:
    return {"topics": [s.as_dict() for s in scores], "total": _total(scores).as_dict()}
