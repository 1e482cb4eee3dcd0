"""A run's page as it finishes, and the report's what-if weights and the compare page, at a
desktop's and a phone's width, in English and in Chinese (the browser's Accept-Language)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator

import pytest
from django.utils import translation
from playwright.sync_api import expect

from research.runs import tasks
from tests.browser.checks import assert_no_sideways_scroll
from tests.browser.conftest import DESKTOP, PHONE, shot
from tests.browser.sample_runs import DIMENSIONS, OPTIONS, QUESTION, corpus_with_a_long_url
from tests.runs import CORPUS_EN, CORPUS_ZH, drive, new_run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"
SCREENS = {"desktop": DESKTOP, "phone": PHONE}
LOCALES = {"en": "en-GB", "zh": "zh-CN"}


def said(words: str, language: str) -> str:
    """`words` as the page says them in `language`."""
    with translation.override("zh-hans" if language == "zh" else "en"):
        return translation.gettext(words)


@pytest.fixture
def ada(settings, django_user_model):
    settings.SOURCES = [("notes", f"local:{CORPUS_EN}")]
    settings.DEFAULT_SOURCES = ["notes"]
    return django_user_model.objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def screen(browser, request) -> Iterator[object]:
    """A signed-out page on the screen and in the language the test is parametrised with."""
    width, language = request.param
    context = browser.new_context(locale=LOCALES[language], **SCREENS[width])
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.width, page.language = SCREENS[width]["viewport"]["width"], language
    yield page
    shot(page, re.sub(r"[^\w.-]+", "_", request.node.name) + "-last")
    context.close()


def signed_in(page, live_server, path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("input[name=username]").fill("ada")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[name=password]").press("Enter")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(live_server.url + path)


def finished_run(owner, folder, question: str = QUESTION):
    run = new_run(
        question,
        sources=[f"local:{corpus_with_a_long_url(folder)}"],
        options=OPTIONS,
        dimensions=[{"name": n, "weight": w} for n, w in DIMENSIONS],
        owner=owner,
    )
    drive(run.run_id)
    run.refresh_from_db()
    return run


# A Chinese question, over the Chinese notes: its run's pages are in Chinese.
ZH_QUESTION = "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？"


def asked(owner, language: str, folder):
    """A new run, not yet started: three options by two dimensions in English; in Chinese,
    the options and dimensions the question names."""
    if language == "zh":
        corpus = shutil.copytree(CORPUS_ZH, folder / "notes_zh")
        return new_run(ZH_QUESTION, sources=[f"local:{corpus}"], owner=owner)
    return new_run(
        QUESTION,
        options=OPTIONS[:3],
        dimensions=[{"name": n, "weight": w} for n, w in DIMENSIONS[:2]],
        owner=owner,
    )


def texts(locator) -> list[str]:
    return [" ".join(t.split()) for t in locator.all_inner_texts()]


BOTH_SCREENS_AND_LANGUAGES = pytest.mark.parametrize(
    "screen",
    [("desktop", "en"), ("phone", "zh"), ("phone", "en"), ("desktop", "zh")],
    indirect=True,
    ids=["desktop-en", "phone-zh", "phone-en", "desktop-zh"],
)


@BOTH_SCREENS_AND_LANGUAGES
def test_a_run_finishing_brings_its_answer_graph_and_ask_again_without_a_reload(
    screen, live_server, ada, monkeypatch, tmp_path
):
    page, language = screen, screen.language
    monkeypatch.setattr(tasks, "start", lambda run_id, stage="retrieve": None)
    run = asked(ada, language, tmp_path)
    signed_in(page, live_server, f"/runs/{run.run_id}/")
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    assert page.locator("[data-verdict], [data-plan-graph], [data-again]").count() == 0

    drive(run.run_id)  # what the workers would do; it takes a second or two

    verdict = page.locator("#run-verdict [data-verdict]")
    expect(verdict).to_be_visible()
    assert loads == []
    ask_again = page.get_by_role("button", name=said("Ask again", language), exact=True)
    expect(ask_again).to_be_visible()
    expect(page.get_by_label(said("Ask again on a schedule", language))).to_be_visible()
    expect(page.locator("[data-plan-graph] svg.trail-graph")).to_be_visible()
    shot(page, f"run-finished-live-{page.width}-{language}-first-screen", full_page=False)

    # Every stage done, each with the time it took, however short.
    stages = page.locator("li.stage.st-done")
    expect(stages).to_have_count(5)
    times = texts(stages.locator(".time"))
    assert len(times) == 5 and all(re.fullmatch(r"\d+(\.\d)? ?(s|秒)", t) for t in times), times

    # The recommendation is on the first screen, above the stages and the tables.
    option = verdict.locator(".verdict-option")
    box = option.bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"]
    assert box["y"] < page.locator("ol.stages").bounding_box()["y"]
    assert box["y"] < page.locator("[data-plan-graph]").bounding_box()["y"]
    assert_no_sideways_scroll(page, page.width)

    # The graph's row labels are whole and clear of the drawing's boxes; its card is padded.
    labels = page.locator("svg.trail-graph g.trail").evaluate_all(
        """rows => rows.map(g => {
             const label = g.querySelector("text.label").getBBox();
             const first = g.querySelector("rect.node").getBBox();
             return [g.querySelector("text.label").textContent, label.x + label.width, first.x];
           })"""
    )
    cells = page.locator("svg.trail-graph g.trail").evaluate_all(
        "rows => rows.map(g => g.dataset.cell.split(' · '))"
    )
    assert len(labels) == len(cells) >= 4
    for (text, right, first), (option_name, dimension) in zip(labels, cells, strict=True):
        assert text == option_name + dimension and right < first
    padding = page.locator("[data-plan-graph]").evaluate(
        "el => parseFloat(getComputedStyle(el).paddingLeft)"
    )
    assert padding >= 12
    shot(page, f"run-finished-live-{page.width}-{language}")

    # The card's reasons are the report's, word for word.
    reasons = texts(verdict.locator("[data-reasons] li"))
    assert reasons
    page.locator("#run-verdict a.btn.primary").click()
    page.wait_for_url(re.compile(r"/report/$"))
    assert texts(page.locator(".answer-card .why li")) == reasons


_SEARCH = """() => {
  const panel = document.getElementById("whatif"), w = window.VerdictWhatIf;
  const model = JSON.parse(panel.getAttribute("data-model"));
  const weights = model.dimensions.map(d => Math.round(d.weight * 100));
  const order = ws => w.rank(model, ws).map(r => r.option);
  const before = order(weights);
  let below = null, leader = null;
  weights.forEach((_, index) => {
    for (let value = 1; value <= 100; value++) {
      const one = weights.map((x, d) => d === index ? value : x);
      const only = weights.map((x, d) => d === index ? value : 1);
      for (const ws of [one, only]) {
        const after = order(ws);
        if (!below && after[0] === before[0] && after.join() !== before.join()) below = [ws, after];
        if (!leader && after[0] !== before[0]) leader = [ws, after];
      }
    }
  });
  return [below, leader, before];
}"""


def moves(page) -> tuple[tuple, tuple, list[str]]:
    """Weights that swap options below the leader and keep the leader, weights that put
    another option first, each with the order it gives (as the page's own script computes
    it), and the order before."""
    below, leader, before = page.evaluate(_SEARCH)
    if below is None or leader is None:
        pytest.fail("no weights swap options below the leader, or change the leader")
    return below, leader, before


def weigh(page, weights: list[int]) -> None:
    numbers = page.locator("#whatif input[data-number]")
    for index, weight in enumerate(weights):
        numbers.nth(index).fill(str(weight))


def matrix_totals(page) -> list[tuple[str, str]]:
    rows = page.locator("table.matrix tbody tr[data-option]").evaluate_all(
        "rows => rows.map(r => [r.dataset.option, "
        "(r.querySelector('[data-matrix-total] strong') || {}).textContent || null])"
    )
    return [tuple(row) for row in rows]


def chart_totals(page) -> list[tuple[str, str]]:
    bars = page.locator(".chart-bar").evaluate_all(
        "bars => bars.map(b => [b.dataset.option, "
        "(b.querySelector('text.value:not(.none)') || {}).textContent || null, "
        "parseFloat(b.querySelector('rect, text').getAttribute('y'))])"
    )
    return [(name, value) for name, value, _ in sorted(bars, key=lambda b: b[2])]


@pytest.mark.parametrize(
    "screen", [("desktop", "en"), ("phone", "en")], indirect=True, ids=["desktop", "phone"]
)
def test_what_if_moves_the_matrix_totals_and_names_a_new_leader_only_when_it_changes(
    screen, live_server, ada, tmp_path
):
    page = screen
    run = finished_run(ada, tmp_path)
    signed_in(page, live_server, f"/runs/{run.run_id}/report/")
    note = page.locator("#whatif [data-ranking-note]")
    expect(note).to_be_visible()
    (swapping, swapped), (leading, led), before = moves(page)
    assert [o for o, _ in matrix_totals(page)] == before == [o for o, _ in chart_totals(page)]

    weigh(page, swapping)

    expect(note).to_have_text(f"{before[0]} still leads; the order below it changed.")
    assert (
        matrix_totals(page) == chart_totals(page) and [o for o, _ in chart_totals(page)] == swapped
    )
    page.locator("table.matrix").scroll_into_view_if_needed()
    shot(page, f"whatif-below-the-leader-{page.width}", full_page=False)

    page.get_by_role("button", name="Back to the run's weights").click()
    weigh(page, leading)

    expect(note).to_have_text(f"The ranking changed: {led[0]} now leads.")
    assert matrix_totals(page) == chart_totals(page)
    assert [o for o, _ in chart_totals(page)] == led
    assert_no_sideways_scroll(page, page.width)


@pytest.mark.parametrize(
    "screen", [("desktop", "zh"), ("phone", "en")], indirect=True, ids=["desktop-zh", "phone-en"]
)
def test_comparing_runs_of_different_questions_warns_at_the_top(screen, live_server, ada, tmp_path):
    page = screen
    english = finished_run(ada, tmp_path / "en")
    corpus = shutil.copytree(CORPUS_ZH, tmp_path / "notes_zh")
    chinese = new_run(ZH_QUESTION, sources=[f"local:{corpus}"], owner=ada)
    drive(chinese.run_id)
    first, then = (chinese, english) if page.language == "zh" else (english, chinese)

    signed_in(page, live_server, f"/runs/{first.run_id}/compare/{then.run_id}/")

    warning = page.locator("[data-different-questions]")
    expect(warning).to_be_visible()
    box = warning.bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"]  # on the first screen
    expected = said(
        "These two runs asked different questions, so what changed between them is not how "
        "the evidence on one question moved.",
        page.language,
    )
    expect(warning.locator("strong")).to_have_text(expected)
    expect(warning).to_contain_text(english.question)
    expect(warning).to_contain_text(chinese.question)
    assert_no_sideways_scroll(page, page.width)
    shot(page, f"compare-different-questions-{page.width}-{page.language}", full_page=False)
