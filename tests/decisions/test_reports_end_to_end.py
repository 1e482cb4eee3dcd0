"""Whole questions, from the question to report.md, over local corpora and the test web."""

from __future__ import annotations

import shutil

import pytest

from decisions.report import SECTIONS
from tests.runs import CORPUS_EN, CORPUS_ZH, run_question

pytestmark = pytest.mark.django_db

NOTES_QUESTION = (
    "For our team's local-first notes app, choose between Quillsync, Loamdb and Tessera, "
    "weighing licence risk, maintenance activity and customisation cost"
)
NOTES_DIMENSIONS = [
    ("licence risk", 0.4),
    ("maintenance activity", 0.35),
    ("customisation cost", 0.25),
]


@pytest.fixture
def corpus_en(tmp_path):
    # A private copy: the local index is written next to the files it indexes.
    return shutil.copytree(CORPUS_EN, tmp_path / "notes_en")


@pytest.fixture
def corpus_zh(tmp_path):
    return shutil.copytree(CORPUS_ZH, tmp_path / "notes_zh")


def section(report: str, name: str) -> str:
    start = report.index(f"## {name}\n")
    end = report.find("\n## ", start + 1)
    return report[start : end if end != -1 else None]


def test_pages_that_disagree_on_a_licence_and_a_status_are_flagged_with_both_quotes(corpus_en):
    run, store = run_question(NOTES_QUESTION, [f"local:{corpus_en}"], dimensions=NOTES_DIMENSIONS)
    assert run.status == "done"
    check = store.read_json("round_4_crosscheck.json")
    topics = {(x["option"], x["attribute"]) for x in check["contradictions"]}
    assert ("Loamdb", "licence") in topics
    assert ("Tessera", "maintenance") in topics
    flagged = section(store.read_text("report.md"), "Contradictions and consensus")
    for x in check["contradictions"]:
        if (x["option"], x["attribute"]) in {("Loamdb", "licence"), ("Tessera", "maintenance")}:
            assert x["a"]["quote"] in flagged and x["b"]["quote"] in flagged
    assert "Loamdb switched to the Business Source License (BSL) in 2024" in flagged
    assert "Tessera is actively maintained, with releases every month." in flagged


def test_a_full_report_has_every_section_in_order_and_a_recommendation(corpus_en):
    _, store = run_question(NOTES_QUESTION, [f"local:{corpus_en}"], dimensions=NOTES_DIMENSIONS)
    report = store.read_text("report.md")
    positions = [report.index(f"## {name}\n") for name in SECTIONS]
    assert positions == sorted(positions)
    decision = store.read_json("round_5_decision.json")
    assert decision["recommendation"]["option"] == "Quillsync"
    assert decision["ranking"][0]["option"] == "Quillsync"
    assert "Recommendation: Quillsync" in section(report, "Recommendation")


def test_every_quote_in_the_report_is_found_verbatim_in_the_page_it_cites(corpus_en):
    from decisions.quality import report_quotes

    _, store = run_question(NOTES_QUESTION, [f"local:{corpus_en}"], dimensions=NOTES_DIMENSIONS)
    verified, total = report_quotes(store.path)
    assert total > 20
    assert verified == total


def test_a_thin_evidence_run_is_low_confidence_and_says_so_on_its_first_line(tmp_path):
    corpus = tmp_path / "thin"
    corpus.mkdir()
    (corpus / "one.md").write_text(
        "---\nurl: https://blog.example.net/brookline-notes\ntitle: Brookline MQ notes\n"
        "published: 2021-03-01\n---\n\nBrookline MQ is easy to run and its licence risk is "
        "low because it is MIT licensed. Brookline MQ has a small community.\n",
        encoding="utf-8",
    )
    _, store = run_question(
        "Brookline MQ or Cobaltbus?",
        [f"local:{corpus}"],
        dimensions=[("licence risk", 1), ("community activity", 1)],
    )
    report = store.read_text("report.md")
    decision = store.read_json("round_5_decision.json")
    assert decision["assessment"]["confidence"] < 65
    first, second = report.splitlines()[:2]
    assert first.startswith("> **Low confidence")
    assert "not fit for direct decision use" in first
    assert "would raise" in second
    missing = decision["missing_information"]
    assert any("Cobaltbus" in item for item in missing)
    assert all(f"> - {item}" in report for item in missing)


def test_with_every_source_down_there_is_no_recommendation_and_the_report_says_why(testweb):
    testweb.add("/search", "upstream down", status=500, content_type="text/plain")
    run, store = run_question(
        "Brookline MQ vs Cobaltbus", [f"searxng:{testweb.base}"], dimensions=[("cost", 1)]
    )
    assert run.status == "done"
    decision = store.read_json("round_5_decision.json")
    assert decision["recommendation"]["option"] is None
    assert decision["assessment"]["confidence"] == 0
    report = store.read_text("report.md")
    assert report.startswith("> **Low confidence (0/100")
    assert "**No recommendation.**" in report
    background = section(report, "Background")
    assert "could not be reached" in background
    assert "UNAVAILABLE" in background
    assert "Recommendation:" not in report


def test_pages_that_cannot_be_fetched_are_reported_as_unreachable_not_as_empty(
    testweb, allow_loopback
):
    titles = [
        "Brookline MQ pricing explained",
        "Cobaltbus cost calculator",
        "What we pay for Brookline MQ and Cobaltbus",
    ]
    urls = [testweb.add(f"/gone/{n}", "", drop_connection=True) for n in range(3)]
    testweb.add_searxng(
        lambda q: [
            {"url": u, "title": t, "content": "Brookline MQ cost"}
            for u, t in zip(urls, titles, strict=True)
        ]
    )
    _, store = run_question(
        "Brookline MQ vs Cobaltbus", [f"searxng:{testweb.base}"], dimensions=[("cost", 1)]
    )
    decision = store.read_json("round_5_decision.json")
    assert decision["recommendation"]["option"] is None
    assert len([u for u in decision["unreachable"] if "UNAVAILABLE" in u]) == 3
    assert "No evidence on Brookline MQ x cost" in decision["missing_information"]


def test_a_chinese_question_runs_end_to_end(corpus_zh):
    run, store = run_question(
        "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？", [f"local:{corpus_zh}"]
    )
    assert run.status == "done"
    plan = store.read_json("round_0_plan.json")
    assert plan["language"] == "zh"
    assert plan["options"] == ["青鸟流程", "河图引擎", "星轨调度"]
    check = store.read_json("round_4_crosscheck.json")
    topics = {(x["option"], x["attribute"]) for x in check["contradictions"]}
    assert ("河图引擎", "licence") in topics
    assert ("星轨调度", "maintenance") in topics
    assert any(k["option"] == "青鸟流程" and k["value"] == "MIT" for k in check["consensus"])
    report = store.read_text("report.md")
    assert "河图引擎已改为 AGPL-3.0 许可证" in section(report, "Contradictions and consensus")
    assert store.read_json("round_5_decision.json")["recommendation"]["option"] is not None
