"""The report page: the answer first, then the matrix, chart, contradictions and evidence."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils.html import escape

from research.artifacts import Crosscheck, Decision, Notes
from research.models import Run
from research.store import store_for
from research.web.report.run_files import quote_anchor

pytestmark = pytest.mark.django_db


def page(client, run: Run) -> str:
    response = client.get(reverse("web:report", args=[run.run_id]))
    assert response.status_code == 200
    return response.content.decode()


def artifacts(run: Run) -> tuple[Decision, Crosscheck, Notes]:
    store = store_for(run.run_id)
    return (
        store.read_model("round_5_decision.json", Decision),
        store.read_model("round_4_crosscheck.json", Crosscheck),
        store.read_model("round_3_notes.json", Notes),
    )


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def between(html: str, start: str, end: str) -> str:
    begin = html.index(start)
    return html[begin : html.index(end, begin)]


def test_the_report_opens_with_the_recommendation_and_the_confidence(install, ada_client):
    run = install("en")
    decision, _, _ = artifacts(run)
    html = page(ada_client, run)
    answer = between(html, 'class="answer-card', 'class="toc"')
    assert f'<p class="rec-option">{decision.recommendation.option}</p>' in answer
    assert f"<strong>{decision.assessment.confidence:.0f}</strong>" in answer
    gauge = re.search(r'<rect class="fill" x="0" y="4" width="([\d.]+)"', answer)
    assert gauge and float(gauge.group(1)) == pytest.approx(
        3 * decision.assessment.confidence, abs=0.1
    )
    assert f"threshold {decision.threshold}" in answer
    assert "Low confidence" not in answer  # 66 against 65: not low


def test_a_low_confidence_report_warns_and_says_what_would_raise_it(install, ada_client):
    run = install("en_low")
    decision, _, _ = artifacts(run)
    answer = between(page(ada_client, run), 'class="answer-card', 'class="toc"')
    assert "Low confidence" in answer
    assert "not fit for direct decision use" in answer
    warning = between(answer, 'class="warning"', "</div>")
    for item in decision.missing_information[:3]:
        assert item in text_of(warning)
    assert 'href="#missing"' in warning  # the rest of the list, further down


def test_a_low_confidence_recommendation_is_called_provisional(install, ada_client):
    run = install("en_provisional")
    decision, _, _ = artifacts(run)
    answer = between(page(ada_client, run), 'class="answer-card', 'class="toc"')
    assert decision.recommendation.option is not None
    assert "Provisional recommendation" in answer
    assert f'<p class="rec-option">{decision.recommendation.option}</p>' in answer


def test_a_best_option_resting_on_one_site_is_not_recommended_and_the_page_says_why(
    install, ada_client
):
    run = install("en_low")
    decision, _, _ = artifacts(run)
    best = decision.ranking[0]
    assert decision.recommendation.option is None
    assert best.total is not None and best.sites == [decision.recommendation.single_site]
    html = page(ada_client, run)
    answer = between(html, 'class="answer-card', 'class="toc"')
    assert '<p class="rec-option rec-none">No recommendation</p>' in answer
    why = text_of(between(answer, 'class="why"', "</ol>"))
    assert f"{best.option} has the highest weighted total, {best.total:.1f}/100" in why
    assert f"all of its scored evidence comes from one site, {best.sites[0]}" in why
    assert "A recommendation needs evidence from two or more independent sites" in why
    # the ranking and the matrix stay, with no option marked as the recommended one
    chart = between(html, '<svg class="chart"', "</svg>")
    assert f"<title>{best.option}: {best.total:.1f}</title>" in chart
    assert "is-top" not in chart
    matrix = between(html, '<table class="matrix">', "</table>\n</div>")
    assert matrix.count('<tr class="" data-option=') == len(decision.ranking) == 3
    assert '<span class="score">' in matrix


@pytest.mark.parametrize(
    ("recipe", "colon", "wording"),
    [
        (
            "en_low",
            ": ",
            "evidence on {covered} of {dimensions} dimensions, {share}% of the weight",
        ),
        ("zh", "：", "{dimensions} 个维度中有 {covered} 个有证据，占权重的 {share}%"),
    ],
)
def test_each_total_says_how_much_of_the_weight_rests_on_evidence(
    recipe, colon, wording, install, ada_client
):
    run = install(recipe)
    decision, _, _ = artifacts(run)
    dimensions = len({c.dimension for c in decision.matrix})
    html = page(ada_client, run)
    totals = text_of(between(html, 'id="totals"', "</section>"))
    matrix = text_of(between(html, '<table class="matrix">', "</table>\n</div>"))
    partial = [r for r in decision.ranking if r.total is not None and r.evidence_share < 100]
    assert partial  # the test needs an option with a gap
    for r in decision.ranking:
        if r.total is None:
            continue
        line = wording.format(
            covered=r.cells_with_evidence, dimensions=dimensions, share=round(r.evidence_share)
        )
        assert f"{r.option}{colon}{r.total:.1f}" in totals
        assert line in totals
        assert line in matrix


def test_the_reasons_cite_sources_linked_to_the_evidence_list(install, ada_client):
    html = page(ada_client, install("en"))
    reasons = between(html, 'class="why"', "</ol>")
    assert reasons.count("<li>") == 3
    assert re.search(r'<a class="cite" href="#src-(\d+)">\[\1\]</a>', reasons)
    assert 'id="src-1"' in html


def test_every_cell_expands_into_its_four_components(install, ada_client):
    run = install("en")
    decision, _, _ = artifacts(run)
    html = page(ada_client, run)
    matrix = between(html, '<table class="matrix">', "</table>\n</div>")
    assert matrix.count('<details id="cell-') == len(decision.matrix) == 9
    for cell in decision.matrix:
        body = cell_body(matrix, cell.option, cell.dimension)
        assert f'<span class="score">{cell.score:.1f}' in body
        parts = re.findall(r'<tr><th scope="row">([^<]+)</th><td>([\d.]+)</td>', body)
        assert [name for name, _ in parts] == [
            "base",
            "source strength",
            "consistency",
            "timeliness",
        ]
        expected = [cell.base, cell.strength, cell.consistency, cell.timeliness]
        assert [float(v) for _, v in parts] == pytest.approx(expected, abs=0.05)
        assert re.findall(r"× 0\.\d", body) == ["× 0.4", "× 0.3", "× 0.2", "× 0.1"]


def cell_body(matrix: str, option: str, dimension: str) -> str:
    """The <details> of one cell, found by its title."""
    for block in matrix.split('<details id="cell-')[1:]:
        if f'<p class="cell-title">{option} · {dimension}</p>' in block:
            return block.split("</details>\n      </td>")[0]
    raise AssertionError(f"no cell {option} x {dimension}")


def test_a_cell_gives_its_notes_and_its_claims_with_quotes_linked_to_the_viewer(
    install, ada_client
):
    run = install("en")
    decision, check, _ = artifacts(run)
    claims = {c.id: c for c in check.claims}
    html = page(ada_client, run)
    cell = next(
        c for c in decision.matrix if c.option == "Quillsync" and c.dimension == "licence risk"
    )
    body = cell_body(html, cell.option, cell.dimension)
    for note in cell.notes:
        assert note in unescape(body)
    for claim_id in cell.claim_ids:
        claim = claims[claim_id]
        assert f"<code>{claim_id}</code>" in body
        assert f"<q>{escape(claim.quote)}</q>" in body
        viewer = reverse("web:evidence", args=[run.run_id, claim.source_id])
        assert f'href="{viewer}#{quote_anchor(claim.quote)}"' in body


def test_a_capped_cell_says_what_capped_it(install, ada_client):
    run = install("en")
    decision, _, _ = artifacts(run)
    capped = next(c for c in decision.matrix if c.capped_by)
    body = cell_body(page(ada_client, run), capped.option, capped.dimension)
    assert f"Capped by {capped.capped_by}" in body


def test_the_chart_has_one_bar_per_option_as_long_as_its_total(install, ada_client):
    run = install("en")
    decision, _, _ = artifacts(run)
    chart = between(page(ada_client, run), '<svg class="chart"', "</svg>")
    bars = re.findall(r'<g [^>]*class="chart-bar[^"]*"[^>]*>(.*?)</g>', chart, re.S)
    assert len(bars) == len(decision.ranking) == 3
    for ranked, bar in zip(decision.ranking, bars, strict=True):
        assert f"<title>{ranked.option}: {ranked.total:.1f}</title>" in bar
        width = float(re.search(r'<rect [^>]*width="([\d.]+)"', bar).group(1))
        assert width == pytest.approx(340 * ranked.total / 100, abs=0.1)
    assert chart.count('class="chart-bar is-top"') == 1


def test_contradictions_show_both_quotes_side_by_side_with_the_pages_on_each_side(
    install, ada_client
):
    run = install("en")
    _, check, _ = artifacts(run)
    html = page(ada_client, run)
    assert check.contradictions
    for x in check.contradictions:
        card = between(html, f'id="x-{x.id}"', "</article>")
        sides = re.split(r'<div class="side[ "]', card)[1:]
        assert len(sides) == 2
        for side, main, also in ((sides[0], x.a, x.a_also), (sides[1], x.b, x.b_also)):
            assert f"<p>{escape(main.quote)}</p>" in side
            for other in also:
                assert f"<p>{escape(other.quote)}</p>" in side


def test_a_change_over_time_marks_the_current_and_the_earlier_side(install, ada_client):
    run = install("en")
    _, check, _ = artifacts(run)
    html = page(ada_client, run)
    x = next(x for x in check.contradictions if x.option == "Loamdb" and x.attribute == "licence")
    card = between(html, f'id="x-{x.id}"', "</article>")
    assert "Change over time" in card
    assert "badge-current" in card and "badge-earlier" in card
    assert "left out of the scores" in card  # what the change does to the scores


def test_consensus_and_the_evidence_list_are_shown(install, ada_client):
    run = install("en")
    _, check, notes = artifacts(run)
    html = page(ada_client, run)
    assert check.consensus
    for k in check.consensus:
        assert f"{k.option} · " in html
    for n, src in enumerate(notes.ok_sources(), 1):
        item = between(html, f'<li id="src-{n}" value="{n}">', "</li>")
        assert escape(src.title) in item
        assert src.site in item
        assert reverse("web:evidence", args=[run.run_id, src.source_id]) in item
        assert f'href="{src.url}" rel="noopener noreferrer"' in item
        assert f">{src.url}</a>" in item  # the original address, readable as text
        if src.published:
            assert f"published {src.published}" in item
    kinds = re.findall(r'class="kind kind-(\w+)"', html)
    assert set(kinds) <= {"primary", "comparison", "community", "interested"}
    assert "primary" in kinds


def test_missing_cells_say_no_evidence_rather_than_a_number(install, ada_client):
    run = install("zh")
    decision, _, _ = artifacts(run)
    missing = [c for c in decision.matrix if c.missing]
    assert missing
    html = page(ada_client, run)
    assert html.count('class="cell state-no_evidence') == len(missing)
    body = cell_body(html, missing[0].option, missing[0].dimension)
    assert "无证据" in body and missing[0].notes[0] in body


def test_pages_kept_but_not_read_are_told_apart_from_evidence_not_found(install, ada_client):
    run = install("en_budget")
    decision, _, _ = artifacts(run)
    assert decision.not_read
    html = page(ada_client, run)
    kept = between(html, "<h3>Kept but not read</h3>", "</ul>")
    assert "beyond the reading budget of 2 pages" in kept
    for item in decision.not_read:
        assert escape(item) in kept
    assert 'class="cell state-not_read' in html
    assert "pages about it were kept but not read" in html


def test_a_chinese_question_gets_chinese_labels(install, ada_client):
    run = install("zh")
    html = page(ada_client, run)
    assert '<html lang="zh-Hans">' in html
    for label in ("推荐", "置信度", "加权总分", "评分矩阵", "矛盾与共识", "证据", "下载 Markdown"):
        assert label in html, label
    assert "Score matrix" not in html and "Download Markdown" not in html
    body = between(html, '<table class="matrix">', "</table>\n</div>")
    assert "基础判断" in body and "来源强度" in body and "一致性" in body and "时效性" in body


def test_a_run_not_finished_yet_gets_a_page_that_links_to_its_run_page(install, ada_client):
    run = install("en", status=Run.Status.RUNNING)
    html = page(ada_client, run)
    assert "The report is not ready yet" in html
    assert f'href="/runs/{run.run_id}/"' in html
    assert 'class="matrix"' not in html


def test_a_failed_run_says_it_stopped_before_writing_a_report(install, ada_client):
    run = install("en", status=Run.Status.FAILED)
    html = page(ada_client, run)
    assert "stopped before it could write a report" in html


def test_a_run_without_evidence_recommends_nothing_and_invents_no_number(install, ada_client):
    run = install("none")
    decision, _, _ = artifacts(run)
    assert decision.recommendation.option is None
    html = page(ada_client, run)
    answer = between(html, 'class="answer-card', 'class="toc"')
    assert '<p class="rec-option rec-none">No recommendation</p>' in answer
    assert "Low confidence (0/100" in answer
    chart = between(html, '<svg class="chart"', "</svg>")
    assert "<rect" not in chart and chart.count(">No evidence</text>") == 2
    matrix = between(html, '<table class="matrix">', "</table>\n</div>")
    assert matrix.count('class="cell state-no_evidence') == 4
    assert '<span class="score">' not in matrix


def test_a_chinese_run_not_finished_yet_says_so_in_chinese(install, ada_client):
    run = install("zh", status=Run.Status.QUEUED)
    html = page(ada_client, run)
    assert "报告尚未生成" in html and "排队中" in html
