"""Cross-validate with a model (the stub on 127.0.0.1): the claims it reads, the pairs it
judges, what the reader flags, and the reader's result whenever the model fails."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from research import services
from research.artifacts import (
    Crosscheck,
    Dimension,
    KeyPoint,
    Limits,
    Notes,
    Plan,
    Question,
    SourceNotes,
)
from research.context import StageContext
from research.llm import open_llm
from research.outcomes import Outcome
from research.runs import execute
from research.stages.crosscheck import cross_validate
from research.stages.llm_crosscheck import ModelReview, sending
from research.store import RunStore, store_for
from tests.llm_stub import LLMStub, Reply
from tests.runs import events

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
            (
                "Brightwell moved from the MIT licence to AGPL-3.0 in 2024.",
                "Brightwell",
                "reliability",
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
MOVED = "Brightwell moved from the MIT licence to AGPL-3.0"


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


def message_of(body: dict) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


Pairs = dict[frozenset[int], str]


def numbers(body: dict) -> tuple[dict[str, int], Pairs]:
    """The key point number of each sentence above, and the pairs sent (their key point
    numbers and option), read from the message the model was sent."""
    points, pairs = {}, {}
    for line in message_of(body).splitlines():
        row = re.match(r"(\d+) \| [^|]+ \| [^|]+ \| [^|]+ \| (.*)", line)
        if row:
            points[row.group(2)] = int(row.group(1))
        pair = re.match(r"(\d+) ~ (\d+) \((\w+)\)", line)
        if pair:
            pairs[frozenset((int(pair.group(1)), int(pair.group(2))))] = pair.group(3)
    starts = (LOST, WIPED, OFFLINE_YES, OFFLINE_NO, EASY, HARD, WEEKS, MOVED)
    return {s: n for s in starts for t, n in points.items() if s in t}, pairs


def model(answer: Callable[[dict[str, int], Pairs], dict]) -> Reply:
    """A stub reply made from the numbers in the request it answers."""
    return Reply(content=lambda body: json.dumps(answer(*numbers(body))))


def check(store: RunStore, ctx: StageContext, with_model: bool = True) -> Crosscheck:
    notes, pages = notes_and_pages()
    llm = open_llm(store, ctx, "crosscheck") if with_model else None
    reviewer = ModelReview(llm, PLAN, ctx) if llm is not None else None
    return cross_validate(PLAN, notes, pages, ctx, reviewer)


def claims_on(result: Crosscheck, start: str) -> list:
    return [c for c in result.claims if start in c.quote]


def verdict(a: int, b: int, option: str, contradicts: bool = False, **said: str) -> dict:
    return {
        "a": a,
        "b": b,
        "option": option,
        "contradicts": contradicts,
        "point": "",
        "cause": "",
        "note": "",
    } | said


def no_pairs(kp: dict[str, int], pairs: Pairs) -> list[dict]:
    return [verdict(*sorted(pair), option) for pair, option in pairs.items()]


# --- claims ---------------------------------------------------------------------------------


def test_the_model_reads_a_stance_the_reader_misses_and_its_readings_replace_the_readers(
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
    [easy] = claims_on(result, EASY)  # the model read it: its reading, not the reader's
    assert easy.read_by == "model" and easy.polarity == 1
    assert [c.id for c in result.claims] == [f"c{n:03d}" for n in range(1, len(result.claims) + 1)]
    # Without the model, the thin cell had one claim; now two sources speak to it.
    without = check(store, StageContext(), with_model=False)
    assert not claims_on(without, WEEKS)
    assert not any(
        g.option == "Brightwell" and g.dimension == "learning curve" for g in result.gaps
    )


def test_the_models_stance_stands_alone_and_a_typed_fact_read_otherwise_is_flagged(
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
                        "kp": kp[MOVED],
                        "option": "Brightwell",
                        "attribute": "licence",
                        "value": "MIT License",
                    },
                    {
                        "kp": kp[MOVED],
                        "option": "Brightwell",
                        "attribute": "release_date",
                        "value": "2024",
                    },
                    # Not in the sentence it was read from.
                    {
                        "kp": kp[LOST],
                        "option": "Alderstream",
                        "attribute": "licence",
                        "value": "Apache License 2.0",
                    },
                ],
                "pairs": no_pairs(kp, pairs),
            }
        )
    )
    result = check(store, ctx)
    # The rules never score a sentence the model read: its reading is the only stance.
    [stance] = [c for c in claims_on(result, HARD) if c.kind == "stance"]
    assert (stance.read_by, stance.polarity, stance.flag) == ("model", 1, None)
    [replaced] = events(store, "reader_stances_replaced")
    assert replaced["reason"] == "the model read these sentences: its readings stand for them"
    [typed] = events(store, "llm_claim_flagged")
    # The reader reads the licence the sentence moves to; the model, the one it leaves.
    licence = {c.origin: c for c in claims_on(result, MOVED) if c.attribute == "licence"}
    assert (licence["reader"].value, licence["reader"].flag) == ("AGPL-3.0", None)
    assert licence["model"].value == "MIT"  # in the reader's form
    assert licence["model"].flag == "the stored text reads otherwise: AGPL-3.0"
    assert typed["model"] == "MIT" and typed["reader"] == "AGPL-3.0"
    # A value the reader has none for is the model's own claim.
    [release] = [c for c in claims_on(result, MOVED) if c.attribute == "release_date"]
    assert (release.value, release.origin, release.flag) == ("2024", "model", None)
    assert not [c for c in claims_on(result, LOST) if c.attribute == "licence"]
    [dropped] = events(store, "llm_claim_dropped")
    assert dropped["reason"] == "the key point does not name it"
    # Flagged claims are not part of any agreement or disagreement.
    used = {s.claim_id for x in result.contradictions for s in (x.a, x.b, *x.a_also, *x.b_also)}
    used |= {i for k in result.consensus for i in k.claim_ids}
    assert licence["model"].id not in used


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
    # The model read the key points and gave no usable stance: none is scored, and the
    # rules' typed facts stand.
    assert not [c for c in result.claims if c.kind == "stance"]
    assert {c.read_by for c in result.claims} == {"rules"}
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
        assert frozenset((kp[LOST], kp[WIPED])) in pairs  # a near miss of the reader's
        assert frozenset((kp[OFFLINE_YES], kp[OFFLINE_NO])) in pairs  # the reader's own
        assert frozenset((kp[EASY], kp[WEEKS])) not in pairs
        return {
            "stances": [],
            "facts": [],
            "pairs": [
                verdict(
                    kp[WIPED],
                    kp[LOST],
                    "Alderstream",
                    True,
                    point="writes survive a restart",
                    cause="error",
                    note="one keeps writes on disk, the other lost them on restart",
                ),
                verdict(
                    kp[OFFLINE_YES],
                    kp[OFFLINE_NO],
                    "Brightwell",
                    note="one speaks of every platform, the other of mobile only",
                ),
                # Found by the model among the key points, beyond the pairs it was sent.
                verdict(
                    kp[EASY],
                    kp[WEEKS],
                    "Brightwell",
                    True,
                    point="how fast it is learnt",
                    cause="scope",
                    note="easy for SQL users, weeks for this team",
                ),
                # Two key points of one page are not two sources.
                verdict(
                    kp[LOST],
                    kp[OFFLINE_YES],
                    "Brightwell",
                    True,
                    point="storage",
                    cause="error",
                    note="x",
                ),
            ],
        }

    llm_stub.script(model(answer))
    result = check(store, ctx)
    without = check(store, StageContext(), with_model=False)
    found, learnt = [x for x in result.contradictions if x.judged_by == "model"]
    assert found.option == "Alderstream" and found.attribute == "writes survive a restart"
    assert LOST in found.a.quote and WIPED in found.b.quote  # in the order they were sent
    assert found.cause == "error"
    assert found.note == (
        "On “writes survive a restart”, alderstream.dev and queuetalk.org "
        "disagree: one keeps writes on disk, the other lost them on restart."
    )
    # The reader's own contradiction, which the model disputes, stays, with its view.
    [offline] = [x for x in result.contradictions if x.judged_by == "reader"]
    [before] = without.contradictions
    assert [(s.source_id, s.quote) for s in (offline.a, offline.b)] == [
        (s.source_id, s.quote) for s in (before.a, before.b)
    ]
    assert offline.note == before.note + (
        " Read by the model, the two sentences do not disagree: one speaks of every "
        "platform, the other of mobile only."
    )
    assert events(store, "llm_contradiction_disputed")[0]["id"] == offline.id
    assert (learnt.option, learnt.attribute, learnt.cause) == (
        "Brightwell",
        "how fast it is learnt",
        "scope",
    )
    assert EASY in learnt.a.quote and WEEKS in learnt.b.quote
    [dropped] = events(store, "llm_verdict_dropped")
    assert dropped["reason"] == "both key points come from one site"
    sent = llm_stub.requests[0]
    assert re.search(r"\d+ ~ \d+ \(Brightwell\) listed", message_of(sent.body))


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
    assert summary["fallback"] == "the reader's claims" and len(summary["unanswered"]) == 8


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


def test_a_budget_spent_after_the_first_call_leaves_the_rest_to_the_reader(
    llm_settings, llm_stub: LLMStub, store, ctx, monkeypatch
):
    monkeypatch.setattr(sending, "POINTS_PER_CALL", 4)
    llm_settings.LLM_CONCURRENCY = 1
    llm_settings.LLM_MAX_TOKENS_PER_RUN = 1_400

    def answer(kp, pairs):
        stances = [
            {"kp": kp[s], "option": "Brightwell", "dimension": "learning curve", "polarity": -1}
            for s in (WEEKS,)
            if s in kp
        ]
        verdicts = [
            verdict(
                *sorted(pair),
                option,
                True,
                point="writes survive a restart",
                cause="error",
                note="they cannot both hold",
            )
            for pair, option in pairs.items()
            if option == "Alderstream"
        ]
        return {"stances": stances, "facts": [], "pairs": verdicts}

    llm_stub.default = model(answer)
    result = check(store, ctx)
    [first] = llm_stub.requests
    assert LOST in message_of(first.body) and WEEKS not in message_of(first.body)
    # The first call's reading is used ...
    assert [x.attribute for x in result.contradictions if x.judged_by == "model"] == [
        "writes survive a restart"
    ]
    # ... and the key points of the call the budget refused keep the reader's claims.
    assert not claims_on(result, WEEKS)
    assert store.index()["analysis"]["budget_exhausted"]["stage"] == "crosscheck"
    [summary] = events(store, "llm_claims")
    assert len(summary["unanswered"]) == 4 and summary["fallback"] == "the reader's claims"


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


NOUNS = (
    "replication backups failover snapshots journaling checksums quorum leases heartbeats "
    "compaction tombstones hinted handoff repair gossip vnodes manifests segments watermarks "
    "throttling"
).split()


def twenty_pages(labelled: set[int]) -> tuple[Notes, dict[str, str]]:
    """Twenty pages on Alderstream's reliability, two key points each; the model labelled
    the key points of the pages in `labelled` in deep-read."""
    sources, pages = [], {}
    for n, noun in enumerate(NOUNS):
        text, points = "# Notes\n\n", []
        for sentence in (
            f"Alderstream handles {noun} well in a cluster.",
            f"The way Alderstream does {noun} pleased the reviewers.",
        ):
            origin = "model" if n in labelled else "reader"
            points.append(
                KeyPoint(
                    text=sentence,
                    quote=sentence,
                    offset=len(text),
                    option="Alderstream",
                    dimension="reliability",
                    origin=origin,
                )
            )
            text += sentence + "\n\n"
        sid = f"s{n:02d}"
        pages[sid] = text
        sources.append(
            SourceNotes(
                source_id=sid,
                url=f"https://site{n}.example.org/{noun}",
                published="2025-01-01",
                status=Outcome.OK,
                key_points=points,
            )
        )
    return Notes(sources=sources), pages


def test_the_model_gets_at_most_its_share_of_key_points_not_those_it_read_in_deep_read(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    llm_stub.default = Reply(content=json.dumps({"stances": [], "facts": [], "pairs": []}))
    notes, pages = twenty_pages(labelled={16, 17, 18, 19})
    llm = open_llm(store, ctx, "crosscheck")
    cross_validate(PLAN, notes, pages, ctx, ModelReview(llm, PLAN, ctx))

    [request] = llm_stub.requests  # forty key points on twenty pages: one call
    sent = re.findall(r"^\d+ \| .* \| (.*)$", message_of(request.body), re.M)
    assert len(sent) == sending.MAX_POINTS == 28
    assert len(re.findall(r"^\d+ ~ \d+", message_of(request.body), re.M)) <= 8
    # Every page the model has not read has its say; those it read in deep-read are not
    # sent again.
    per_page = Counter(
        next(
            s.source_id for s in notes.sources if any(kp.quote.startswith(t) for kp in s.key_points)
        )
        for t in (line.rstrip("…") for line in sent)
    )
    assert set(per_page) == {s.source_id for s in notes.sources} - {f"s{n}" for n in range(16, 20)}
    [summary] = events(store, "llm_claims")
    assert summary["sent"] == 28


# --- end to end, and what it costs ----------------------------------------------------------


def answer_everything(body: dict) -> str:
    """A model that takes every other key point as praise and every listed pair as a
    contradiction: answers about as long as a real model's."""
    text = message_of(body)
    kps = [int(n) for n in re.findall(r"^(\d+) \|", text, re.M)]
    options = dict(re.findall(r"^(\d+) \| ([^|]+?) \|", text, re.M))
    dims = dict(re.findall(r"^(\d+) \| [^|]+ \| ([^|]+?) \|", text, re.M))
    pairs = re.findall(r"^(\d+) ~ (\d+) \(([^)]+)\)( listed)?", text, re.M)
    stances = [
        {"kp": n, "option": options[str(n)], "dimension": dims[str(n)], "polarity": 1}
        for n in kps[::2]
        if dims[str(n)] != "-"
    ]
    verdicts = [
        verdict(
            int(a),
            int(b),
            option,
            bool(listed),
            point="the same point",
            cause="error",
            note="they cannot both hold as written",
        )
        if listed
        else verdict(int(a), int(b), option)
        for a, b, option, listed in pairs
    ]
    return json.dumps({"stances": stances, "facts": [], "pairs": verdicts})


@pytest.mark.django_db
def test_a_run_cross_validates_every_page_read_within_its_token_share(
    settings, llm_stub: LLMStub, capsys
):
    run = services.create_run(
        Question(
            question="For our notes app, choose between Quillsync, Loamdb and Tessera",
            options=["Quillsync", "Loamdb", "Tessera"],
            dimensions=[{"name": "licence", "weight": 0.5}, {"name": "maintenance", "weight": 0.5}],
            sources=[f"local:{CORPUS}"],
        )
    )
    for stage in ("retrieve", "filter", "deepread"):
        execute.execute_stage(run.run_id, stage)
    store = store_for(run.run_id)
    settings.LLM_BASE_URL = llm_stub.base_url
    settings.LLM_MODEL = "stub-model"
    settings.LLM_STAGE_MODELS = {}
    settings.LLM_MAX_TOKENS_PER_RUN = 15_000
    settings.LLM_CONCURRENCY = 4
    settings.LLM_TIMEOUT = 5.0
    settings.LLM_RESPONSE_FORMAT = "auto"
    llm_stub.default = Reply(content=answer_everything)
    execute.execute_stage(run.run_id, "crosscheck")

    notes = store.read_json("round_3_notes.json")
    read = [s for s in notes["sources"] if s["status"] == "OK"]
    tokens = store.index()["tokens"]["crosscheck"]
    with capsys.disabled():
        print(
            f"\ncross-validate on {len(read)} pages, "
            f"{sum(len(s['key_points']) for s in read)} key points: {len(llm_stub.requests)} "
            f"call(s), {tokens['prompt']} prompt + {tokens['completion']} completion tokens"
        )
    assert len(read) > 8  # every page the corpus has on the question, as without a model
    assert len(llm_stub.requests) == 1
    assert len(re.findall(r"^\d+ \|", message_of(llm_stub.requests[0].body), re.M)) == 28
    assert tokens["prompt"] + tokens["completion"] <= 2_500
    check_ = store.read_json("round_4_crosscheck.json")
    assert any(c["origin"] == "model" for c in check_["claims"])
    assert not events(store, "llm_fallback")


def test_an_answer_leaving_out_its_empty_lists_is_used_without_a_repair(
    llm_settings, llm_stub: LLMStub, store, ctx
):
    # Local models in JSON mode leave out a list they have nothing for.
    stance = {"option": "Brightwell", "dimension": "learning curve", "polarity": -1}
    llm_stub.script(model(lambda kp, pairs: {"stances": [{"kp": kp[WEEKS], **stance}]}))
    result = check(store, ctx)
    [weeks] = claims_on(result, WEEKS)
    assert (weeks.origin, weeks.polarity, weeks.flag) == ("model", -1, None)
    assert len(llm_stub.requests) == 1
    assert events(store, "llm_fallback") == []
