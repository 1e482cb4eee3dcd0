"""Whole questions, from the question to report.md, over local corpora and the test web."""

from __future__ import annotations

import re
import shutil

import pytest

from reports.check import SECTIONS, ReportIncomplete, validate
from reports.strings import HEADINGS
from research.artifacts import Notes
from research.store import readers
from tests.runs import CORPUS_EN, CORPUS_ZH, run_question
from tools.quality.pairs import report_quotes

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
ZH_QUESTION = "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？"


@pytest.fixture
def corpus_en(tmp_path):
    # A private copy: the local index is written next to the files it indexes.
    return shutil.copytree(CORPUS_EN, tmp_path / "notes_en")


@pytest.fixture
def corpus_zh(tmp_path):
    return shutil.copytree(CORPUS_ZH, tmp_path / "notes_zh")


@pytest.fixture
def always_low(settings):
    """Every run falls below the threshold, so every report must open with the warning."""
    settings.CONFIDENCE_THRESHOLD = 101


def run_in(language: str, corpus_en, corpus_zh):
    if language == "zh":
        return run_question(ZH_QUESTION, [f"local:{corpus_zh}"])
    return run_question(NOTES_QUESTION, [f"local:{corpus_en}"], dimensions=NOTES_DIMENSIONS)


def section(report: str, section_id: str, language: str = "en") -> str:
    start = report.index(f"## {HEADINGS[language][section_id]}\n")
    end = report.find("\n## ", start + 1)
    return report[start : end if end != -1 else None]


def test_pages_that_disagree_on_a_licence_and_a_status_are_flagged_with_both_quotes(corpus_en):
    run, store = run_question(NOTES_QUESTION, [f"local:{corpus_en}"], dimensions=NOTES_DIMENSIONS)
    assert run.status == "done"
    check = store.read_json("round_4_crosscheck.json")
    topics = {(x["option"], x["attribute"]) for x in check["contradictions"]}
    assert ("Loamdb", "licence") in topics
    assert ("Tessera", "maintenance") in topics
    flagged = section(store.read_text("report.md"), "contradictions")
    for x in check["contradictions"]:
        if (x["option"], x["attribute"]) in {("Loamdb", "licence"), ("Tessera", "maintenance")}:
            assert x["a"]["quote"] in flagged and x["b"]["quote"] in flagged
    assert "Loamdb switched to the Business Source License (BSL) in 2024" in flagged
    assert "Tessera is actively maintained, with releases every month." in flagged


def test_a_full_report_has_every_section_in_order_and_a_recommendation(corpus_en):
    _, store = run_question(NOTES_QUESTION, [f"local:{corpus_en}"], dimensions=NOTES_DIMENSIONS)
    report = store.read_text("report.md")
    positions = [report.index(f"## {HEADINGS['en'][s]}\n") for s in SECTIONS]
    assert positions == sorted(positions)
    decision = store.read_json("round_5_decision.json")
    assert decision["recommendation"]["option"] == "Quillsync"
    assert decision["ranking"][0]["option"] == "Quillsync"
    assert re.search(
        r"(Provisional r|R)ecommendation: Quillsync\.", section(report, "recommendation")
    )


@pytest.mark.parametrize(("language", "at_least"), [("en", 20), ("zh", 10)])
def test_every_quote_in_the_report_is_found_verbatim_in_the_page_it_cites(
    language, at_least, corpus_en, corpus_zh
):
    _, store = run_in(language, corpus_en, corpus_zh)
    verified, total = report_quotes(store.path)
    assert total > at_least
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
    warning = report[: report.index("\n# ")]
    assert all(f"> - {item}" in warning for item in missing[:3])
    if len(missing) > 3:
        assert f"and {len(missing) - 3} more, listed under Confidence and missing" in warning
    assert all(f"- {item}" in section(report, "confidence") for item in missing)


def test_a_page_that_was_read_but_says_nothing_checkable_gives_a_report_without_a_verdict(
    tmp_path,
):
    corpus = tmp_path / "vague"
    corpus.mkdir()
    (corpus / "one.md").write_text(
        "---\nurl: https://blog.example.net/queues\ntitle: Brookline MQ and Cobaltbus\n---\n\n"
        "Brookline MQ and Cobaltbus are two message queues. We wrote about Brookline MQ and "
        "Cobaltbus once.\n",
        encoding="utf-8",
    )
    run, store = run_question(
        "Brookline MQ or Cobaltbus?", [f"local:{corpus}"], dimensions=[("licence risk", 1)]
    )
    assert run.status == "done"
    assert store.read_json("round_5_decision.json")["recommendation"]["option"] is None
    summary = section(store.read_text("report.md"), "summary")
    assert "**No recommendation.**" in summary
    assert "The sources read ([1]) do not judge any option on the dimensions asked about" in summary


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
    background = section(report, "background")
    assert "could not be reached" in background
    assert "UNAVAILABLE" in background
    assert "Recommendation:" not in report
    # No search could be made at all: the summary says so in one sentence, with the reason.
    summary = section(report, "summary")
    assert "No search engine could be reached from this server: " in summary
    assert "searches could not be made" in background
    assert "0 pages read" not in report


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
    gap = next(
        m
        for m in decision["missing_information"]
        if m.startswith("No evidence on Brookline MQ x cost")
    )
    # Not "nothing found": the gap names the pages that could not be read.
    assert "could not be read (UNAVAILABLE" in gap
    assert all(f"“{title}”" in gap for title in titles)


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
    assert "河图引擎已改为 AGPL-3.0 许可证" in section(report, "contradictions", "zh")
    assert store.read_json("round_5_decision.json")["recommendation"]["option"] is not None


# --- what a reader sees first, in their own language -------------------------------------


def test_a_chinese_question_gets_chinese_headings_warning_and_explanation(corpus_zh, always_low):
    _, store = run_question(ZH_QUESTION, [f"local:{corpus_zh}"])
    report = store.read_text("report.md")
    first, second = report.splitlines()[:2]
    assert first.startswith("> **低置信度（")
    assert "不适合直接用于决策" in first
    assert "提高置信度" in second
    assert "# 决策报告：" + ZH_QUESTION in report
    positions = [report.index(f"## {HEADINGS['zh'][s]}\n") for s in SECTIONS]
    assert positions == sorted(positions)
    assert not [s for s in SECTIONS if f"## {HEADINGS['en'][s]}\n" in report]
    assert "| 维度 | 权重 | 证据 |" in section(report, "dimensions", "zh")
    method = store.read_json("round_5_decision.json")["assessment"]["method"]
    assert f"计算方法：{method}" in section(report, "confidence", "zh")
    assert "存储摘录：[round_3_pages/" in report


def test_an_english_question_gets_english_headings_and_warning(corpus_en, always_low):
    _, store = run_question(NOTES_QUESTION, [f"local:{corpus_en}"], dimensions=NOTES_DIMENSIONS)
    report = store.read_text("report.md")
    assert report.startswith("> **Low confidence (")
    assert not [s for s in SECTIONS if f"## {HEADINGS['zh'][s]}\n" in report]
    assert re.search(r"[\u4e00-\u9fff]", report) is None  # the English corpus quotes no Chinese
    method = store.read_json("round_5_decision.json")["assessment"]["method"]
    assert f"How it was computed: {method}" in section(report, "confidence")


RECOMMENDS = {"en": r"(Provisional r|R)ecommendation: {}\.", "zh": r"(暂定)?推荐：{}。"}
CONFIDENCE = {"en": "Confidence {}/100", "zh": "置信度 {}/100"}
TOP = {"en": "**Most important contradiction** (", "zh": "**最重要的矛盾**（"}


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("warned", [False, True], ids=["confident", "low confidence"])
def test_the_first_screen_gives_the_answer_its_confidence_reasons_and_top_contradiction(
    language, warned, corpus_en, corpus_zh, settings
):
    if warned:
        settings.CONFIDENCE_THRESHOLD = 101
    _, store = run_in(language, corpus_en, corpus_zh)
    report = store.read_text("report.md")
    decision = store.read_json("round_5_decision.json")
    contradictions = store.read_json("round_4_crosscheck.json")["contradictions"]
    option = decision["recommendation"]["option"]
    first_screen = "\n".join(report.splitlines()[:25])
    summary = section(report, "summary", language)
    assert summary in report[: report.index(f"## {HEADINGS[language]['matrix']}\n")]
    assert summary.strip() in first_screen
    assert re.search(RECOMMENDS[language].format(re.escape(option)), summary)
    confidence = f"{decision['assessment']['confidence']:.0f}"
    assert CONFIDENCE[language].format(confidence) in summary
    reasons = re.findall(r"^(\d)\. (.*)$", summary, re.MULTILINE)
    assert [n for n, _ in reasons] in (["1", "2"], ["1", "2", "3"])
    assert re.search(r"\[\d+\]", reasons[0][1])  # the winner's total cites its evidence
    # The contradiction that matters most touches the recommended option, when one does.
    theirs = [x for x in contradictions if x["option"] == option] or contradictions
    top = next(line for line in summary.splitlines() if line.startswith(TOP[language]))
    named = [x for x in theirs if f"`{x['id']}`" in top]
    assert len(named) == 1
    assert named[0]["option"] in top


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_real_report_with_any_section_taken_out_fails_validation(language, corpus_en, corpus_zh):
    _, store = run_in(language, corpus_en, corpus_zh)
    report = store.read_text("report.md")
    notes = store.read_model("round_3_notes.json", Notes)
    pages = readers.stored_pages(store, notes)
    numbers = {n: s.source_id for n, s in enumerate(notes.ok_sources(), 1)}
    validate(report, pages, numbers, has_evidence=True, language=language)
    for section_id in SECTIONS:
        cut = report.replace(section(report, section_id, language), "")
        with pytest.raises(ReportIncomplete, match="missing"):
            validate(cut, pages, numbers, has_evidence=True, language=language)
