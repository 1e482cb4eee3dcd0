"""The decide stage with a model (the stub on 127.0.0.1): the model gives each cell's lean,
citing claims; what it may not cite is dropped; flagged claims count in no score."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from decisions.scoring.cell import score_cell
from decisions.scoring.judgement import ModelLean
from decisions.scoring.sources import source_infos
from research.artifacts import (
    STAGES,
    Candidates,
    Claim,
    Contradiction,
    ContradictionSide,
    Crosscheck,
    Dimension,
    Filtered,
    KeptCandidate,
    Limits,
    Notes,
    Plan,
    SourceNotes,
)
from research.context import StageContext
from research.names import CANDIDATES, CROSSCHECK, DECISION, FILTERED, NOTES, PLAN, REPORT
from research.outcomes import Outcome
from research.runs.runners.decide import run_decide
from research.store import RunStore
from research.web.report.report_page import report_page
from research.web.report.run_files import load
from tests.llm_stub import LLMStub, Received, Reply
from tests.runs import events

OPTIONS = ["Quillsync", "Loamdb"]
DIMENSIONS = ["licence risk", "maintenance"]
FLAG = "the reader finds this sentence negative about Quillsync, not positive"
PAGES = {
    "s1": (
        "https://quillsync.dev/docs/licensing",
        "Quillsync licensing",
        "Quillsync is released under the Apache License 2.0. Commercial use needs no "
        "separate agreement.",
    ),
    "s2": (
        "https://devnotes.example.org/sync-engines",
        "Comparing sync engines",
        "Quillsync ships a release every month and its maintainers answer issues within "
        "days. Loamdb moved to the Business Source License in 2024, which restricts hosted "
        "use. Quillsync dropped support for older storage formats without warning.",
    ),
    "s3": (
        "https://forum.example.net/t/loamdb-licence",
        "Loamdb licence thread",
        "As far as I can tell Loamdb is still MIT licensed. Loamdb had three releases this "
        "year and the tracker is busy.",
    ),
}


def claim(n: int, option: str, dimension: str, sid: str, quote: str, **kw) -> Claim:
    fields = {"attribute": "stance", "kind": "stance", "value": "positive", "polarity": 1}
    fields.update(kw)
    return Claim(
        id=f"k{n:02d}",
        option=option,
        dimension=dimension,
        source_id=sid,
        quote=quote,
        offset=PAGES[sid][2].index(quote),
        **fields,
    )


def licence(n: int, option: str, sid: str, quote: str, value: str, polarity: int = 0) -> Claim:
    return claim(
        n, option, "licence risk", sid, quote, attribute="licence", kind="fact", value=value,
        polarity=polarity,
    )  # fmt: skip


APACHE = "Quillsync is released under the Apache License 2.0."
CLAIMS = [
    licence(1, "Quillsync", "s1", APACHE, "Apache-2.0"),
    claim(
        2,
        "Quillsync",
        "maintenance",
        "s2",
        "Quillsync ships a release every month and its maintainers answer issues within days.",
    ),
    licence(
        3,
        "Loamdb",
        "s2",
        "Loamdb moved to the Business Source License in 2024, which restricts hosted use.",
        "BUSL-1.1",
        -1,
    ),
    # Read off the page by the model, unflagged: it counts, and is marked where it shows.
    licence(
        4, "Loamdb", "s3", "As far as I can tell Loamdb is still MIT licensed.", "MIT"
    ).model_copy(update={"origin": "model"}),
    claim(
        5,
        "Loamdb",
        "maintenance",
        "s3",
        "Loamdb had three releases this year and the tracker is busy.",
    ),
    # The model read this one as praise; the reader reads it the other way: flagged.
    claim(
        6,
        "Quillsync",
        "maintenance",
        "s2",
        "Quillsync dropped support for older storage formats without warning.",
        origin="model",
        flag=FLAG,
    ),
]
CONTRADICTION = Contradiction(
    id="x01",
    option="Loamdb",
    attribute="licence",
    dimension="licence risk",
    a=ContradictionSide(claim_id="k03", source_id="s2", quote=CLAIMS[2].quote),
    b=ContradictionSide(claim_id="k04", source_id="s3", quote=CLAIMS[3].quote),
    note="BUSL-1.1 and MIT",
    judged_by="model",
)


def make_store(root: Path, run_id: str = "run-decide") -> RunStore:
    """A run whose first four stages are done: the decide stage reads these files alone."""
    store = RunStore(root / "runs", run_id)
    store.create({"question": "For our notes app, choose between Quillsync and Loamdb"}, STAGES)
    plan = Plan(
        question="For our notes app, choose between Quillsync and Loamdb",
        options=OPTIONS,
        dimensions=[Dimension(name=d, weight=0.5) for d in DIMENSIONS],
        sources=["local:/corpus"],
        queries=[],
        limits=Limits(),
    )
    kept = [
        KeptCandidate(
            id=sid, url=url, title=title, snippet="", provider="local", query="q01", rank=n,
            score=50.0, reasons=[],
        )
        for n, (sid, (url, title, _)) in enumerate(PAGES.items(), 1)
    ]  # fmt: skip
    sources = [
        SourceNotes(
            source_id=sid, url=url, title=title, published="2025-04-02", site=url.split("/")[2],
            status=Outcome.OK, chars=len(text), page=f"round_3_pages/{sid}.md",
        )
        for sid, (url, title, text) in PAGES.items()
    ]  # fmt: skip
    store.write_json(PLAN, plan)
    store.write_json(CANDIDATES, Candidates(candidates=kept))
    store.write_json(FILTERED, Filtered(kept=kept, dropped=[]))
    store.write_texts({f"round_3_pages/{sid}.md": text for sid, (_, _, text) in PAGES.items()})
    store.write_json(NOTES, Notes(sources=sources))
    check = Crosscheck(claims=CLAIMS, consensus=[], contradictions=[CONTRADICTION], gaps=[])
    store.write_json(CROSSCHECK, check)
    return store


def decided(store: RunStore) -> tuple[dict, str]:
    run_decide(store, StageContext(log=store.log))
    return store.read_json(DECISION), store.read_text(REPORT)


def cells(decision: dict) -> dict[tuple[str, str], dict]:
    return {(c["option"], c["dimension"]): c for c in decision["matrix"]}


def judge(choose: Callable[[dict], dict | None]) -> Reply:
    """A model that judges each cell sent with `choose(cell)`: {"base", "claim_ids"}."""

    def content(body: dict) -> str:
        judged = []
        for cell in Received(body, {}, 0.0).user["cells"]:
            said = choose(cell)
            if said is not None:
                judged.append({"cell": cell["cell"], **said})
        return json.dumps({"cells": judged})

    return Reply(content=content)


@pytest.fixture
def deterministic(tmp_path: Path, settings) -> dict:
    """The same run decided without a model."""
    settings.LLM_BASE_URL = ""
    decision, _ = decided(make_store(tmp_path / "plain"))
    return cells(decision)


def test_the_models_lean_is_shrunk_like_the_rules_and_its_bad_citations_are_dropped(
    deterministic, llm_settings, llm_stub: LLMStub, tmp_path
):
    def choose(cell: dict) -> dict | None:
        key = (cell["option"], cell["dimension"])
        if key == ("Quillsync", "licence risk"):
            return {"base": 85, "claim_ids": ["k01"]}
        if key == ("Loamdb", "licence risk"):
            return {"base": 30, "claim_ids": ["k03", "k99"]}  # k99: no such claim
        if key == ("Quillsync", "maintenance"):
            return {"base": 20, "claim_ids": ["k06"]}  # the flagged claim
        return None  # Loamdb / maintenance: left unjudged

    llm_stub.default = judge(choose)
    store = make_store(tmp_path)
    decision, report = decided(store)
    matrix = cells(decision)

    # Used: the model's 85 replaces the rules' lean (none: a licence fact takes no side)
    # and is shrunk by the weight of the one primary page it cited (0.9).
    quill = matrix[("Quillsync", "licence risk")]
    assert quill["model_base"] == 85 and quill["model_claim_ids"] == ["k01"]
    assert quill["evidence_weight"] == 0.9
    assert quill["base"] == round(50 + 35 * 0.9 / 1.9, 1) == 66.6
    assert deterministic[("Quillsync", "licence risk")]["base"] == 50.0
    assert quill["raw_base"] is None  # the rules' lean, kept for comparison
    assert quill["score"] > deterministic[("Quillsync", "licence risk")]["score"]
    assert quill["notes"][0].startswith("the model gave the lean, 85.0, citing k01: base = 50")
    rules = "for comparison, the rules alone: no source takes a side, so base is 50"
    assert quill["notes"][1] == rules

    # Dropped: a cited id that is not the cell's, and a flagged claim. The rules decide.
    not_sent = "it cited k99, which is not one of the claims sent for this cell"
    for key, reason in [
        (("Loamdb", "licence risk"), not_sent),
        (("Quillsync", "maintenance"), f"it cited k06, a flagged claim: {FLAG}"),
    ]:
        cell = matrix[key]
        assert cell["model_base"] is None and cell["model_claim_ids"] == []
        assert cell["base"] == deterministic[key]["base"]
        assert f"the model's judgement of this cell was not used ({reason})" in cell["notes"][1]
    dropped = {
        (e["option"], e["dimension"]): e["reason"] for e in events(store, "llm_judgement_dropped")
    }
    assert dropped[("Loamdb", "licence risk")] == not_sent
    [unjudged] = events(store, "llm_unjudged")
    assert unjudged["cells"] == ["Loamdb / maintenance"]
    assert matrix[("Loamdb", "maintenance")] == deterministic[("Loamdb", "maintenance")]

    # The report says the model gave one lean of four, and how.
    assert "the model gave the lean (the judgement before it is shrunk toward 50" in report
    assert "of 1 of the 4 cells with evidence" in report
    assert "the model gave the lean, 85.0, citing k01" in report
    assert decision["mode"] == "llm" and decision["model"] == "stub-model"
    assert store.index()["tokens"]["decide"]["prompt"] == llm_stub.prompt_tokens


def test_a_flagged_claim_is_shown_with_its_flag_and_counts_in_no_score(
    deterministic, llm_settings, llm_stub: LLMStub, tmp_path
):
    llm_stub.default = judge(lambda cell: None)
    store = make_store(tmp_path)
    decision, report = decided(store)
    maintenance = cells(decision)[("Quillsync", "maintenance")]
    # One positive page alone: as if the flagged claim were not there at all.
    assert maintenance["claim_ids"] == ["k02"]
    assert maintenance["base"] == deterministic[("Quillsync", "maintenance")]["base"]
    [flagged] = events(store, "claim_flagged")
    assert flagged["claim_id"] == "k06" and flagged["flag"] == FLAG
    line = next(line for line in report.splitlines() if "`k06`" in line)
    assert "(read by the model)" in line
    assert f"flagged, left out of the scores: {FLAG}" in line
    assert line.endswith(f"[2] “{CLAIMS[5].quote}”")
    # What the model saw: the cell's counted claims, never the flagged one.
    sent = {c["id"] for cell in llm_stub.requests[0].user["cells"] for c in cell["claims"]}
    assert sent == {"k01", "k02", "k03", "k04", "k05"}
    # The contradiction the model judged says so, and so does the side the model read.
    assert "(`x01`) (judged by the model):" in report
    assert f"    - (read by the model): [3] “{CLAIMS[3].quote}”" in report.splitlines()
    assert f"`k04` licence: MIT (read by the model): [3] “{CLAIMS[3].quote}”" in report


def test_a_malformed_answer_leaves_every_cell_to_the_rules(
    deterministic, llm_settings, llm_stub: LLMStub, tmp_path
):
    llm_stub.default = Reply(content="The cells look fine to me: Quillsync wins.")
    store = make_store(tmp_path)
    decision, report = decided(store)
    assert cells(decision) == deterministic
    [fallback] = events(store, "llm_fallback")
    assert fallback["task"] == "decide"
    assert fallback["fallback"] == "the rules' lean for these cells"
    assert len(llm_stub.requests) == 2  # the answer and its one repair
    # No answer of the model was used anywhere in the run: the report claims no help.
    assert (
        "· deterministic analysis: the model (stub-model) was configured, but none of its "
        "answers was used ·"
    ) in report
    assert "LLM-assisted" not in report


def test_with_the_budget_spent_the_rules_decide_and_the_run_says_where_it_stopped(
    deterministic, llm_settings, llm_stub: LLMStub, tmp_path
):
    llm_settings.LLM_MAX_TOKENS_PER_RUN = 200  # less than the prompt alone
    llm_stub.default = judge(lambda cell: {"base": 99, "claim_ids": [cell["claims"][0]["id"]]})
    store = make_store(tmp_path)
    decision, _ = decided(store)
    assert cells(decision) == deterministic
    assert not llm_stub.requests
    exhausted = store.index()["analysis"]["budget_exhausted"]
    assert exhausted["stage"] == "decide" and exhausted["task"] == "decide"
    [fallback] = events(store, "llm_fallback")
    assert fallback["outcome"] == "BLOCKED"


def test_the_decide_prompt_is_the_stage_prompt_mcp_serves_and_the_claims_are_compact(
    llm_settings, llm_stub: LLMStub, tmp_path, settings
):
    llm_stub.default = judge(lambda cell: None)
    decided(make_store(tmp_path))
    [request] = llm_stub.requests
    system = request.messages[0]["content"]
    stage_prompt = Path(settings.BASE_DIR, "templates", "prompts", "decide.md.j2").read_text()
    method = [
        re.sub(r"^\d+\. ", "", line.strip())
        for line in stage_prompt.split("## Method", 1)[1].splitlines()
        if line.strip() and "{" not in line
    ]
    assert method and all(line in system for line in method)
    assert "follow_run" not in system
    sent = request.user["cells"]
    assert [(c["option"], c["dimension"]) for c in sent] == [
        ("Quillsync", "licence risk"),
        ("Quillsync", "maintenance"),
        ("Loamdb", "licence risk"),
        ("Loamdb", "maintenance"),
    ]
    k03 = next(c for cell in sent for c in cell["claims"] if c["id"] == "k03")
    assert k03 == {
        "id": "k03",
        "says": "licence: BUSL-1.1",
        "polarity": -1,
        "site": "example.org",
        "quote": CLAIMS[2].quote,
    }
    assert request.body["max_tokens"] <= 40 + 30 * 4


def test_the_report_page_marks_the_models_work_and_shows_flagged_claims_apart(
    llm_settings, llm_stub: LLMStub, tmp_path
):
    llm_stub.default = judge(lambda cell: {"base": 80, "claim_ids": [cell["claims"][0]["id"]]})
    store = make_store(tmp_path)
    decided(store)
    page = report_page(load(store), lambda source_id: f"/evidence/{source_id}")
    matrix = render_to_string("web/report/_matrix.html", page)
    debate = render_to_string("web/report/_contradictions.html", page)

    assert "the model gave the lean (the judgement before it is shrunk" in page["model_leans"]
    flagged = re.search(r'<li class="flagged">(.*?)</li>', matrix, re.S)
    assert flagged, matrix
    assert "<code>k06</code>" in flagged.group(1) and "read by the model" in flagged.group(1)
    assert "flagged, left out of the scores: the reader finds this sentence" in flagged.group(1)
    assert "the model gave the lean, 80.0, citing k01" in matrix
    assert "judged by the model" in debate


def test_a_chinese_run_explains_the_models_lean_in_chinese():
    sources = source_infos(
        Notes(
            sources=[
                SourceNotes(
                    source_id="s1", url=PAGES["s1"][0], title=PAGES["s1"][1],
                    published="2025-04-02", status=Outcome.OK,
                )
            ]
        ),
        OPTIONS,
        "zh",
    )  # fmt: skip
    cell = score_cell(
        "Quillsync",
        "licence risk",
        [CLAIMS[0]],
        sources,
        [],
        date(2025, 6, 1),
        "zh",
        lean=ModelLean(85.0, ("k01",)),
    )
    assert cell.base == 66.6 and cell.model_base == 85.0
    assert cell.notes[0].startswith("倾向由模型给出，为 85.0，依据论断 k01：基础分 = 50")
    assert cell.notes[1] == "作为对照，仅按规则：没有来源表明立场，基础分取 50"


def test_a_lean_that_goes_against_the_claims_it_cites_is_dropped_and_the_rules_decide(
    deterministic, llm_settings, llm_stub: LLMStub, tmp_path
):
    def choose(cell: dict) -> dict | None:
        key = (cell["option"], cell["dimension"])
        if key == ("Quillsync", "maintenance"):
            return {"base": 0, "claim_ids": ["k02"]}  # k02 praises it: a hostile answer
        if key == ("Loamdb", "licence risk"):
            return {"base": 90, "claim_ids": ["k03"]}  # k03 is against Loamdb
        if key == ("Loamdb", "maintenance"):
            return {"base": 55, "claim_ids": ["k05"]}  # about even: agrees with anything
        return {"base": 5, "claim_ids": ["k01"]}  # k01 takes no side: any lean may stand

    llm_stub.default = judge(choose)
    store = make_store(tmp_path)
    decision, _ = decided(store)
    matrix = cells(decision)

    against = {
        ("Quillsync", "maintenance"): (
            "its lean, 0, is against the option, but what it cites (k02) is for it"
        ),
        ("Loamdb", "licence risk"): (
            "its lean, 90, is for the option, but what it cites (k03) is against it"
        ),
    }
    for key, reason in against.items():
        cell = matrix[key]
        assert cell["model_base"] is None, key
        assert cell["base"] == deterministic[key]["base"]
        assert f"the model's judgement of this cell was not used ({reason})" in cell["notes"][1]
    dropped = {
        (e["option"], e["dimension"]): e["reason"] for e in events(store, "llm_judgement_dropped")
    }
    assert dropped == against
    assert matrix[("Loamdb", "maintenance")]["model_base"] == 55
    assert matrix[("Quillsync", "licence risk")]["model_base"] == 5
