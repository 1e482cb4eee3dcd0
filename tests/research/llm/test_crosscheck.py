"""Cross-validate with a model (the stub on 127.0.0.1): the claims it reads, the pairs it
judges, what the reader flags, and the reader's result whenever the model fails."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from research import pipeline, services, steps  # noqa: F401  (steps registers the stages)
from research.artifacts import Crosscheck, Dimension, KeyPoint, Limits, Notes, Plan, SourceNotes
from research.llm import open_llm
from research.outcomes import Outcome
from research.stages.context import StageContext
from research.stages.crosscheck import cross_validate
from research.stages.llm_crosscheck import ModelReview
from research.store import RunStore
from tests.llm_stub import LLMStub, Reply

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "notes_en"

PLAN = Plan(
    question="Choose between Alderstream and Brightwell for our sync layer",
    options=["Alderstream", "Brightwell"],
    dimensions=[
        Dimension(name="reliability", weight=1),
        Dimension(name="learning curve", weight=1),
    ],
    sources=["local:x"],
    queries=[],
    limits=Limits(),
)

# (source id, site, published, [(sentence, option, dimension)])
PAGES = [
    (
        "s1",
        "https://alderstream.dev/docs/storage",
        "2025-01-10",
        [
            (
                "Alderstream keeps every write on disk, so nothing is lost when a node restarts.",
                "Alderstream",
                "reliability",
            ),
            ("Brightwell supports offline edits on every platform.", "Brightwell", "reliability"),
        ],
    ),
    (
        "s2",
        "https://queuetalk.org/t/queue-lost",
        "2025-03-02",
        [
            (
                "In our tests Alderstream held messages only in RAM and a restart wiped the queue.",
                "Alderstream",
                "reliability",
            ),
            ("Brightwell does not support offline edits on mobile.", "Brightwell", "reliability"),
        ],
    ),
    (
        "s3",
        "https://syncreview.net/brightwell",
        "2025-02-01",
        [
            (
                "Brightwell is easy to learn for anyone who knows SQL.",
                "Brightwell",
                "learning curve",
            ),
            ("Alderstream is hard to set up for newcomers.", "Alderstream", "learning curve"),
        ],
    ),
    (
        "s4",
        "https://weeknotes.io/brightwell",
        "2025-02-20",
        [
            (
                "Brightwell's query language took our team weeks to get comfortable with.",
                "Brightwell",
                "learning curve",
            ),
        ],
    ),
]

LOST = "Alderstream keeps every write on disk"
WIPED = "Alderstream held messages only in RAM"
OFFLINE_YES = "Brightwell supports offline edits"
OFFLINE_NO = "Brightwell does not support offline edits"
EASY = "Brightwell is easy to learn"
HARD = "Alderstream is hard to set up"
WEEKS = "Brightwell's query language took our team weeks"


def notes_and_pages() -> tuple[Notes, dict[str, str]]:
    sources, pages = [], {}
    for sid, url, published, sentences in PAGES:
        text, points = "# Notes\n\n", []
        for sentence, option, dimension in sentences:
            points.append(
                KeyPoint(
                    text=sentence,
                    quote=sentence,
                    offset=len(text),
                    option=option,
                    dimension=dimension,
                )
            )
            text += sentence + "\n\n"
        pages[sid] = text
        sources.append(
            SourceNotes(
                source_id=sid, url=url, published=published, status=Outcome.OK, key_points=points
            )
        )
    return Notes(sources=sources), pages


def events(store: RunStore, name: str) -> list[dict]:
    return [e for e in store.read_log() if e["event"] == name]


def message_of(body: dict) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def numbers(body: dict) -> tuple[dict[str, int], dict[tuple[int, int], int]]:
    """The key point number for each sentence start above, and the pair number for each
    pair of key point numbers, read from the message the model was sent."""
    points, pairs = {}, {}
    for line in message_of(body).splitlines():
        row = re.match(r"(\d+) \| [^|]+ \| [^|]+ \| [^|]+ \| (.*)", line)
        if row:
            points[row.group(2)] = int(row.group(1))
        pair = re.match(r"(\d+): (\d+) ~ (\d+)", line)
        if pair:
            a, b = int(pair.group(2)), int(pair.group(3))
            pairs[(a, b)] = pairs[(b, a)] = int(pair.group(1))
    return {
        start: next(n for t, n in points.items() if start in t)
        for start in (LOST, WIPED, OFFLINE_YES, OFFLINE_NO, EASY, HARD, WEEKS)
    }, pairs


def model(answer: Callable[[dict[str, int], dict[tuple[int, int], int]], dict]) -> Reply:
    """A stub reply made from the numbers in the request it answers."""
    return Reply(content=lambda body: json.dumps(answer(*numbers(body))))


def check(store: RunStore, ctx: StageContext, with_model: bool = True) -> Crosscheck:
    notes, pages = notes_and_pages()
    llm = open_llm(store, ctx, "crosscheck") if with_model else None
    reviewer = ModelReview(llm, PLAN, ctx) if llm is not None else None
    return cross_validate(PLAN, notes, pages, ctx, reviewer)


def claims_on(result: Crosscheck, start: str) -> list:
    return [c for c in result.claims if start in c.quote]


def no_pairs(kp: dict[str, int], pairs: dict) -> list[dict]:
    return [
        {"pair": n, "contradicts": False, "point": "", "cause": "", "note": ""}
        for n in sorted(set(pairs.values()))
    ]


# --- claims ---------------------------------------------------------------------------------


def test_the_model_reads_a_stance_the_reader_misses_and_agreeing_readings_are_one_claim(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_stub.script(
        model(
            lambda kp, pairs: {
                "stances": [
                    {
                        "kp": kp[WEEKS],
                        "option": "Brightwell",
                        "dimension": "learning curve",
                        "polarity": -1,
                    },
                    {
                        "kp": kp[EASY],
                        "option": "brightwell",
                        "dimension": "Learning Curve",
                        "polarity": 1,
                    },
                ],
                "facts": [],
                "pairs": no_pairs(kp, pairs),
            }
        )
    )
    result = check(store, ctx)
    [weeks] = claims_on(result, WEEKS)
    assert (weeks.option, weeks.dimension, weeks.polarity) == ("Brightwell", "learning curve", -1)
    assert weeks.origin == "model" and weeks.flag is None
    assert weeks.quote == "Brightwell's query language took our team weeks to get comfortable with."
    _, pages = notes_and_pages()
    assert pages["s4"][weeks.offset : weeks.offset + len(weeks.quote)] == weeks.quote
    [easy] = claims_on(result, EASY)  # the reader's, agreed: one claim
    assert easy.origin == "reader" and easy.polarity == 1
    assert [c.id for c in result.claims] == [f"c{n:03d}" for n in range(1, len(result.claims) + 1)]
    # Without the model, the thin cell had one claim; now two sources speak to it.
    without = check(store, StageContext(), with_model=False)
    assert not claims_on(without, WEEKS)
    assert not any(
        g.option == "Brightwell" and g.dimension == "learning curve" for g in result.gaps
    )


def test_a_model_reading_the_stored_text_contradicts_is_flagged_and_left_out(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_stub.script(
        model(
            lambda kp, pairs: {
                "stances": [
                    {
                        "kp": kp[HARD],
                        "option": "Alderstream",
                        "dimension": "learning curve",
                        "polarity": 1,
                    },
                ],
                "facts": [
                    {
                        "kp": kp[LOST],
                        "option": "Alderstream",
                        "attribute": "licence",
                        "value": "MIT License",
                    }
                ],
                "pairs": no_pairs(kp, pairs),
            }
        )
    )
    result = check(store, ctx)
    flagged, reader = sorted(claims_on(result, HARD), key=lambda c: c.origin)
    assert (reader.origin, reader.polarity, reader.flag) == ("reader", -1, None)
    assert (flagged.origin, flagged.polarity) == ("model", 1)
    assert flagged.flag == (
        "the stored text reads the other way: “hard” reads as bad for Alderstream"
    )
    [logged] = events(store, "llm_claim_flagged")
    assert logged["model"] == 1 and logged["reader"] == -1
    # A typed value the reader does not read from the sentence is the model's, in the
    # reader's form.
    [licence] = [c for c in claims_on(result, LOST) if c.attribute == "licence"]
    assert (licence.value, licence.origin, licence.flag) == ("MIT", "model", None)
    # The flagged claim is not part of any agreement or disagreement.
    used = {s.claim_id for x in result.contradictions for s in (x.a, x.b, *x.a_also, *x.b_also)}
    used |= {i for k in result.consensus for i in k.claim_ids}
    assert flagged.id not in used


def test_claims_on_unknown_options_dimensions_or_key_points_are_dropped_and_logged(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_stub.script(
        model(
            lambda kp, pairs: {
                "stances": [
                    {
                        "kp": kp[WEEKS],
                        "option": "Cobaltline",
                        "dimension": "learning curve",
                        "polarity": -1,
                    },
                    {"kp": kp[WEEKS], "option": "Brightwell", "dimension": "price", "polarity": -1},
                    {
                        "kp": 99,
                        "option": "Brightwell",
                        "dimension": "learning curve",
                        "polarity": -1,
                    },
                ],
                "facts": [
                    {"kp": kp[LOST], "option": "Alderstream", "attribute": "mood", "value": "sunny"}
                ],
                "pairs": [],
            }
        )
    )
    result = check(store, ctx)
    without = check(store, StageContext(), with_model=False)
    assert result.model_dump() == without.model_dump()
    reasons = [e["reason"] for e in events(store, "llm_claim_dropped")]
    assert reasons == [
        "'Cobaltline' is not one of the plan's options",
        "'price' is not one of the plan's dimensions",
        "key point 99 was not in the message",
        "'mood' = 'sunny' is not a value Verdict compares",
    ]


# --- contradictions -------------------------------------------------------------------------


def test_the_model_finds_a_contradiction_in_other_words_and_settles_the_readers(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    def answer(kp, pairs):
        verdicts = no_pairs(kp, pairs)
        for v in verdicts:
            if v["pair"] == pairs[(kp[LOST], kp[WIPED])]:
                v.update(
                    contradicts=True,
                    point="writes survive a restart",
                    cause="error",
                    note="one keeps writes on disk, the other lost them on restart",
                )
            if v["pair"] == pairs[(kp[OFFLINE_YES], kp[OFFLINE_NO])]:
                v.update(note="one speaks of every platform, the other of mobile only")
        return {"stances": [], "facts": [], "pairs": verdicts}

    llm_stub.script(model(answer))
    result = check(store, ctx)
    without = check(store, StageContext(), with_model=False)
    [found] = [x for x in result.contradictions if x.judged_by == "model"]
    assert found.option == "Alderstream" and found.attribute == "writes survive a restart"
    assert LOST in found.a.quote and WIPED in found.b.quote
    assert found.cause == "error"
    assert found.note == (
        "On “writes survive a restart”, alderstream.dev and queuetalk.org "
        "disagree: one keeps writes on disk, the other lost them on restart."
    )
    # The reader's own contradiction, which the model disputes, stays, with its view.
    [offline] = [x for x in result.contradictions if x.judged_by == "reader"]
    [before] = without.contradictions
    assert offline.a == before.a and offline.b == before.b
    assert offline.note == before.note + (
        " Read by the model, the two sentences do not disagree: one speaks of every "
        "platform, the other of mobile only."
    )
    assert events(store, "llm_contradiction_disputed")[0]["id"] == offline.id
    sent = llm_stub.requests[0]
    assert re.search(r"\d+: \d+ ~ \d+ \(Brightwell\) listed", message_of(sent.body))


# --- the reader's result whenever the model fails -------------------------------------------


def test_a_malformed_answer_leaves_the_readers_result_and_is_logged(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_stub.default = Reply(content="Here are the claims: Brightwell is hard to learn.")
    result = check(store, ctx)
    without = check(store, StageContext(), with_model=False)
    assert result.model_dump() == without.model_dump()
    [fallback] = events(store, "llm_fallback")
    assert fallback["fallback"] == "the reader's claims and contradictions for these key points"
    [summary] = events(store, "llm_claims")
    assert summary["fallback"] == "the reader's claims" and len(summary["unanswered"]) == 7


def test_a_spent_budget_leaves_the_readers_result_and_the_manifest_says_so(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_settings.LLM_MAX_TOKENS_PER_RUN = 300
    llm_stub.default = Reply(content=json.dumps({"stances": [], "facts": [], "pairs": []}))
    result = check(store, ctx)
    without = check(store, StageContext(), with_model=False)
    assert result.model_dump() == without.model_dump()
    assert not llm_stub.requests
    assert store.index()["analysis"]["budget_exhausted"]["stage"] == "crosscheck"
    assert events(store, "llm_fallback")[0]["outcome"] == "BLOCKED"


def test_the_prompt_is_the_stage_prompt_mcp_serves_without_its_tools(
    llm_settings, llm_stub: LLMStub, store, ctx, settings
):
    llm_stub.default = Reply(content=json.dumps({"stances": [], "facts": [], "pairs": []}))
    check(store, ctx)
    system = llm_stub.requests[0].messages[0]["content"]
    stage_prompt = Path(settings.BASE_DIR, "templates", "prompts", "cross_validate.md.j2")
    method = [
        line.strip()
        for line in stage_prompt.read_text().split("## Method", 1)[1].splitlines()
        if line.strip() and "{" not in line
    ]
    assert method and all(line in system for line in method)
    assert "Include contradictions against what the user seems to expect" in system
    assert "Options: Alderstream; Brightwell. Dimensions: reliability; learning curve." in system
    # Only the key points go out, each once, cut short: never a whole page.
    sent = message_of(llm_stub.requests[0].body)
    assert sent.count(HARD) == 1 and "# Notes" not in sent


# --- end to end, and what it costs ----------------------------------------------------------


def answer_everything(body: dict) -> str:
    """A model that takes every other key point as praise and every listed pair as a
    contradiction: answers about as long as a real model's."""
    text = message_of(body)
    kps = [int(n) for n in re.findall(r"^(\d+) \|", text, re.M)]
    options = dict(re.findall(r"^(\d+) \| ([^|]+?) \|", text, re.M))
    dims = dict(re.findall(r"^(\d+) \| [^|]+ \| ([^|]+?) \|", text, re.M))
    pairs = re.findall(r"^(\d+): \d+ ~ \d+ \(([^)]+)\)( listed)?", text, re.M)
    stances = [
        {"kp": n, "option": options[str(n)], "dimension": dims[str(n)], "polarity": 1}
        for n in kps[::2]
        if dims[str(n)] != "-"
    ]
    verdicts = [
        {
            "pair": int(n),
            "contradicts": bool(listed),
            "point": "the same point" if listed else "",
            "cause": "error" if listed else "",
            "note": "they cannot both hold" if listed else "",
        }
        for n, _, listed in pairs
    ]
    return json.dumps({"stances": stances, "facts": [], "pairs": verdicts})


@pytest.mark.django_db
def test_a_run_cross_validates_eight_pages_within_its_token_share(
    settings, llm_stub: LLMStub, capsys
):
    run = services.create_run(
        question="For our notes app, choose between Quillsync, Loamdb and Tessera",
        options=["Quillsync", "Loamdb", "Tessera"],
        dimensions=[{"name": "licence", "weight": 0.5}, {"name": "maintenance", "weight": 0.5}],
        preset="",
        sources=[f"local:{CORPUS}"],
        limits={"max_candidates": 25, "max_kept": 12, "max_pages": 8, "max_page_chars": 12_000},
    )
    for stage in ("retrieve", "filter", "deepread"):
        pipeline.execute_stage(run.run_id, stage)
    store = services.store_for(run.run_id)
    settings.LLM_BASE_URL = llm_stub.base_url
    settings.LLM_MODEL = "stub-model"
    settings.LLM_STAGE_MODELS = {}
    settings.LLM_MAX_TOKENS_PER_RUN = 15_000
    settings.LLM_CONCURRENCY = 4
    settings.LLM_TIMEOUT = 5.0
    settings.LLM_RESPONSE_FORMAT = "auto"
    llm_stub.default = Reply(content=answer_everything)
    pipeline.execute_stage(run.run_id, "crosscheck")

    notes = store.read_json("round_3_notes.json")
    read = [s for s in notes["sources"] if s["status"] == "OK"]
    tokens = store.index()["tokens"]["crosscheck"]
    with capsys.disabled():
        print(
            f"\ncross-validate on {len(read)} pages, "
            f"{sum(len(s['key_points']) for s in read)} key points: {len(llm_stub.requests)} "
            f"call(s), {tokens['prompt']} prompt + {tokens['completion']} completion tokens"
        )
    assert len(read) == 8
    assert tokens["prompt"] + tokens["completion"] <= 2_500
    check_ = store.read_json("round_4_crosscheck.json")
    assert any(c["origin"] == "model" for c in check_["claims"])
    assert not events(store, "llm_fallback")
