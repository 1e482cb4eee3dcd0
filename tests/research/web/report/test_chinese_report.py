"""A Chinese question's report is Chinese: no English outside the sources' own words (their
quotes, titles and addresses) and names (the options, the sites, licences, run ids)."""

from __future__ import annotations

import re

import pytest

from research.artifacts import Crosscheck, Notes, Plan
from research.store import store_for

pytestmark = pytest.mark.django_db

# Words a Chinese reader meets in Chinese technical writing as they are.
KEPT_AS_THEY_ARE = {"Verdict", "LLM", "token", "KB", "MB", "ms", "x", "HTML", "Last-Modified"}
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|`[^`]*`")
_LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
_ADDRESS = re.compile(r"(?:https?|file)://\S+|round_3_pages/\S+|\b[\w-]+(?:\.[\w-]+)+\b")


def english_outside_quotes(text: str, names: set[str]) -> list[str]:
    """The English words of `text` that are neither quoted, a link, an address, a name, nor
    a word Chinese technical writing keeps."""
    text = _LINK.sub(" ", text)
    text = _QUOTED.sub(" ", text)
    text = _ADDRESS.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", text) if w not in KEPT_AS_THEY_ARE]


def test_the_check_finds_an_attribute_left_in_english():
    leaked = "各来源对React的size (KB)说法不一：此前为active，现为inactive"
    assert english_outside_quotes(leaked, {"React"}) == ["size", "active", "inactive"]
    assert english_outside_quotes("各来源对React的体积 (KB)说法不一", {"React"}) == []


def test_a_chinese_report_has_no_english_outside_quotes_and_names(install):
    run = install("zh")
    store = store_for(run.run_id)
    plan = store.read_model("round_0_plan.json", Plan)
    notes = store.read_model("round_3_notes.json", Notes)
    check = store.read_model("round_4_crosscheck.json", Crosscheck)
    names = {
        run.run_id,
        *plan.options,
        *(s.title for s in notes.sources),
        *(s.site for s in notes.sources),
        *(c.value for c in check.claims if c.kind == "fact"),
        *(c.id for c in check.claims),
        *(x.id for x in check.contradictions),
    }
    report = store.read_text("report.md")
    assert "许可证" in report and "维护状态" in report  # attributes are there, in Chinese
    assert english_outside_quotes(report, names) == []


def test_a_chinese_report_names_its_sources_without_a_server_path(install):
    run = install("zh")
    store = store_for(run.run_id)
    plan = store.read_model("round_0_plan.json", Plan)
    report = store.read_text("report.md")
    folder = plan.sources[0].partition(":")[2]
    assert folder not in report
    assert "Verdict 检索了 本地文档。" in report


def test_the_chinese_report_page_has_no_english_outside_quotes_and_names(install, ada_client):
    run = install("zh")
    store = store_for(run.run_id)
    plan = store.read_model("round_0_plan.json", Plan)
    notes = store.read_model("round_3_notes.json", Notes)
    check = store.read_model("round_4_crosscheck.json", Crosscheck)
    names = {
        run.run_id,
        "Markdown",
        *plan.options,
        *(s.title for s in notes.sources),
        *(s.site for s in notes.sources),
        *(c.value for c in check.claims if c.kind == "fact"),
        *(c.id for c in check.claims),
        *(x.id for x in check.contradictions),
    }
    html = ada_client.get(f"/runs/{run.run_id}/report/", HTTP_ACCEPT_LANGUAGE="en").content
    body = html.decode().split('<main id="main">', 1)[1]
    body = re.sub(r"<(script|style|q|blockquote|code)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r'<a class="url"[^>]*>.*?</a>', " ", body, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", body)
    assert english_outside_quotes(text, names) == []
