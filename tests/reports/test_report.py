from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

import pytest

from decisions.decide import decide, verify_quotes
from reports.check import SECTIONS, ReportIncomplete, validate
from reports.report import render
from reports.sections import ReportInput
from reports.strings import HEADINGS
from research.artifacts import (
    Candidates,
    Claim,
    Contradiction,
    ContradictionSide,
    Crosscheck,
    Decision,
    Dimension,
    Filtered,
    KeptCandidate,
    Notes,
    Plan,
    SourceNotes,
)
from research.context import StageContext
from research.outcomes import Outcome

PAGE = "---\nsource_id: s1\n---\n\nLoamdb is released under the MIT License."
LANGUAGES = ("en", "zh")


def report(sections=SECTIONS, quote="Loamdb is released under the MIT License.", language="en"):
    body = [f"## {HEADINGS[language][s]}\n\nSee [1] “{quote}”\n" for s in sections]
    return "# Decision report\n\n" + "\n".join(body)


def check(text: str, language: str = "en") -> None:
    validate(text, {"s1": PAGE}, {1: "s1"}, has_evidence=True, language=language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_complete_report_with_real_quotes_passes(language):
    check(report(language=language), language)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("missing", SECTIONS)
def test_a_report_missing_any_section_is_an_error_in_either_language(missing, language):
    sections = [s for s in SECTIONS if s != missing]
    with pytest.raises(ReportIncomplete, match="missing or out of order") as error:
        check(report(sections, language=language), language)
    assert HEADINGS[language][missing] in str(error.value)


@pytest.mark.parametrize("language", LANGUAGES)
def test_sections_out_of_order_are_an_error(language):
    sections = list(SECTIONS)
    sections[1], sections[2] = sections[2], sections[1]
    with pytest.raises(ReportIncomplete):
        check(report(sections, language=language), language)


def test_a_chinese_report_under_english_headings_is_missing_its_sections():
    with pytest.raises(ReportIncomplete, match="背景"):
        check(report(language="en"), "zh")


def test_a_quote_that_is_not_in_its_cited_source_is_an_error():
    with pytest.raises(ReportIncomplete, match="quote not found"):
        check(report(quote="Loamdb is released under the GPL."))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_section_that_cites_nothing_is_an_error_when_there_is_evidence(language):
    heading = HEADINGS[language]["options"]
    text = report(language=language).replace(f"## {heading}\n\nSee [1]", f"## {heading}\n\nSee")
    with pytest.raises(ReportIncomplete, match="cite no evidence"):
        check(text, language)


# --- a report rendered from plain artifacts ----------------------------------------------
#
# Two message queues. The licence of Fernwick changed: its repository [1] and a forum post [3]
# still call it MIT, a later digest [2] reports the switch. Gorsebrook's vendor [4] says
# Fernwick loses messages; an independent soak test [5] says it does not. Two pages give
# Gorsebrook's throughput for different versions ([5] and [6]). One kept page was never read.

TODAY = date(2025, 6, 1)
OPTIONS = ["Fernwick", "Gorsebrook"]
DIMENSIONS = ["licence risk", "reliability"]
PAGES = {
    "s1": ("https://github.com/fernwick/fernwick", "GitHub - fernwick/fernwick", "2023-01-10"),
    "s2": ("https://queue-digest.example.org/fernwick-sspl", "Fernwick relicensed", "2025-03-02"),
    "s3": ("https://forum.example-queues.net/t/fernwick/12", "Fernwick in use", "2022-05-01"),
    "s4": ("https://gorsebrook.io/blog/vs-fernwick", "Gorsebrook vs Fernwick", "2025-01-01"),
    "s5": ("https://soak.example.com/queues-2025", "A month of queue soak tests", "2025-02-01"),
    "s6": ("https://ops-notes.example.net/throughput", "Throughput notes", "2024-11-20"),
}  # fmt: skip
LOW_RISK = "Licence risk is low because Fernwick is MIT licensed."
ALSO_LOW = "Fernwick is MIT licensed, which keeps our licence risk low."
NOW_SSPL = "Fernwick moved to the SSPL in 2025, which raises licence risk for hosted products."
LOSES = "Fernwick loses messages under load, unlike Gorsebrook."
KEEPS = "Fernwick did not lose a single message in our month-long soak test."
NEW_RATE = "Gorsebrook 3.1 handled 12,000 messages per second on one node."
OLD_RATE = "Gorsebrook 2.4 handled 40,000 messages per second on our cluster."
NEVER_DROPS = "Gorsebrook never drops a message."


def claim(cid: str, option: str, dim: str, sid: str, quote: str, polarity: int = 0, **fact):
    kind = "fact" if fact else "stance"
    return Claim(
        id=cid,
        option=option,
        dimension=dim,
        attribute=fact.get("attribute", "stance"),
        kind=kind,
        value=fact.get("value", "positive" if polarity > 0 else "negative"),
        polarity=polarity,
        source_id=sid,
        quote=quote,
    )


CLAIMS = [
    claim("c1", "Fernwick", "licence risk", "s1", LOW_RISK, +1),
    claim("c2", "Fernwick", "licence risk", "s2", NOW_SSPL, -1),
    claim("c3", "Fernwick", "licence risk", "s3", ALSO_LOW, +1),
    claim("c4", "Fernwick", "reliability", "s4", LOSES, -1),
    claim("c5", "Fernwick", "reliability", "s5", KEEPS, +1),
    claim("c6", "Gorsebrook", "reliability", "s5", NEW_RATE, attribute="throughput", value="12000"),
    claim("c7", "Gorsebrook", "reliability", "s6", OLD_RATE, attribute="throughput", value="40000"),
    claim("c8", "Gorsebrook", "reliability", "s4", NEVER_DROPS, +1),
]
BY_ID = {c.id: c for c in CLAIMS}


def side(cid: str) -> ContradictionSide:
    c = BY_ID[cid]
    return ContradictionSide(claim_id=cid, source_id=c.source_id, quote=c.quote)


def disagreement(xid: str, a: str, b: str, cause: str, current=None, a_also=()):
    first = BY_ID[a]
    return Contradiction(
        id=xid,
        option=first.option,
        attribute=first.attribute,
        dimension=first.dimension,
        a=side(a),
        b=side(b),
        a_also=[side(c) for c in a_also],
        note="an English note from cross-validation",
        cause=cause,
        current=current,
    )


CONTRADICTIONS = [
    disagreement("x01", "c1", "c2", "time", current="c2", a_also=["c3"]),
    disagreement("x02", "c4", "c5", "error"),
    disagreement("x03", "c6", "c7", "scope"),
]
UNREAD = KeptCandidate(
    id="k9",
    url="https://fernwick.dev/docs/licensing",
    title="Licensing | Fernwick docs",
    provider="local",
    query="Fernwick licence",
    rank=3,
    score=40.0,
    reasons=[],
)


@dataclass
class Rendered:
    text: str
    decision: Decision

    def section(self, section_id: str, language: str = "en") -> str:
        start = self.text.index(f"## {HEADINGS[language][section_id]}\n")
        end = self.text.find("\n## ", start + 1)
        return self.text[start:end]


def rendered(
    claims=CLAIMS,
    contradictions=CONTRADICTIONS,
    language="en",
    unread=(UNREAD,),
    model=None,
    **analysis,
) -> Rendered:
    plan = Plan(
        question="Fernwick or Gorsebrook for our job queue?",
        language=language,
        options=OPTIONS,
        dimensions=[Dimension(name=d, weight=1.0) for d in DIMENSIONS],
        sources=["local:/corpus"],
        queries=[],
    )
    plan.limits.max_pages = 6
    notes = Notes(
        sources=[
            SourceNotes(
                source_id=sid,
                url=url,
                title=title,
                published=published,
                site=url.split("/")[2],
                status=Outcome.OK,
                page=f"round_3_pages/{sid}.md",
            )
            for sid, (url, title, published) in PAGES.items()
        ]
    )
    pages = {sid: " ".join(c.quote for c in claims if c.source_id == sid) for sid in PAGES}
    ctx = StageContext()
    check = Crosscheck(claims=claims, consensus=[], contradictions=contradictions, gaps=[])
    verified = verify_quotes(check, pages, ctx)
    read = [
        KeptCandidate(
            id=sid, url=url, title=title, provider="local", query="q", rank=1, score=50, reasons=[]
        )
        for sid, (url, title, _) in PAGES.items()
    ]
    filtered = Filtered(kept=[*read, *unread], dropped=[])
    decision = decide(plan, notes, Candidates(candidates=[]), verified, 65, ctx, TODAY, filtered)
    if model:
        decision = decision.model_copy(update={"mode": "llm", "model": model, **analysis})
    report = render(
        ReportInput("r1", plan, filtered, notes, verified.crosscheck, decision, pages, TODAY)
    )
    return Rendered(report, decision)


def test_a_contradiction_shows_how_many_pages_stand_on_each_side_with_their_words():
    flagged = rendered().section("contradictions")

    assert "(`x01`): [1] judges it positive; [2] judges it negative." in flagged
    assert f"  - 2 pages on one side: [1], [3]\n    - [1] “{LOW_RISK}”\n    - [3] “{ALSO_LOW}”" in (
        flagged
    )
    assert f"  - 1 page on the other side: [2]\n    - [2] “{NOW_SSPL}”" in flagged
    assert "an English note from cross-validation" not in flagged


def test_each_cause_is_said_in_words_with_its_sources():
    flagged = rendered().section("contradictions")

    assert (
        "Likely a change over time: sources [1], [3] describe an earlier state; [2] the "
        "current one." in flagged
    )
    # Gorsebrook's own blog counts 30 on its rival; the independent soak test counts 60.
    assert (
        "Nothing explains the difference, so one of them is likely wrong or out of date; the "
        "stronger source is [5] (it counts 60, against 30 for [4])." in flagged
    )
    assert (
        "Likely a difference of scope: [5] and [6] measure different versions or setups, so "
        "both may hold." in flagged
    )


def test_the_summary_names_the_sides_of_the_top_contradiction_and_stays_short():
    report = rendered(contradictions=CONTRADICTIONS[:1]).text
    summary = report[report.index("## Summary") : report.index("## Background")]

    top = next(line for line in summary.splitlines() if line.startswith("**Most important"))
    assert top.endswith(
        "Fernwick, judgement on licence risk: [1] judges it positive; [2] judges it negative "
        "(pages on each side: 2 and 1). Likely a change over time: sources [1], [3] describe an "
        "earlier state; [2] the current one."
    )
    assert len(report[: report.index("## Background")].splitlines()) <= 25


def test_a_superseded_side_is_marked_in_the_evidence_and_left_out_of_the_base():
    result = rendered()
    cell = next(c for c in result.decision.matrix if c.dimension == "licence risk")
    matrix = result.section("matrix")

    # Only the later digest votes: 50 - 50 * 0.6 / 1.6 = 31.25 -> 31.2
    assert (cell.option, cell.base, cell.superseded) == ("Fernwick", 31.2, ["c1", "c3"])
    assert "| Fernwick | licence risk | 31.2 |" in matrix
    assert (
        f"`c1` positive on licence risk, superseded by a later source (`x01`): [1] “{LOW_RISK}”"
        in (matrix)
    )
    assert f"`c2` negative on licence risk: [2] “{NOW_SSPL}”" in matrix
    assert "    - superseded by a later source: c1, c3 (github.com, example-queues.net)" in matrix


def test_the_score_matrix_detail_gives_every_cells_notes():
    result = rendered()
    matrix = result.section("matrix")

    for cell in result.decision.matrix:
        if not cell.missing:
            assert all(f"    - {note}\n" in matrix for note in cell.notes)
    assert (
        "    - consistency = 100 (two or more sites) - 35 for x02 (nothing explains it)" in matrix
    )


def test_an_archived_project_is_marked_capped_in_the_matrix():
    archived = "The Fernwick repository was archived by its owner and is now read-only."
    status = claim(
        "c9", "Fernwick", "reliability", "s6", archived, -1, attribute="maintenance",
        value="inactive",
    )  # fmt: skip
    result = rendered(claims=[*CLAIMS, status], contradictions=[])
    matrix = result.section("matrix")

    assert "| Fernwick | reliability | 15.0 | 50.0 | 100.0 | 100.0 | **20.0** (capped) |" in matrix
    assert "- **Fernwick / reliability** · capped by `c9`: the project is no longer maintained" in (
        matrix
    )
    assert f"(“{archived}”), so base is capped at 15 and the score at 20" in matrix


def test_kept_pages_never_read_are_listed_apart_from_what_was_not_found():
    confidence = rendered().section("confidence")

    assert (
        "Kept but not read: 1 page passed the filter but lay beyond the reading budget of 6 "
        "pages." in confidence
    )
    assert "- Licensing | Fernwick docs (https://fernwick.dev/docs/licensing)" in confidence
    assert "- No evidence on Gorsebrook x licence risk was found in the 6 pages read" in confidence
    assert "Kept but not read: none" in rendered(unread=()).section("confidence")


def test_the_confidence_explanation_gives_the_corroboration():
    result = rendered()

    value = f"{result.decision.assessment.corroboration:.1f}"
    assert (
        f"| Corroboration (share of scored cells backed by two or more independent sites) | "
        f"{value} |" in result.section("confidence")
    )


def test_an_interested_party_is_named_as_one_in_the_sources():
    report = rendered().text

    line = next(x for x in report.splitlines() if x.startswith("[4] "))
    assert "· interested party: published by Gorsebrook's vendor ·" in line
    assert line.endswith("stored extract: [round_3_pages/s4.md](round_3_pages/s4.md)")
    assert "· interested party: Gorsebrook的厂商" not in report


def test_a_chinese_report_says_the_sides_and_causes_in_chinese():
    result = rendered(language="zh")
    flagged = result.section("contradictions", "zh")

    assert "可能是前后变化：来源 [1], [3] 描述的是较早的状态，[2] 描述的是当前状态。" in flagged
    assert "一方 2 个页面：[1], [3]" in flagged
    assert "另一方 1 个页面：[2]" in flagged
    assert "较强的来源是 [5]（按 60 计，[4] 按 30 计）。" in flagged
    assert "可能是范围不同：[5] 与 [6] 针对的是不同的版本或场景" in flagged
    assert "利益相关方：由Gorsebrook的厂商发布" in result.text
    confidence = result.section("confidence", "zh")
    assert "保留但未阅读：有 1 个页面通过了筛选" in confidence
    assert "| 佐证度（由两个以上独立站点支持的已评分单元格所占比例） |" in confidence
    assert "评分过程：" in result.section("matrix", "zh")


def test_the_report_says_which_method_produced_it_and_names_the_model():
    assert "· deterministic analysis (no LLM) ·" in rendered().text
    llm = rendered(model="qwen3:8b").text
    assert "· LLM-assisted analysis (qwen3:8b) ·" in llm
    assert "no LLM" not in llm


def test_a_model_lost_part_way_is_said_next_to_the_mode_so_the_report_claims_no_more():
    lost = rendered(model="qwen3:8b", model_unreachable_at="deepread").text
    assert (
        "· LLM-assisted analysis (qwen3:8b); the model could not be reached from deep-read on, "
        "so the deterministic reader did the rest ·"
    ) in lost
    spent = rendered(model="qwen3:8b", budget_exhausted_at="decide").text
    assert "; the token budget ran out at decide, so the deterministic reader did the rest" in spent
    zh = rendered(language="zh", model="qwen3:8b", model_unreachable_at="filter").text
    assert "大模型辅助分析 (qwen3:8b)；从filter阶段起无法连接大模型" in zh


# --- honest totals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "totals", "reason"),
    [
        (
            "en",
            "**Weighted totals:** 1. Gorsebrook: 58.0 (evidence on 1 of 2 dimensions, 50% of the "
            "weight); 2. Fernwick: 57.0 (evidence on 2 of 2 dimensions, 100% of the weight)",
            "1. Gorsebrook has the highest weighted total, 58.0/100, with evidence on 1 of 2 "
            "dimensions, 50% of the weight ([4], [5], [6]).",
        ),
        (
            "zh",
            "**加权总分：** 1. Gorsebrook：58.0（2 个维度中有 1 个有证据，占权重的 50%）；"
            "2. Fernwick：57.0（2 个维度中有 2 个有证据，占权重的 100%）",
            "1. Gorsebrook的加权总分最高，为 58.0/100，2 个维度中有 1 个有证据，占权重的 50%"
            "（[4], [5], [6]）。",
        ),
    ],
)
def test_the_totals_say_how_much_of_each_options_weight_rests_on_evidence(language, totals, reason):
    result = rendered(language=language)
    gorsebrook = next(c for c in result.decision.matrix if c.option == "Gorsebrook" and c.score)

    # Gorsebrook has no evidence on licence risk: that half of the weight counts as 50
    assert result.decision.totals["Gorsebrook"] == round((gorsebrook.score + 50) / 2, 1)
    assert totals in result.section("matrix", language)
    assert reason in result.section("summary", language)


@pytest.mark.parametrize(
    ("language", "no_recommendation", "why"),
    [
        (
            "en",
            "**No recommendation.** The best-scoring option rests on a single site.",
            "but all of its scored evidence comes from one site, gorsebrook.io ([4]). A "
            "recommendation needs evidence from two or more independent sites",
        ),
        (
            "zh",
            "**不作推荐。** 得分最高的选项只有单一站点的证据。",
            "但其全部评分证据都来自同一个站点：gorsebrook.io（[4]）。作出推荐需要两个以上独立站点的证据",
        ),
    ],
)
def test_a_best_option_on_one_site_gets_no_recommendation_and_the_report_says_why(
    language, no_recommendation, why
):
    # Only Gorsebrook's own blog is left: it praises Gorsebrook and runs down Fernwick.
    result = rendered(claims=[BY_ID["c8"], BY_ID["c4"]], contradictions=[], language=language)

    assert result.decision.recommendation.option is None
    assert result.decision.ranking[0].option == "Gorsebrook"
    summary = result.section("summary", language)
    assert why in summary
    assert no_recommendation in result.section("recommendation", language)
    # the ranking and the matrix are still there
    matrix = result.section("matrix", language)
    assert "Gorsebrook" in matrix and "Fernwick" in matrix
    assert re.search(r"1\. Gorsebrook(: |：)\d+\.\d", matrix)


@pytest.mark.parametrize(
    ("language", "no_recommendation", "why", "settle"),
    [
        (
            "en",
            "**No recommendation.** The best-scoring option leads only where the runner-up has "
            "no evidence.",
            "but Fernwick has no evidence on any dimension where Gorsebrook has, so the lead "
            "rests on gaps and no recommendation is given.",
            "Evidence on reliability for Fernwick, and on licence risk for Gorsebrook would "
            "settle it.",
        ),
        (
            "zh",
            "**不作推荐。** 得分最高的选项只在第二名没有证据的地方领先。",
            "但在Gorsebrook有证据的维度上Fernwick都没有证据，领先建立在证据缺口之上，因此不作推荐。",
            "补充Fernwick在reliability方面，以及Gorsebrook在licence risk方面的证据即可定夺。",
        ),
    ],
)
def test_a_lead_resting_on_gaps_gets_no_recommendation_and_the_report_says_what_would_settle_it(
    language, no_recommendation, why, settle
):
    # Fernwick has evidence on licence risk alone, Gorsebrook on reliability alone: each
    # option's total rests on the other's gap.
    claims = [BY_ID[c] for c in ("c1", "c3", "c6", "c7", "c8")]
    result = rendered(claims=claims, contradictions=[], language=language)

    rec = result.decision.recommendation
    assert (rec.option, rec.withheld) == (None, "unshared_lead")
    assert result.decision.ranking[0].option == "Gorsebrook"
    assert why in rec.no_recommendation_reason and rec.would_settle == settle
    summary = result.section("summary", language)
    assert f"1. {rec.no_recommendation_reason}\n2. {settle}\n3. " in summary
    recommendation = result.section("recommendation", language)
    assert no_recommendation in recommendation
    assert f"- {rec.no_recommendation_reason}\n- {settle}\n" in recommendation
    # the low-confidence warning opens it; the ranking and the matrix stay
    assert result.text.startswith("> **")
    assert result.decision.assessment.confidence < 65
    assert re.search(r"1\. Gorsebrook(: |：)\d+\.\d", result.section("matrix", language))
