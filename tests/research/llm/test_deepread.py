"""Deep-read key points with a model (the stub on 127.0.0.1): the model picks and labels the
reader's sentences by number, typed facts stay, and every failure leaves the reader's points."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from research import services
from research.artifacts import (
    STAGES,
    Dimension,
    Filtered,
    KeptCandidate,
    Limits,
    Plan,
    Question,
    SubQuery,
)
from research.context import StageContext
from research.llm import StageLLM, open_llm
from research.outcomes import Outcome
from research.providers.base import FetchResult
from research.runs import execute
from research.stages.deepread import deep_read, notes_markdown
from research.store import RunStore, store_for
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
# As the model is shown PAGE's sentences (the reader's best ones, in page order).
MIT, WONDERFUL, PER_SEAT, FREE, FORUM, HEAVY = range(1, 7)


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


def pick(i: int, option: str, dimension: str | None, polarity: int) -> dict:
    return {"i": i, "option": option, "dimension": dimension, "polarity": polarity}


def by_quote(notes) -> dict[str, object]:
    return {kp.quote.split(",")[0].split(".")[0]: kp for kp in notes.key_points}


def quoted_exactly(result) -> bool:
    return all(
        result.pages[s.source_id][kp.offset : kp.offset + len(kp.quote)] == kp.quote
        for s in result.notes.sources
        for kp in s.key_points
    )


def test_the_models_picks_are_the_key_points_and_typed_facts_stay(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    picks = [
        pick(MIT, "Alderstream", "licence risk", 1),
        pick(FREE, "Brightwell", "cost", 1),
        pick(HEAVY, "brightwell", "Cost", -1),  # names as the model spells them
    ]
    llm_stub.script(answer({"pages": [{"id": "s00", "points": picks}]}))
    result = read(pages(tmp_path / "corpus", [PAGE]), ctx, opened(store, ctx))

    [notes] = result.notes.sources
    points = by_quote(notes)
    assert sorted(points) == [
        "Alderstream is released under the MIT License",
        "Brightwell charges nothing for self-hosting",
        "Brightwell feels heavy to customise",  # below the reader's cut: the model found it
        "Its hosted plan costs $40 per seat per month",  # a typed price the model passed over
    ]
    heavy = points["Brightwell feels heavy to customise"]
    assert (heavy.option, heavy.dimension, heavy.polarity, heavy.origin) == (
        "Brightwell",
        "cost",
        -1,
        "model",
    )
    assert points["Its hosted plan costs $40 per seat per month"].origin == "reader"
    assert quoted_exactly(result)
    # The model saw the sentences numbered, and "Its" resolved for it, never the whole page.
    sent = llm_stub.requests[0].messages[1]["content"]
    assert sent.splitlines()[0] == "Page s00: Alderstream notes 0"
    assert f"{PER_SEAT}. (Alderstream) Its hosted plan costs $40 per seat" in sent
    assert "# Alderstream licence notes" not in sent
    assert (
        '"Brightwell feels heavy to customise." (offset '
        f"{heavy.offset}; picked by the model, against)" in notes_markdown(result.notes)
    )
    [summary] = events(store, "key_points_by_model")
    assert summary == {
        **summary,
        "pages_by_model": 1,
        "pages_by_reader": 0,
        "model_points": 3,
        "reader_points": 1,
        "dropped": 0,
    }


def test_picks_outside_the_numbered_sentences_or_the_plan_are_dropped_and_logged(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    picks = [
        pick(0, "Alderstream", "licence risk", 1),
        pick(42, "Alderstream", "licence risk", 1),
        pick(WONDERFUL, "Cobaltline", "licence risk", 1),
        pick(FORUM, "Alderstream", "community", 1),
        pick(FREE, "Brightwell", "cost", 1),
        pick(FREE, "Alderstream", "cost", -1),
        pick(MIT, "Alderstream", "licence risk", 3),
    ]
    llm_stub.script(
        answer({"pages": [{"id": "s00", "points": picks}, {"id": "s77", "points": []}]})
    )
    result = read(pages(tmp_path / "corpus", [PAGE]), ctx, opened(store, ctx))

    points = by_quote(result.notes.sources[0])
    assert points["Brightwell charges nothing for self-hosting"].origin == "model"
    # Typed facts the model did not validly pick stay with the reader's labels.
    assert points["Alderstream is released under the MIT License"].origin == "reader"
    assert (
        "Alderstream is a wonderful choice and teams love how simple its licence terms read"
        not in points
    )
    reasons = [(e["source_id"], e["i"], e["reason"]) for e in events(store, "llm_point_dropped")]
    assert reasons == [
        ("s77", None, "no page with this id was in the message"),
        ("s00", 0, "sentence 0 is not one of the 6 numbered sentences"),
        ("s00", 42, "sentence 42 is not one of the 6 numbered sentences"),
        ("s00", WONDERFUL, "'Cobaltline' is not one of the plan's options"),
        ("s00", FORUM, "'community' is not one of the plan's dimensions"),
        ("s00", FREE, f"sentence {FREE} was picked twice"),
        ("s00", MIT, "polarity 3 is not -1, 0 or 1"),
    ]


def test_a_page_whose_every_pick_is_unusable_keeps_the_readers_key_points(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    folder = tmp_path / "corpus"
    reader = read(pages(folder, [PAGE]), StageContext())
    wrong = [pick(MIT, "Cobaltline", "cost", 1)]
    llm_stub.script(answer({"pages": [{"id": "s00", "points": wrong}]}))
    result = read(pages(folder, [PAGE]), ctx, opened(store, ctx))

    assert result.notes.sources[0].key_points == reader.notes.sources[0].key_points
    [unjudged] = events(store, "llm_unjudged")
    assert unjudged["ids"] == ["s00"] and unjudged["fallback"] == "the reader's key points"


def test_a_malformed_answer_leaves_the_readers_key_points_and_the_stage_completes(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    folder = tmp_path / "corpus"
    texts = [PAGE, OTHER]
    reader = read(pages(folder, texts), StageContext())
    llm_stub.default = Reply(content="Here are the key points: sentence 1 and sentence 4.")
    result = read(pages(folder, texts), ctx, opened(store, ctx))

    assert [s.key_points for s in result.notes.sources] == [
        s.key_points for s in reader.notes.sources
    ]
    assert all(s.status is Outcome.OK for s in result.notes.sources)
    [fallback] = events(store, "llm_fallback")
    assert fallback["task"] == "deepread"
    assert fallback["fallback"] == "the reader's key points for these pages"
    [summary] = events(store, "key_points_by_model")
    assert summary["pages_by_model"] == 0 and summary["pages_by_reader"] == 2


def test_a_page_the_answer_leaves_out_keeps_the_readers_key_points(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    folder = tmp_path / "corpus"
    texts = [PAGE, OTHER]
    reader = read(pages(folder, texts), StageContext())
    only_second = {"id": "s01", "points": [pick(1, "Brightwell", "cost", -1)]}
    llm_stub.script(answer({"pages": [only_second]}))
    result = read(pages(folder, texts), ctx, opened(store, ctx))

    first, second = result.notes.sources
    assert first.key_points == reader.notes.sources[0].key_points
    steep = [kp for kp in second.key_points if kp.origin == "model"]
    assert [(kp.quote, kp.polarity) for kp in steep] == [
        ("Brightwell's enterprise tier costs $12,000 a year, which is steep for a small team.", -1)
    ]
    [unjudged] = events(store, "llm_unjudged")
    assert unjudged["ids"] == ["s00"]


def test_pages_the_budget_cannot_pay_for_keep_the_readers_key_points(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    """Eight like pages make two like calls; the budget pays for exactly the first."""
    llm_settings.LLM_CONCURRENCY = 1
    texts = [PAGE.replace("$40", f"${40 + n}") for n in range(8)]
    folder = tmp_path / "corpus"
    labels = Reply(content=plausible)
    llm_stub.default = labels
    probe = RunStore(tmp_path / "probe", store.run_id)
    probe.create({"question": "probe"}, STAGES)
    read(pages(folder, texts), StageContext(), opened(probe, StageContext()))
    first = llm_stub.requests[0]
    llm_settings.LLM_MAX_TOKENS_PER_RUN = first.body["max_tokens"] + sum(
        -(-len(m["content"]) // 4) for m in first.messages
    )
    llm_stub.requests.clear()

    reader = read(pages(folder, texts), StageContext())
    result = read(pages(folder, texts), ctx, opened(store, ctx))

    assert len(llm_stub.requests) == 1
    paid = {p.split(":")[0].removeprefix("Page ") for p in sent_pages(llm_stub.requests[0])}
    for got, plain in zip(result.notes.sources, reader.notes.sources, strict=True):
        origins = {kp.origin for kp in got.key_points}
        if got.source_id in paid:
            assert "model" in origins
        else:
            assert got.key_points == plain.key_points
    index = store.index()
    assert index["analysis"]["budget_exhausted"]["stage"] == "deepread"
    [unjudged] = events(store, "llm_unjudged")
    assert sorted(unjudged["ids"]) == sorted({s.source_id for s in reader.notes.sources} - paid)


# --- a plausible model, and what deep-read costs -----------------------------------------

_DIMENSION_WORDS = {
    "licence": ("licen", "mit", "apache", "bsl", "agpl", "gpl"),
    "licence risk": ("licen", "mit", "apache", "bsl", "agpl"),
    "cost": ("cost", "$", "price", "free", "pay"),
    "maintenance": ("release", "maintain", "archived", "commit", "shipped", "version"),
}
_AGAINST = ("archived", "bsl", "no longer", "heavy", "expensive", "stopped", "risk")
_FOR = ("apache", "mit", "active", "monthly", "free", "nothing", "low")


def sent_pages(request) -> list[str]:
    return request.messages[1]["content"].split("\n\n")


def plausible(body: dict) -> str:
    """Label the numbered sentences the way a careful model would: the option named (or
    given in brackets), the dimension by its words, the polarity by plain signs."""
    system = body["messages"][0]["content"]
    options = re.search(r"Options: (.+?)\.\n", system).group(1).split(", ")
    dimensions = re.search(r"Dimensions: (.+?)\.\n", system).group(1).split(", ")
    answers = []
    for block in body["messages"][1]["content"].split("\n\n"):
        head, *lines = block.splitlines()
        points = []
        for line in lines:
            number, _, sentence = line.partition(". ")
            lower = sentence.lower()
            tag = re.match(r"\((.+?)\) ", sentence)
            option = tag.group(1) if tag else next((o for o in options if o in sentence), None)
            dimension = next(
                (d for d in dimensions if any(w in lower for w in _DIMENSION_WORDS.get(d, ()))),
                None,
            )
            if option is None or dimension is None:
                continue
            polarity = (
                -1 if any(w in lower for w in _AGAINST) else int(any(w in lower for w in _FOR))
            )
            points.append(pick(int(number), option, dimension, polarity))
        answers.append({"id": head.split(":")[0].removeprefix("Page "), "points": points[:6]})
    return json.dumps({"pages": answers})


@pytest.mark.django_db
def test_deep_read_of_the_corpus_in_llm_mode_costs_few_tokens(
    llm_settings, llm_stub: LLMStub, settings
):
    llm_stub.default = Reply(content=plausible)
    run = services.create_run(
        Question(
            question="For our notes app, choose between Quillsync, Loamdb and Tessera",
            options=["Quillsync", "Loamdb", "Tessera"],
            dimensions=[{"name": "licence", "weight": 0.5}, {"name": "maintenance", "weight": 0.5}],
            sources=[f"local:{CORPUS}"],
        )
    )
    settings.LLM_BASE_URL = ""  # retrieve and filter by the rules: only deep-read is measured
    execute.execute_stage(run.run_id, "retrieve")
    execute.execute_stage(run.run_id, "filter")
    settings.LLM_BASE_URL = llm_stub.base_url
    execute.execute_stage(run.run_id, "deepread")
    store = store_for(run.run_id)

    tokens = store.index()["tokens"]["deepread"]
    print(
        f"\ndeep-read, corpus: {len(llm_stub.requests)} calls, {tokens['prompt']} prompt + "
        f"{tokens['completion']} completion = {tokens['prompt'] + tokens['completion']} tokens"
    )
    assert tokens == {"prompt": llm_stub.prompt_tokens, "completion": llm_stub.completion_tokens}
    assert llm_stub.tokens <= 4_000
    notes = store.read_json("round_3_notes.json")
    read_pages = [s for s in notes["sources"] if s["status"] == "OK" and not s["duplicate_of"]]
    assert len(read_pages) >= 6 and len(llm_stub.requests) == 2
    for source in read_pages:
        stored = store.read_text(source["page"])
        assert all(stored[k["offset"] :].startswith(k["quote"]) for k in source["key_points"])
    assert sum(k["origin"] == "model" for s in read_pages for k in s["key_points"]) >= 10
    assert "picked by the model" in store.read_text("round_3_notes.md")
    assert not events(store, "llm_fallback")


_TOPICS = [
    "{o} is released under the Apache License 2.0, and its maintainers have said in writing "
    "that the licence will not change for any future major version",
    "The {o} team shipped version {n}.2 in March 2025 with {m} contributors listed in the "
    "release notes, most of them from outside the company that started it",
    "Running {o} for a team of fifty costs about ${m} a month in servers and support, which "
    "is less than half of what the hosted alternatives we priced would charge",
    "A reviewer who tried six engines found that {o} handles long offline edits better than "
    "any other, losing no changes in two hundred simulated conflicts",
    "The {o} issue tracker had {m} open bugs last spring, and {n} of them were marked "
    "critical, although most were closed within a fortnight of being reported",
    "Teams moving to {o} report that its migration guide covers every breaking change since "
    "the first stable release, with scripts that upgrade the stored data in place",
    "{o} publishes a release every month and lists the fixed bugs for each of them, so "
    "anyone can check how quickly a reported problem was dealt with",
    "Support contracts for {o} start at ${m} per year and include a promise to answer "
    "within one working day, which some reviewers called expensive for small teams",
]


def long_page(option: str, seed: int, chars: int = 30_500) -> str:
    """A page longer than a page is read to (30,000 characters by default), every sentence
    of it something the reader scores, so the model is shown as much as deep-read ever shows
    it."""
    sentences = []
    n = 0
    while sum(len(s) for s in sentences) < chars:
        topic = _TOPICS[n % len(_TOPICS)]
        sentences.append(topic.format(o=option, n=seed * 100 + n, m=100 + 7 * n + 13 * seed) + ".")
        n += 1
    return f"# {option} in depth\n\n" + "\n\n".join(
        " ".join(sentences[i : i + 3]) for i in range(0, len(sentences), 3)
    )


def test_of_twenty_full_pages_read_the_model_labels_eight_and_the_rest_keep_the_readers(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    llm_stub.default = Reply(content=plausible)
    options = ["Alderstream", "Brightwell"]
    texts = [long_page(options[n % 2], n) for n in range(20)]
    folder = tmp_path / "corpus"
    plan = a_plan().model_copy(update={"limits": Limits(max_pages=30, max_page_chars=30_000)})
    reader = read(pages(folder, texts), StageContext(), plan=plan)
    result = read(pages(folder, texts), ctx, opened(store, ctx), plan=plan)

    tokens = store.index()["tokens"]["deepread"]
    print(
        f"\ndeep-read, 20 pages of 30,000 characters: {len(llm_stub.requests)} calls, "
        f"{tokens['prompt']} prompt + {tokens['completion']} completion = "
        f"{tokens['prompt'] + tokens['completion']} tokens"
    )
    # Every page is read, to the full 30,000 characters, as without a model.
    assert len(result.notes.sources) == 20
    assert all(s.truncated and s.chars > 29_000 for s in result.notes.sources)
    # Eight of them go to the model, four a call, and get its labels.
    assert len(llm_stub.requests) == 2
    sent = [p.split(":")[0].removeprefix("Page ") for r in llm_stub.requests for p in sent_pages(r)]
    assert len(sent) == 8
    for got, plain in zip(result.notes.sources, reader.notes.sources, strict=True):
        if got.source_id in sent:
            assert any(kp.origin == "model" for kp in got.key_points), got.source_id
        else:
            assert got.key_points == plain.key_points, got.source_id
    assert llm_stub.tokens <= 4_500
    assert quoted_exactly(result)
    [summary] = events(store, "key_points_by_model")
    assert (summary["pages_sent"], summary["pages_by_model"], summary["pages_by_reader"]) == (
        8,
        8,
        12,
    )
    assert not events(store, "llm_unjudged")


def test_the_model_is_sent_the_pages_that_cover_the_most_options_and_dimensions(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    """Ten pages on Alderstream's licence come first in the filter's order; the eleventh,
    the only one on Brightwell's cost, goes to the model ahead of most of them."""
    licence = "\n".join(
        f"Alderstream is released under the MIT License {n}, so the licence risk is low."
        for n in range(4)
    )
    cost = (
        "Brightwell's enterprise tier costs $12,000 a year, which is steep for a small team.\n"
        "Brightwell charges nothing for self-hosting, which keeps the cost of running it low."
    )
    llm_stub.default = Reply(content=plausible)
    plan = a_plan().model_copy(update={"limits": Limits(max_pages=30)})
    read(pages(tmp_path / "corpus", [licence] * 10 + [cost]), ctx, opened(store, ctx), plan=plan)

    sent = [p.split(":")[0].removeprefix("Page ") for r in llm_stub.requests for p in sent_pages(r)]
    assert sorted(sent) == ["s00", "s01", "s02", "s03", "s04", "s05", "s06", "s10"]


def test_options_and_dimensions_spelled_with_other_whitespace_are_the_plans_own(
    llm_settings, llm_stub: LLMStub, store, ctx, tmp_path
):
    picks = [
        pick(MIT, " Alderstream\u00a0", "licence\u3000risk", 1),  # NBSP, a full-width space
        pick(FREE, "Brightwell", "cost\n", 1),
    ]
    llm_stub.script(answer({"pages": [{"id": "s00", "points": picks}]}))
    result = read(pages(tmp_path / "corpus", [PAGE]), ctx, opened(store, ctx))

    points = by_quote(result.notes.sources[0])
    mit = points["Alderstream is released under the MIT License"]
    assert (mit.option, mit.dimension, mit.origin) == ("Alderstream", "licence risk", "model")
    free = points["Brightwell charges nothing for self-hosting"]
    assert (free.option, free.dimension, free.origin) == ("Brightwell", "cost", "model")
    assert events(store, "llm_point_dropped") == []
