"""What a whole run costs in model tokens (issue 10's benchmark; `manage.py bench --llm`).

A run goes through all five stages in LLM mode against the stub endpoint
(tools.fakes.llm_stub), which answers every request with a schema-valid answer made from the
request's own data and counts the prompt and completion tokens it reports. What each stage
spent is read back from the run's own records: `tokens` in index.json, and the `llm_call`
events in log.jsonl for the calls and HTTP requests. So the figures are the ones a run
against a real endpoint records, and they measure whatever stages ask the model.

The limits are the run's limits as configured (limits()): the defaults, the same with a
model as without, unless MAX_CANDIDATES, MAX_KEPT, MAX_PAGES or MAX_PAGE_CHARS say
otherwise. Each model step sends a bounded selection whatever they are, so a run's tokens
should not grow with them. The budget is LLM_MAX_TOKENS_PER_RUN as configured, and TARGET is
the issue's ceiling for one run.
"""

from __future__ import annotations

import ipaddress
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import override_settings

from research import services
from research.artifacts import STAGES, Question
from research.models import Run
from research.names import CANDIDATES, CROSSCHECK, FILTERED, NOTES, stage_label
from research.runs import flow
from research.runs.execute import execute_stage
from research.runs.manifest import first_unfinished
from research.store import RunStore, store_for
from tools.bench.pages import LONG_PAGES, OPTIONS, TOPICS, long_page, results
from tools.fakes.llm_stub import LLMStub, Reply
from tools.fakes.localweb import LocalWeb
from tools.fakes.schema_answers import schema_answer

TARGET = 30_000
LIMITS = ("MAX_CANDIDATES", "MAX_KEPT", "MAX_PAGES", "MAX_PAGE_CHARS")
STUB_MODEL = "bench-stub"


@dataclass
class StageTokens:
    stage: str
    calls: int = 0  # answers the stage asked for (llm_call events)
    requests: int = 0  # HTTP requests behind them: retries, repairs, format fallbacks
    prompt: int = 0
    completion: int = 0
    fallbacks: int = 0  # answers without a value: the stage used its rules instead
    cap: int = 0  # the answers' max_tokens: what the completions could have been at most

    @property
    def total(self) -> int:
        return self.prompt + self.completion


@dataclass
class RunTokens:
    label: str
    run_id: str
    stages: list[StageTokens]
    total: int  # index.json tokens.total
    budget: int
    mode: str
    finished: bool  # every stage done
    stub_prompt: int = 0  # what the stub itself counted, to check the run's records
    stub_completion: int = 0
    exhausted: dict[str, Any] | None = None
    facts: dict[str, Any] = field(default_factory=dict)  # candidates, kept, read, claims

    @property
    def prompt(self) -> int:
        return sum(s.prompt for s in self.stages)

    @property
    def completion(self) -> int:
        return sum(s.completion for s in self.stages)

    @property
    def calls(self) -> int:
        return sum(s.calls for s in self.stages)

    @property
    def worst(self) -> int:
        """The run's tokens had every answer run to its max_tokens: the stub answers
        briefly, a real model writes more, never past the cap."""
        return self.prompt + sum(s.cap for s in self.stages)

    @property
    def matches_stub(self) -> bool:
        return (self.prompt, self.completion) == (self.stub_prompt, self.stub_completion)


def limits() -> dict[str, int]:
    """The reading limits a run started now gets."""
    return {name: getattr(settings, name) for name in LIMITS}


@contextmanager
def stub_endpoint(runs_dir: Path, allow_loopback: bool = False) -> Iterator[LLMStub]:
    """LLM mode against a fresh stub, with the configured limits and runs kept in
    `runs_dir`."""
    stub = LLMStub()
    stub.default = Reply(content=schema_answer)
    stub.start()
    extra: dict[str, Any] = {}
    if allow_loopback:  # a local web on 127.0.0.1, which the fetcher refuses unless allowed
        extra["FETCH_ALLOWED_NETWORKS"] = [ipaddress.ip_network("127.0.0.1/32")]
    try:
        with override_settings(
            RUNS_DIR=runs_dir,
            LLM_BASE_URL=stub.base_url,
            LLM_MODEL=STUB_MODEL,
            LLM_API_KEY="",
            LLM_STAGE_MODELS={},
            LLM_RESPONSE_FORMAT="auto",
            **extra,
        ):
            yield stub
    finally:
        stub.stop()


def run_all_stages(run_id: str, stub: LLMStub) -> dict[str, int]:
    """Every stage in order, as the worker chain runs them, without Celery. Returns each
    stage's answer caps: the max_tokens of the requests the stub had while it ran."""
    caps: dict[str, int] = {}
    stage: str | None = first_unfinished(run_id)
    while stage is not None:
        before = len(stub.requests)
        execute_stage(run_id, stage)
        caps[stage] = sum(r.body.get("max_tokens") or 0 for r in stub.requests[before:])
        stage = flow.hand_over(run_id, stage).next
    return caps


def measure(label: str, run_id: str, stub: LLMStub, caps: dict[str, int]) -> RunTokens:
    store = store_for(run_id)
    index = store.index()
    tokens = index.get("tokens") or {}
    by_stage = {s: StageTokens(s) for s in STAGES}
    for entry in store.read_log():
        stage = by_stage.get(entry.get("stage", ""))
        if stage is None:
            continue
        if entry["event"] == "llm_call":
            stage.calls += 1
            stage.requests += entry.get("requests", 0)
        elif entry["event"] == "llm_fallback":
            stage.fallbacks += 1
    for name, stage in by_stage.items():
        spent = tokens.get(name) or {}
        stage.prompt, stage.completion = spent.get("prompt", 0), spent.get("completion", 0)
        stage.cap = caps.get(name, 0)
    analysis = index.get("analysis") or {}
    return RunTokens(
        label=label,
        run_id=run_id,
        stages=list(by_stage.values()),
        total=tokens.get("total", 0),
        budget=settings.LLM_MAX_TOKENS_PER_RUN,
        mode=analysis.get("mode", "deterministic"),
        finished=all(e["status"] == "done" for e in index["stages"].values()),
        stub_prompt=stub.prompt_tokens,
        stub_completion=stub.completion_tokens,
        exhausted=analysis.get("budget_exhausted"),
        facts=_facts(store),
    )


def _facts(store: RunStore) -> dict[str, Any]:
    """How much the run had to work with: the limits are what bound the model's material."""
    facts: dict[str, Any] = {}
    for name, key, count in (
        (CANDIDATES, "candidates", lambda d: len(d["candidates"])),
        (FILTERED, "kept", lambda d: len(d["kept"])),
        (NOTES, "read", lambda d: sum(s["status"] == "OK" for s in d["sources"])),
        (CROSSCHECK, "claims", lambda d: len(d["claims"])),
    ):
        if store.artifact_path(name).is_file():
            facts[key] = count(store.read_json(name))
    return facts


def lines(run: RunTokens, target: int = TARGET) -> list[str]:
    """The figures as the command prints them."""
    facts = ", ".join(f"{v} {k}" for k, v in run.facts.items())
    out = [
        f"{run.label}: {facts}",
        f"  {'stage':<16}{'calls':>6}{'requests':>10}{'prompt':>9}{'completion':>12}"
        f"{'total':>8}{'fallbacks':>11}{'answer cap':>12}",
    ]
    for s in run.stages:
        out.append(
            f"  {stage_label(s.stage):<16}{s.calls:>6}{s.requests:>10}{s.prompt:>9,}"
            f"{s.completion:>12,}{s.total:>8,}{s.fallbacks:>11}{s.cap:>12,}"
        )
    within = "within" if run.total <= target else "OVER"
    out.append(
        f"  {'run':<16}{run.calls:>6}{sum(s.requests for s in run.stages):>10}"
        f"{run.prompt:>9,}{run.completion:>12,}{run.total:>8,}"
        f"{sum(s.fallbacks for s in run.stages):>11}{sum(s.cap for s in run.stages):>12,}"
    )
    out.append(
        f"  {run.total:,} tokens a run: {within} the {target:,} target "
        f"(budget LLM_MAX_TOKENS_PER_RUN {run.budget:,}); mode {run.mode}; "
        f"{'all five stages done' if run.finished else 'NOT FINISHED'}"
    )
    out.append(
        f"  with every answer at its cap: {run.worst:,} tokens "
        + (
            "(within the budget)"
            if run.worst <= run.budget
            else "(OVER the budget: the last calls would not be made, their stages using their "
            "rules)"
        )
    )
    stub = "matches" if run.matches_stub else "DOES NOT MATCH"
    out.append(
        f"  the stub counted {run.stub_prompt:,} prompt + {run.stub_completion:,} completion: "
        f"{stub} index.json"
    )
    if run.exhausted:
        out.append(f"  budget exhausted: {run.exhausted}")
    return out


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


def bench_tokens(write: Callable[[str], Any]) -> None:
    """Count the model tokens of whole runs over the notes corpora and a long local web,
    and write the figures a line at a time."""
    configured = limits()
    write(
        f"bench --llm: model tokens per stage and per run, counted by a stub endpoint on "
        f"127.0.0.1 (about 4 characters or one CJK character a token) | limits "
        f"{configured['MAX_CANDIDATES']} candidates / {configured['MAX_KEPT']} kept / "
        f"{configured['MAX_PAGES']} pages / "
        f"{configured['MAX_PAGE_CHARS']:,} characters | target {TARGET:,} a run"
    )
    web = LocalWeb()
    chars = configured["MAX_PAGE_CHARS"]
    urls = [web.add(f"/long/{n}", long_page(n, chars)) for n in range(LONG_PAGES)]
    web.add_searxng(lambda query: results(query, urls))
    web.add("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    web.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            runs = [
                _measured(
                    Path(tmp) / corpus,
                    f"notes corpus ({corpus})",
                    question,
                    dimensions,
                    f"local:{CORPORA / corpus}",
                )
                for corpus, question, dimensions in NOTES_RUNS
            ]
            runs.append(
                _measured(
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
        for line in lines(run):
            write(line)


def _measured(
    runs_dir: Path, label: str, question: str, dimensions: list[dict], source: str
) -> RunTokens:
    with stub_endpoint(runs_dir, allow_loopback=True) as stub:
        run = services.create_run(
            Question(question=question, dimensions=dimensions, sources=[source])
        )
        try:
            caps = run_all_stages(run.run_id, stub)
            return measure(label, run.run_id, stub, caps)
        finally:
            Run.objects.filter(pk=run.pk).delete()
