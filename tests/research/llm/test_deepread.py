"""Deep-read with a model (the stub on 127.0.0.1): the model reads every sentence about an
option, by number, in calls in flight at once, within the run's token budget; what it could
not read stays with the rules, and the log says which."""

from __future__ import annotations

import json
import re
from pathlib import Path

from research.artifacts import (
    STAGES,
    Dimension,
    Filtered,
    KeptCandidate,
    Limits,
    Plan,
    SubQuery,
)
from research.context import StageContext
from research.llm import StageLLM, open_llm
from research.outcomes import Outcome
from research.providers.base import FetchResult
from research.stages.deepread import deep_read
from research.store import RunStore
from tests.llm_stub import LLMStub, Reply, answer
from tests.runs import events

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "notes_en"

PAGE = """# Alderstream licence notes

Alderstream is released under the MIT License, so the licence risk is low.
Alderstream is a wonderful choice and teams love how simple its licence terms read.
Its hosted plan costs $40 per seat per month, which adds up for a large team.
Brightwell charges nothing for self-hosting, which keeps the cost of running it low.
Alderstream's authors answer questions on the forum and the licence FAQ is friendly.
Brightwell feels heavy to customise.
"""
OTHER = """# Brightwell pricing

Brightwell's enterprise tier costs $12,000 a year, which is steep for a small team.
Brightwell moved from the GPL to the Apache License in 2023.
"""


class NoFetcher:
    """Pages come from a local corpus folder: the web is never asked."""

    def fetch(self, url: str) -> FetchResult:
        raise AssertionError(f"fetched {url}")


def a_plan(max_pages: int = 8) -> Plan:
    return Plan(
        question="Choose between Alderstream and Brightwell for our sync layer",
        options=["Alderstream", "Brightwell"],
        dimensions=[Dimension(name="licence risk", weight=0.5), Dimension(name="cost", weight=0.5)],
        sources=["local:corpus"],
        queries=[SubQuery(id="q01", text="Alderstream licence risk")],
        limits=Limits(max_pages=max_pages),
    )


def pages(folder: Path, texts: list[str]) -> Filtered:
    folder.mkdir(exist_ok=True)
    kept = []
    for n, text in enumerate(texts):
        path = folder / f"page{n}.md"
        path.write_text(text, "utf-8")
        kept.append(
            KeptCandidate(
                id=f"s{n:02d}",
                url=path.as_uri(),
                title=f"Alderstream notes {n}",
                provider=f"local:{folder}",
                query="Alderstream licence risk",
                rank=n,
                score=90 - n,
                reasons=["test"],
                local_path=str(path),
            )
        )
    return Filtered(kept=kept, dropped=[])


def read(filtered: Filtered, ctx: StageContext, llm: StageLLM | None = None, plan=None):
    return deep_read(plan or a_plan(), filtered, NoFetcher(), ctx, llm=llm)


def opened(store: RunStore, ctx: StageContext) -> StageLLM:
    llm = open_llm(store, ctx, "deepread")
    assert llm is not None
    return llm


def reading(n: int, option: str, dimension: str | None, polarity: int, sure: float = 0.9):
    return {
        "n": n,
        "option": option,
        "dimension": dimension,
        "polarity": polarity,
        "confidence": sure,
    }


def reads(*said: tuple[str, str, str | None, int] | tuple[str, str, str | None, int, float]):
    """A model that reads the sentences starting with these words so, and judges nothing
    in the others."""

    def content(body: dict) -> str:
        lines = body["messages"][1]["content"].splitlines()
        found = []
        for words, *rest in said:
            for line in lines:
                number, _, sentence = line.partition(". ")
                if number.isdigit() and re.sub(r"^\(.+?\) ", "", sentence).startswith(words):
                    found.append(reading(int(number), *rest))
        return json.dumps({"readings": found})

    return Reply(content=content)


def sent_sentences(stub: LLMStub) -> list[str]:
    return [
        line.partition(". ")[2]
        for request in stub.requests
        for line in request.messages[1]["content"].splitlines()
        if line.partition(". ")[0].isdigit()
    ]


def by_quote(notes) -> dict[str, object]:
    return {kp.quote.split(",")[0].split(".")[0]: kp for kp in notes.key_points}


def quoted_exactly(result) -> bool:
    return all(
        result.pages[s.source_id][kp.offset : kp.offset + len(kp.quote)] == kp.quote
        for s in result.notes.sources
        for kp in s.key_points
    )


def test_every_sentence_about_an_option_is_sent_numbered_under_its_page(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    llm_stub.default = answer({"readings": []})
    read(pages(tmp_path / "corpus", [PAGE, OTHER]), ctx, opened(store, ctx))

    [request] = llm_stub.requests
    sent = request.messages[1]["content"]
    assert sent.splitlines()[0] == "Page s00: Alderstream notes 0"
    assert "Page s01: Alderstream notes 1" in sent
    assert sent_sentences(llm_stub) == [
        "Alderstream is released under the MIT License, so the licence risk is low.",
        "Alderstream is a wonderful choice and teams love how simple its licence terms read.",
        "(Alderstream) Its hosted plan costs $40 per seat per month, which adds up for a large "
        "team.",
        "Brightwell charges nothing for self-hosting, which keeps the cost of running it low.",
        "Alderstream's authors answer questions on the forum and the licence FAQ is friendly.",
        "Brightwell feels heavy to customise.",  # below the rules' cut: the model reads it too
        "Brightwell's enterprise tier costs $12,000 a year, which is steep for a small team.",
        "Brightwell moved from the GPL to the Apache License in 2023.",
    ]
    assert "# Alderstream licence notes" not in sent  # a heading is not a sentence


def test_the_models_readings_are_the_key_points_and_the_sentences_it_read_judge_nothing_else(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    llm_stub.default = reads(
        ("Alderstream is released", "Alderstream", "licence risk", 1),
        ("Brightwell feels heavy", "brightwell", "Cost", -1, 0.8),  # names as spelled
        ("Brightwell charges nothing", "Brightwell", "cost", 1),
    )
    result = read(pages(tmp_path / "corpus", [PAGE]), ctx, opened(store, ctx))

    [notes] = result.notes.sources
    points = by_quote(notes)
    heavy = points["Brightwell feels heavy to customise"]
    assert (heavy.option, heavy.dimension, heavy.polarity, heavy.confidence, heavy.origin) == (
        "Brightwell",
        "cost",
        -1,
        0.8,
        "model",
    )
    # The typed price the model read and found no judgement in: kept for its figure, read
    # by the model, judging nothing.
    price = points["Its hosted plan costs $40 per seat per month"]
    assert (price.origin, price.polarity) == ("model", 0)
    assert {kp.origin for kp in notes.key_points} == {"model"}
    assert quoted_exactly(result)
    [summary] = events(store, "key_points_by_model")
    assert summary == {
        **summary,
        "sentences": 6,
        "sentences_sent": 6,
        "sentences_read": 6,
        "sentences_unread": 0,
        "readings": 3,
        "dropped": 0,
    }
    assert events(store, "llm_unread") == []


def test_readings_outside_the_sentences_or_the_plan_are_dropped_and_logged(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    llm_stub.script(
        answer(
            {
                "readings": [
                    reading(99, "Alderstream", "cost", 1),
                    reading(1, "Nimbus", "cost", 1),
                    reading(1, "Alderstream", "speed", 1),
                    reading(1, "Alderstream", "licence risk", 2),
                    reading(1, "Alderstream", "licence risk", 1),
                    reading(1, "Alderstream", "licence risk", 1),  # twice
                ]
            }
        )
    )
    result = read(pages(tmp_path / "corpus", [PAGE]), ctx, opened(store, ctx))

    reasons = [e["reason"] for e in events(store, "llm_point_dropped")]
    assert reasons == [
        "sentence 99 is not one of the 6 numbered sentences",
        "'Nimbus' is not one of the plan's options",
        "'speed' is not one of the plan's dimensions",
        "polarity 2 is not -1, 0 or 1",
        "sentence 1 was read twice for Alderstream",
    ]
    judged = [kp for kp in result.notes.sources[0].key_points if kp.polarity]
    assert [(kp.option, kp.dimension, kp.polarity) for kp in judged] == [
        ("Alderstream", "licence risk", 1)
    ]


def test_a_malformed_answer_leaves_its_sentences_to_the_rules_and_says_so(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    folder = tmp_path / "corpus"
    texts = [PAGE, OTHER]
    reader = read(pages(folder, texts), StageContext())
    llm_stub.default = Reply(content="Sentence 1 is for Alderstream and sentence 6 against.")
    result = read(pages(folder, texts), ctx, opened(store, ctx))

    assert [s.key_points for s in result.notes.sources] == [
        s.key_points for s in reader.notes.sources
    ]
    assert {kp.origin for s in result.notes.sources for kp in s.key_points} == {"reader"}
    assert all(s.status is Outcome.OK for s in result.notes.sources)
    [unread] = events(store, "llm_unread")
    assert unread["sentences"] == {"s00": 6, "s01": 2}
    assert "JSON" in unread["reasons"]["s00"]
    assert unread["fallback"] == "the reader's key points and readings for these sentences"
    assert store.index()["analysis"]["unread_by_model"]["sentences"] == 8


def test_sentences_are_shared_among_calls_in_flight_together_each_sent_once(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    llm_settings.LLM_CONCURRENCY = 3
    texts = [PAGE.replace("$40", f"${40 + n}") for n in range(20)]  # 120 sentences
    llm_stub.default = answer({"readings": []})
    result = read(pages(tmp_path / "corpus", texts), ctx, opened(store, ctx), a_plan(20))

    # One call for each call in flight: the sentences go in one round trip.
    assert len(llm_stub.requests) == 3
    sent = sent_sentences(llm_stub)
    assert len(sent) == 120  # 20 pages of 6 sentences, each sentence once
    assert all(len(r.messages[1]["content"].splitlines()) >= 40 for r in llm_stub.requests)
    [summary] = events(store, "key_points_by_model")
    assert summary["sentences_read"] == 120
    assert {kp.origin for s in result.notes.sources for kp in s.key_points} == {"model"}


def test_a_run_past_its_budget_reads_what_fits_and_says_what_it_could_not(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    """Twelve like pages make two like calls; the budget pays for the first only."""
    from research.llm.budget import estimate_tokens
    from research.stages.modelpoints import LATER_STAGES_TOKENS

    llm_settings.LLM_CONCURRENCY = 2
    texts = [PAGE.replace("$40", f"${40 + n}") for n in range(12)]  # 72 sentences: 36 + 36
    folder = tmp_path / "corpus"
    llm_stub.default = answer({"readings": []})
    probe = RunStore(tmp_path / "probe", store.run_id)
    probe.create({"question": "probe"}, STAGES)
    read(pages(folder, texts), StageContext(), opened(probe, StageContext()), a_plan(12))
    first = llm_stub.requests[0]
    cost = sum(estimate_tokens(m["content"]) for m in first.messages) + first.body["max_tokens"]
    llm_settings.LLM_MAX_TOKENS_PER_RUN = LATER_STAGES_TOKENS + cost
    llm_stub.requests.clear()

    reader = read(pages(folder, texts), StageContext(), plan=a_plan(12))
    result = read(pages(folder, texts), ctx, opened(store, ctx), a_plan(12))

    assert len(llm_stub.requests) == 1
    [unread] = events(store, "llm_unread")
    assert sum(unread["sentences"].values()) == 72 - len(sent_sentences(llm_stub)) > 0
    assert set(unread["reasons"].values()) == {
        "more than the run's token budget (LLM_MAX_TOKENS_PER_RUN)"
    }
    for got, plain in zip(result.notes.sources, reader.notes.sources, strict=True):
        if got.source_id in unread["sentences"] and unread["sentences"][got.source_id] == 6:
            assert got.key_points == plain.key_points
    # Nothing was refused on the way: the stage asked only for what it could pay for.
    assert "budget_exhausted" not in store.index()["analysis"]
    assert store.index()["tokens"]["total"] <= llm_settings.LLM_MAX_TOKENS_PER_RUN
