"""The pages a signed-in person opens outside a run, rendered in Chinese, have no English left
in them outside quotes, names and code."""

from __future__ import annotations

import html
import re

import pytest

from research import uploads
from tests.research.web.conftest import make_run

pytestmark = pytest.mark.django_db

CHINESE = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans,zh;q=0.9"}
ZH_QUESTION = "青鸟流程、河图引擎、星轨调度三选一，哪个更适合我们的审批系统？"
# Names a Chinese page keeps as they are.
NAMES = {
    "Verdict",
    "MCP",
    "Markdown",
    "GitHub",
    "PyPI",
    "JSON",
    "API",
    "URL",
    "HTTP",
    "HTTPS",
    "PDF",
    "HTML",
    "SHA",
    "Claude",
    "Desktop",
    "Code",
    "Cursor",
    "VS",
    "Node",
    "OAuth",
    "Redis",
    "Celery",
    "SearXNG",
    "DuckDuckGo",
    "Wikipedia",
    "LLM",
    "CSV",
    "UTF",
    "English",
    "Europe",
    "PMC",
    "Inspector",
    "Open",
    "User",
    "Configuration",  # a VS Code command, named as VS Code names it
}
STRIPPED = re.compile(
    r"<(script|style|code|pre|blockquote|q|option|kbd|samp|textarea)\b.*?</\1>", re.S | re.I
)


def english_left(page: str) -> list[str]:
    body = STRIPPED.sub(" ", page.split("<body", 1)[-1])
    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    text = re.sub(r"“[^”]*”|\"[^\"]*\"|‘[^’]*’|「[^」]*」", " ", text)  # quoted
    text = re.sub(r"https?://\S+|\S+\.(?:md|json|jsonl|pdf|html|txt)\b|\S+/\S+", " ", text)
    text = re.sub(r"\b(?:" + "|".join(sorted(NAMES)) + r")\b", " ", text)
    return re.findall(r"[A-Za-z][A-Za-z'’-]+(?:\s+[A-Za-z][A-Za-z'’-]+)+", text)


@pytest.fixture
def pages(ada, ada_client) -> list[str]:
    uploads.save(ada, "笔记.md", "# 笔记\n\n青鸟流程很好。\n".encode())
    make_run(ada, question=ZH_QUESTION)
    return ["/new/", "/runs/", "/sources/mine/", "/accounts/", "/accounts/password/"]


def test_every_page_a_signed_in_person_opens_is_chinese(ada_client, pages):
    left = {}
    for url in pages:
        response = ada_client.get(url, **CHINESE)
        assert response.status_code == 200, url
        if english := english_left(response.content.decode()):
            left[url] = english
    assert left == {}


def test_the_check_finds_english_left_in_a_page():
    page = "<body><p>已完成 <b>Start research</b> Verdict 与 MCP</p><code>make run</code></body>"
    assert english_left(page) == ["Start research"]
