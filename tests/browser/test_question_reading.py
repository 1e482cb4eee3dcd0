"""The question form fills its dimension rows from the question as it is typed."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"


@pytest.fixture
def form(page, live_server, django_user_model, settings, tmp_path):
    settings.SOURCES = [("notes", f"local:{tmp_path}")]
    django_user_model.objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_server.url, "ada", PASSWORD)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"{live_server.url}/new/")
    return page


def rows(page) -> list[tuple[str, str]]:
    names = page.locator("[data-custom-rows] input[name=dimension_name]").all()
    weights = page.locator("[data-custom-rows] input[name=dimension_weight]").all()
    pairs = [(n.input_value(), w.input_value()) for n, w in zip(names, weights, strict=True)]
    return [p for p in pairs if p != ("", "")]


def test_an_english_question_fills_the_rows_with_its_dimensions(form):
    form.get_by_role("textbox", name="Question").press_sequentially(
        "Choose between RabbitMQ, Kafka and NATS; delivery guarantees matter most, then throughput"
    )

    expect(form.locator("[data-reading]")).to_contain_text("Read from the question")
    assert form.locator("input[name=preset][value=custom]").is_checked()
    assert rows(form) == [("delivery guarantees", "66.7%"), ("throughput", "33.3%")]
    shot(form, "question-reading-en")


def test_a_chinese_question_fills_the_rows_and_a_changed_question_changes_them(form):
    question = form.get_by_role("textbox", name="Question")
    question.fill("Vue、React、Svelte 三选一，考虑学习成本、生态成熟度、运行性能")

    expect(form.locator("[data-reading]")).to_contain_text("学习成本")
    assert rows(form) == [("学习成本", "33.3%"), ("生态成熟度", "33.3%"), ("运行性能", "33.3%")]

    question.fill("Vue、React、Svelte 三选一，考虑学习成本、运行性能，学习成本占 70%")
    expect(form.locator("[data-reading]")).to_contain_text("70%")
    assert rows(form) == [("学习成本", "70%"), ("运行性能", "30%")]

    # Without dimensions in the question, the rows empty and the preset comes back.
    question.fill("Vue、React、Svelte 三选一")
    expect(form.locator("input[name=preset][value=tech]")).to_be_checked()
    assert rows(form) == []


def test_rows_the_person_filled_in_are_never_overwritten(form):
    form.locator("input[name=preset][value=custom]").check()
    form.locator("[data-custom-rows] input[name=dimension_name]").first.fill("price")
    form.get_by_role("textbox", name="Question").fill("A vs B, weighing cost and risk")

    expect(form.locator("[data-reading]")).to_contain_text("rows below are used")
    # The rows started from the preset's, and the first was renamed: all stay as they are.
    assert rows(form)[0] == ("price", "20%")
    assert ("cost", "50%") not in rows(form) and ("risk", "20%") in rows(form)


def test_in_chinese_the_form_says_what_it_read_and_names_its_rows_in_chinese(form):
    form.get_by_role("button", name="简体中文").click()
    expect(form.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(form.locator("#dimensions")).to_contain_text("会被采用，除非你自己设定")
    form.locator("#id_question").fill(
        "Vue、React、Svelte 三选一，考虑学习成本、运行性能，学习成本占 70%"
    )

    expect(form.locator("[data-reading]")).to_have_text(
        "从问题中读出：学习成本 70% · 运行性能 30%。如需要，可在下面修改。"
    )
    expect(form.get_by_role("textbox", name="维度名称 1")).to_have_value("学习成本")
    expect(form.get_by_role("textbox", name="维度 2 的权重")).to_have_value("30%")
    expect(form.get_by_role("button", name="删除维度 1")).to_be_visible()
    shot(form, "question-reading-zh")

    # Someone who reads no Chinese finds the way back by the language's own name.
    form.get_by_role("button", name="English", exact=True).click()
    expect(form.locator("html")).to_have_attribute("lang", "en")
    form.locator("#id_question").fill("A vs B, weighing cost and risk")
    expect(form.locator("[data-reading]")).to_contain_text("Read from the question: cost 50%")
    expect(form.get_by_role("textbox", name="Dimension name 1")).to_have_value("cost")
