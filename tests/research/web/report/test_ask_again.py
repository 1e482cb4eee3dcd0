"""Ask again: a new run of the same question, linked to the first, and the page (and MCP
tool) that says what changed between the two."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from research import uploads
from research.models import Run
from research.runs import tasks
from research.store import readers, store_for
from tests.research.mcp.clients import call_tool
from tests.runs import run_question

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(monkeypatch) -> list[tuple[str, str]]:
    calls: list[tuple[str, str]] = []
    monkeypatch.setattr(tasks, "start", lambda run_id, stage: calls.append((run_id, stage)))
    return calls


def test_ask_again_starts_the_same_question_linked_to_the_first(
    install, ada_client, started, django_capture_on_commit_callbacks
):
    run = install("en")
    with django_capture_on_commit_callbacks(execute=True):
        response = ada_client.post(reverse("web:again", args=[run.run_id]))

    again = Run.objects.exclude(pk=run.pk).get()
    assert response["Location"] == reverse("web:run", args=[again.run_id])
    assert (again.question, again.options, again.sources, again.limits) == (
        run.question,
        run.options,
        run.sources,
        run.limits,
    )
    assert [(d["name"], d["weight"]) for d in again.dimensions] == [
        (d["name"], d["weight"]) for d in run.dimensions
    ]
    assert again.owner == run.owner and started == [(again.run_id, "retrieve")]
    page = ada_client.get(response["Location"]).text
    assert f'data-again-of="{run.run_id}"' in page
    assert reverse("web:compare", args=[run.run_id, again.run_id]) in page


def test_the_compare_page_says_what_changed_between_two_runs(install, ada_client):
    before, after = install("en_budget"), install("en")
    url = reverse("web:compare", args=[before.run_id, after.run_id])

    page = ada_client.get(url).text

    b, a = (readers.decision(store_for(r.run_id)) for r in (before, after))
    for option, total in a.totals.items():
        assert f'<tr data-option="{option}">' in page
        assert f"{total:.1f}" in page
    added = {s.url for s in readers.notes(store_for(after.run_id)).ok_sources()} - {
        s.url for s in readers.notes(store_for(before.run_id)).ok_sources()
    }
    assert added and all(u in page for u in added if not u.startswith("file:"))
    assert page.count("data-added") == len(added)
    moved = [
        c
        for c in a.matrix
        if next(x for x in b.matrix if (x.option, x.dimension) == (c.option, c.dimension)).score
        != c.score
    ]
    assert moved and 'data-cell="' in page
    assert re.search(r"\d+ new claims?, from ", page)


def test_a_chinese_questions_compare_page_is_chinese_in_an_english_browser(install, ada_client):
    run = install("zh")
    url = reverse("web:compare", args=[run.run_id, run.run_id])  # nothing changed

    page = ada_client.get(url, HTTP_ACCEPT_LANGUAGE="en").text

    for words in ("有何变化", "推荐与置信度", "总分", "变动的单元格", "没有变化。"):
        assert words in page
    assert "What changed" not in page and "Totals" not in page


def test_another_user_gets_a_404_on_ask_again_and_compare(install, bob_client, started):
    before, after = install("en_budget"), install("en")
    assert bob_client.post(reverse("web:again", args=[before.run_id])).status_code == 404
    compare = reverse("web:compare", args=[before.run_id, after.run_id])
    assert bob_client.get(compare).status_code == 404
    assert Run.objects.count() == 2 and started == []


def test_compare_runs_over_mcp(install, ada, bob):
    before, after = install("en_budget"), install("en")
    args = {"run_id": before.run_id, "other_run_id": after.run_id}

    result = call_tool(ada, "compare_runs", args)

    assert not result.is_error
    found = result.structured_content["comparison"]
    a, b = (readers.decision(store_for(r.run_id)) for r in (after, before))
    assert found["same_question"] is True and found["warning"] == ""
    assert found["question_after"] == after.question
    assert found["recommendation_after"] == a.recommendation.option
    assert found["confidence_before"] == b.assessment.confidence
    assert {t["option"]: t["after"] for t in found["totals"]} == a.totals
    assert found["sources_added"] and found["cells_moved"]
    assert set(found["cells_moved"][0]) == {"option", "dimension", "before", "after", "why"}
    assert call_tool(bob, "compare_runs", args).structured_content["status"] == "NO_HIT"


def test_two_runs_of_different_questions_are_compared_only_under_a_warning(
    install, ada, ada_client
):
    english, chinese = install("en"), install("zh")
    assert english.question != chinese.question

    page = ada_client.get(reverse("web:compare", args=[english.run_id, chinese.run_id])).text
    top = unescape(page.split('id="answer"')[0])  # above the recommendation
    warning = top.split("data-different-questions", 1)[1]
    assert "different questions" in warning
    assert english.question in warning and chinese.question in warning

    args = {"run_id": english.run_id, "other_run_id": chinese.run_id}
    result = call_tool(ada, "compare_runs", args).structured_content
    assert result["comparison"]["same_question"] is False
    assert "different questions" in result["comparison"]["warning"] == result["message"]
    same = reverse("web:compare", args=[english.run_id, english.run_id])
    assert "data-different-questions" not in ada_client.get(same).text


def test_the_runs_list_groups_a_question_asked_again(install, ada_client, bob_client):
    before, after = install("en_budget"), install("en")
    b, a = (readers.decision(store_for(r.run_id)).recommendation.option for r in (before, after))

    page = ada_client.get(reverse("web:runs")).text

    assert page.count('data-asked="2"') == 2
    assert reverse("web:compare", args=[before.run_id, after.run_id]) in page
    assert ("data-recommendation-changed" in page) == (a != b)
    assert "data-asked" not in bob_client.get(reverse("web:runs")).text


def test_the_compare_page_names_my_documents_by_title_never_by_their_place_on_the_server(
    install, ada, ada_client, settings, tmp_path
):
    settings.VAR_DIR = tmp_path / "var"
    uploads.save(
        ada,
        "loamdb-review.md",
        b"# Loamdb field review\n\nLoamdb is released under the MIT licence and its "
        b"maintenance is active, with a release every month.\n",
    )
    before = install("en")
    after, _ = run_question(before.question, [f"local:{uploads.folder_for(ada)}"])
    Run.objects.filter(pk=after.pk).update(owner=ada)

    page = ada_client.get(reverse("web:compare", args=[before.run_id, after.run_id])).text

    told = call_tool(ada, "compare_runs", {"run_id": before.run_id, "other_run_id": after.run_id})

    assert "<li data-added>Loamdb field review</li>" in page
    for said in (page, json.dumps(told.structured_content)):
        assert "file:" not in said
        assert str(tmp_path) not in said and "/uploads/" not in said
    assert "Loamdb field review" in told.structured_content["comparison"]["sources_added"]
