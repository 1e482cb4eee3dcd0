"""The site in the reader's language: Chinese for a browser that asks for it, a switch in
the header, and a run's own pages in its question's language whatever the browser's."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from research.models import Run
from tests.research.web.conftest import QUESTION, make_run, mark

pytestmark = pytest.mark.django_db

ZH_QUESTION = "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？"
CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans,zh;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


def text_of(response) -> str:
    """What a reader sees: the page without its tags, scripts and attributes."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_a_chinese_browser_gets_the_header_and_the_question_form_in_chinese(ada_client):
    page = ada_client.get("/new/", **CHINESE)
    seen = text_of(page)
    assert '<html lang="zh-Hans">' in page.content.decode()
    for words in ("新问题", "运行记录", "退出登录", "提出一个决策问题", "维度与权重", "开始研究"):
        assert words in seen
    assert "Sign out" not in seen and "Start research" not in seen


def test_an_english_browser_gets_english(ada_client):
    seen = text_of(ada_client.get("/new/", **ENGLISH))
    assert "Ask a decision question" in seen and "Sign out" in seen
    assert "开始研究" not in seen


def test_the_form_refuses_in_chinese_for_a_chinese_browser(ada_client):
    page = ada_client.post("/new/", {"question": "  ", "sources": ["notes"]}, **CHINESE)
    seen = text_of(page)
    assert "问题未能开始研究。" in seen
    assert "问题为空：请说明需要决定什么。" in seen
    assert "The question is empty" not in seen
    assert not Run.objects.exists()


def test_the_runs_list_is_in_chinese(ada, ada_client):
    make_run(ada)
    seen = text_of(ada_client.get("/runs/", **CHINESE))
    assert "你的运行" in seen and "1 个运行，最新的在前。" in seen
    assert "排队中" in seen  # the run's status
    assert "Your runs" not in seen and "Queued" not in seen


def test_the_header_switch_changes_the_language_and_keeps_the_page(ada_client):
    page = ada_client.get("/runs/", **ENGLISH)
    assert 'action="/i18n/setlang/"' in page.content.decode()
    assert 'name="csrfmiddlewaretoken"' in page.content.decode()
    switched = ada_client.post(
        "/i18n/setlang/", {"language": "zh-hans", "next": "/runs/"}, **ENGLISH
    )
    assert switched.status_code == 302 and switched["Location"] == "/runs/"
    assert "你的运行" in text_of(ada_client.get("/runs/", **ENGLISH))
    ada_client.post("/i18n/setlang/", {"language": "en", "next": "/runs/"}, **ENGLISH)
    assert "Your runs" in text_of(ada_client.get("/runs/", **ENGLISH))


def test_the_switch_needs_the_csrf_token(ada):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)
    refused = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/runs/"})
    assert refused.status_code == 403


def test_a_chinese_questions_run_page_is_chinese_in_an_english_browser(ada, ada_client):
    run = make_run(ada, question=ZH_QUESTION)
    mark(run, "retrieve", "done", {"candidates": 12, "queries": 1})
    mark(run, "filter", "running")
    page = ada_client.get(f"/runs/{run.run_id}/", **ENGLISH)
    seen = text_of(page)
    assert '<html lang="zh-Hans">' in page.content.decode()
    for words in ("检索", "筛选", "已完成", "进行中", "12 个候选", "1 条查询", "取消运行"):
        assert words in seen, words
    for words in ("Retrieve", "Cancel run", "candidates found", "Stages"):
        assert words not in seen, words
    partial = text_of(ada_client.get(f"/runs/{run.run_id}/progress/", **ENGLISH))
    assert "已完成 1/5" in partial


def test_an_english_questions_run_page_stays_english_in_a_chinese_browser(ada, ada_client):
    run = make_run(ada, question=QUESTION)
    seen = text_of(ada_client.get(f"/runs/{run.run_id}/", **CHINESE))
    assert "Retrieve" in seen and "Cancel run" in seen
    assert "检索" not in seen


def test_someone_elses_run_stays_a_404_in_either_language(ada, bob_client):
    run = make_run(ada, question=ZH_QUESTION)
    assert bob_client.get(f"/runs/{run.run_id}/", **ENGLISH).status_code == 404


def test_a_chinese_questions_files_page_is_chinese_too(ada, ada_client):
    run = make_run(ada, question=ZH_QUESTION)
    seen = text_of(ada_client.get(f"/runs/{run.run_id}/artifacts/", **ENGLISH))
    assert "本次运行的文件" in seen and "清单与决策日志" in seen
    assert "Files of this run" not in seen


@pytest.mark.parametrize("asked", ["zh-CN,zh;q=0.9", "zh-TW", "zh"])
def test_every_chinese_browser_gets_simplified_chinese(ada_client, asked):
    seen = text_of(ada_client.get("/new/", HTTP_ACCEPT_LANGUAGE=asked))
    assert "提出一个决策问题" in seen


def test_sign_in_and_the_password_pages_are_chinese_for_a_chinese_browser(ada, ada_client):
    assert "还没有账户？" in text_of(Client().get("/accounts/login/", **CHINESE))
    seen = text_of(ada_client.get("/accounts/password/", **CHINESE))
    assert "修改密码" in seen and "Change password" not in seen


def test_the_account_page_is_chinese_for_a_chinese_browser(ada_client):
    page = ada_client.get("/accounts/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    for words in ("你的账户", "MCP 的 API 令牌", "连接客户端", "创建令牌", "在终端中运行"):
        assert words in page
    assert "Your account" not in page and "Create token" not in page


def test_the_dimensions_hint_with_a_percentage_is_chinese_too(ada_client):
    seen = text_of(ada_client.get("/new/", **CHINESE))
    assert "会被采用，除非你自己设定。" in seen and "“A 占 40%”" in seen
    assert "are used unless you set your own" not in seen and "40%%" not in seen
    english = text_of(ada_client.get("/new/", **ENGLISH))
    assert "“A 占 40%”) are used unless you set your own." in english


def test_each_language_is_offered_in_its_own_name(ada_client):
    chinese = ada_client.get("/runs/", **CHINESE).content.decode()
    assert re.search(r'value="en" lang="en"[^>]*>English</button>', chinese)
    assert "英语" not in chinese
    english = ada_client.get("/runs/", **ENGLISH).content.decode()
    assert re.search(r'value="zh-hans" lang="zh-Hans"[^>]*>简体中文</button>', english)


def test_the_question_forms_script_is_given_its_words_in_the_pages_language(ada_client):
    chinese = ada_client.get("/new/", **CHINESE).content.decode()
    words = json.loads(re.search(r'id="question-text"[^>]*>(.*?)</script>', chinese).group(1))
    assert words["dimension_name"] == "维度名称 {n}"
    assert words["read"] == "从问题中读出：{dimensions}。如需要，可在下面修改。"
    english = ada_client.get("/new/", **ENGLISH).content.decode()
    assert "Change them below if you like." in english
