"""The stage tools over MCP: search, filter, page fetch, key points and the assessment.

Everything stays on this machine: searches go to a local corpus (and to a closed port for
a source that cannot be reached), pages come from the test web on 127.0.0.1.
"""

from __future__ import annotations

import json
import shutil

import pytest

from research import services
from research.artifacts import Question
from research.names import CROSSCHECK, DECISION, FILTERED, NOTES, page_artifact
from research.runs import execute, registry
from research.store import store_for
from tests.processes import refused_port
from tests.research.mcp.clients import call_tool
from tests.runs import CORPUS_EN

pytestmark = pytest.mark.django_db

QUESTION = (
    "For our local-first notes app, choose between Quillsync, Loamdb and Tessera, weighing "
    "licence risk, maintenance activity and customisation cost"
)


@pytest.fixture
def corpus(tmp_path):
    return shutil.copytree(CORPUS_EN, tmp_path / "notes_en")


@pytest.fixture(autouse=True)
def sources(settings, corpus):
    settings.SOURCES = {
        "notes": f"local:{corpus}",
        "down": f"searxng:http://127.0.0.1:{refused_port()}",  # nothing listens there
    }
    settings.DEFAULT_SOURCES = ["notes"]


def run_through(owner, corpus, last_stage: str | None):
    """A run of `owner` whose stages up to `last_stage` have run (none with None)."""
    run = services.create_run(Question(question=QUESTION, sources=[f"local:{corpus}"]), owner=owner)
    for stage in registry.active_stages() if last_stage else ():
        execute.execute_stage(run.run_id, stage)
        if stage == last_stage:
            break
    return run


# --- search_engine_query -------------------------------------------------------------------


def test_search_goes_through_the_named_source(ada):
    result = call_tool(ada, "search_engine_query", {"query": "Loamdb licence", "source": "notes"})
    assert not result.is_error
    data = result.structured_content
    assert data["status"] == "OK"
    assert data["sources"] == [
        {"source": "notes", "outcome": "OK", "hits": len(data["results"]), "detail": ""}
    ]
    assert 0 < len(data["results"]) <= 10
    assert all(r["source"] == "notes" for r in data["results"])
    titles = " ".join(r["title"] for r in data["results"])
    assert "Loamdb licence change" in titles


def test_search_returns_at_most_max_results_and_never_more_than_ten(ada):
    two = call_tool(ada, "search_engine_query", {"query": "Quillsync Loamdb", "max_results": 2})
    assert two.structured_content["status"] == "OK"
    assert len(two.structured_content["results"]) == 2
    eleven = call_tool(ada, "search_engine_query", {"query": "Quillsync", "max_results": 11})
    assert eleven.is_error
    assert (
        eleven.content[0].text == "INVALID_ARGUMENT: max_results: must be a number between 1 and 10"
    )
    assert eleven.structured_content["status"] == "INVALID_ARGUMENT"


def test_a_search_that_finds_nothing_is_no_hit_not_an_error(ada):
    result = call_tool(ada, "search_engine_query", {"query": "zygomorphic flumbragent"})
    assert not result.is_error
    data = result.structured_content
    assert data["status"] == "NO_HIT" and data["results"] == []
    assert data["sources"][0]["outcome"] == "NO_HIT"


def test_a_search_that_finds_nothing_never_tells_the_client_the_servers_folder(ada, corpus):
    result = call_tool(ada, "search_engine_query", {"query": "zygomorphic flumbragent"})

    said = json.dumps(result.structured_content) + result.content[0].text
    assert result.structured_content["sources"][0]["detail"] == "nothing in its documents matches"
    assert str(corpus) not in said and "notes_en" not in said


def test_a_source_that_cannot_be_reached_is_unavailable_and_an_error(ada):
    result = call_tool(ada, "search_engine_query", {"query": "Loamdb", "source": "down"})
    assert result.is_error
    data = result.structured_content
    assert data["status"] == "UNAVAILABLE"
    assert data["sources"][0]["source"] == "down"
    assert data["sources"][0]["outcome"] == "UNAVAILABLE"
    assert "No source could be searched" in result.content[0].text


def test_with_every_source_the_outcome_of_each_is_given(ada, settings):
    settings.DEFAULT_SOURCES = ["notes", "down"]
    result = call_tool(ada, "search_engine_query", {"query": "Loamdb licence"})
    assert not result.is_error
    data = result.structured_content
    assert data["status"] == "OK" and data["results"]
    assert {s["source"]: s["outcome"] for s in data["sources"]} == {
        "notes": "OK",
        "down": "UNAVAILABLE",
    }


def test_a_result_with_a_broken_address_is_left_out_not_a_failed_search(ada, settings, testweb):
    good = {"url": "https://kb.example/loamdb-licence", "title": "Loamdb licence change"}
    broken = [{"url": "http://[::1", "title": "broken"}, {"url": "https://kb.example:99999/"}]
    base = testweb.add_searxng(lambda query: [*broken, good])
    settings.SOURCES = {**settings.SOURCES, "web": f"searxng:{base}"}
    result = call_tool(ada, "search_engine_query", {"query": "Loamdb licence", "source": "web"})
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert data["status"] == "OK"
    assert [r["url"] for r in data["results"]] == [good["url"]]


@pytest.mark.parametrize("source", ["http://127.0.0.1:9/search", "local:/etc", "elsewhere"])
def test_only_configured_source_names_are_accepted(ada, source):
    result = call_tool(ada, "search_engine_query", {"query": "Loamdb", "source": source})
    assert result.is_error
    assert result.structured_content["status"] == "INVALID"
    assert "the configured sources are: notes, down" in result.content[0].text


def test_an_empty_query_is_invalid(ada):
    result = call_tool(ada, "search_engine_query", {"query": "   "})
    assert result.is_error and result.structured_content["status"] == "INVALID"


# --- chunk_filter_candidates ---------------------------------------------------------------


def test_filtering_a_run_judges_exactly_as_the_filter_stage_does(ada, corpus):
    run = run_through(ada, corpus, "retrieve")
    result = call_tool(ada, "chunk_filter_candidates", {"run_id": run.run_id})
    assert not result.is_error
    data = result.structured_content
    assert data["status"] == "OK"
    execute.execute_stage(run.run_id, "filter")
    stage = store_for(run.run_id).read_json(FILTERED)
    assert [k["id"] for k in data["kept"]] == [k["id"] for k in stage["kept"]]
    assert [k["reasons"] for k in data["kept"]] == [k["reasons"] for k in stage["kept"]]
    assert {d["id"]: d["reason"] for d in data["dropped"]} == {
        d["id"]: d["reason"] for d in stage["dropped"]
    }
    assert data["kept"] and all(k["reasons"] for k in data["kept"])


def test_candidates_given_are_kept_or_dropped_with_reasons(ada):
    candidates = [
        {
            "url": "https://github.com/loamdb/loamdb/blob/main/LICENSE",
            "title": "Loamdb licence: Business Source License 1.1",
            "snippet": "Loamdb switched to the BSL in 2024; Quillsync stays MIT licensed.",
            "published": "2024-10-02",
        },
        {
            "url": "https://recipes.example/banana-bread",
            "title": "The best banana bread",
            "snippet": "Mash three ripe bananas and fold in the flour.",
        },
        {
            "url": "https://old.example/loamdb-1-0",
            "title": "Loamdb 1.0 released",
            "snippet": "Loamdb 1.0 is out with Quillsync import.",
            "published": "2009-03-01",
        },
    ]
    arguments = {
        "candidates": candidates,
        "question": QUESTION,
        "options": ["Quillsync", "Loamdb", "Tessera"],
    }
    result = call_tool(ada, "chunk_filter_candidates", arguments)
    assert not result.is_error
    data = result.structured_content
    assert [k["url"] for k in data["kept"]] == [candidates[0]["url"]]
    assert any("mentions" in reason for reason in data["kept"][0]["reasons"])
    reasons = {d["url"]: d["reason"] for d in data["dropped"]}
    assert reasons[candidates[1]["url"]].startswith("off topic")
    assert reasons[candidates[2]["url"]].startswith("outdated")
    assert "fewer than 3 strong sources" in data["message"]


def test_filtering_before_retrieve_has_run_is_not_ready(ada, corpus):
    run = run_through(ada, corpus, None)
    result = call_tool(ada, "chunk_filter_candidates", {"run_id": run.run_id})
    assert result.is_error
    assert result.structured_content["status"] == "NOT_READY"
    assert "retrieve" in result.content[0].text


@pytest.mark.parametrize(
    "arguments",
    [{}, {"run_id": "r1", "candidates": [{"url": "https://a.example/"}]}],
)
def test_filtering_needs_a_run_or_candidates_but_not_both(ada, arguments):
    result = call_tool(ada, "chunk_filter_candidates", arguments)
    assert result.is_error and result.structured_content["status"] == "INVALID"


@pytest.mark.parametrize(
    "url", ["http://[::1", "https://a.example:99999/", "javascript:alert(1)", "https:///x", ""]
)
def test_a_candidate_without_a_web_address_is_invalid_and_named(ada, url):
    candidates = [{"url": "https://a.example/loamdb-licence", "title": "Loamdb licence"}]
    arguments = {"candidates": [*candidates, {"url": url}], "question": QUESTION}
    result = call_tool(ada, "chunk_filter_candidates", arguments)
    assert result.is_error and result.structured_content["status"] == "INVALID"
    assert "candidate 2" in result.content[0].text and "http(s)" in result.content[0].text


def test_filtering_another_users_run_is_no_hit(ada, bob, corpus):
    theirs = run_through(bob, corpus, "retrieve")
    result = call_tool(ada, "chunk_filter_candidates", {"run_id": theirs.run_id})
    assert result.is_error and result.structured_content["status"] == "NO_HIT"
    assert result.structured_content["kept"] == []


# --- page_fetch_markdown -------------------------------------------------------------------

ARTICLE = """<!DOCTYPE html><html><head><title>Quillsync 3.0 release notes</title>
<meta property="article:published_time" content="2025-02-11"></head><body>
<nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<article><h1>Quillsync 3.0 release notes</h1>
<p>Quillsync 3.0 ships a new conflict resolver that merges concurrent edits to the same
paragraph without asking the user. Sync of a 10,000-note vault now takes 4 seconds instead
of 19 seconds on the reference laptop.</p>
<h2>Licence</h2>
<p>Quillsync stays under the MIT licence. There are no plans to change it, and the
contributor agreement has been dropped in favour of a plain DCO sign-off.</p>
<h2>Maintenance</h2>
<p>The project made 41 releases in the last two years and the median time to close a bug
report is now six days. Three companies fund two full-time maintainers between them.</p>
</article><footer>Copyright Quillsync contributors</footer></body></html>"""


def test_a_page_comes_back_as_markdown_in_parts(ada, testweb, allow_loopback):
    url = testweb.add("/quillsync-3", ARTICLE)
    whole = call_tool(ada, "page_fetch_markdown", {"url": url, "max_length": 20_000})
    assert not whole.is_error
    page = whole.structured_content
    assert page["status"] == "OK" and page["next_index"] is None
    assert page["title"] == "Quillsync 3.0 release notes"
    assert page["published"] == "2025-02-11"
    assert "## Licence" in page["content"] and "MIT licence" in page["content"]
    assert "Home" not in page["content"]  # the navigation is not main text
    assert page["total_length"] == len(page["content"])

    parts, start = [], 0
    while start is not None:
        part = call_tool(
            ada, "page_fetch_markdown", {"url": url, "start_index": start, "max_length": 150}
        ).structured_content
        assert part["status"] == "OK" and part["start_index"] == start
        assert len(part["content"]) <= 150
        assert part["total_length"] == page["total_length"]
        parts.append(part["content"])
        start = part["next_index"]
    assert len(parts) > 2
    assert "".join(parts) == page["content"]


def test_a_private_address_is_blocked(ada, testweb):
    url = testweb.add("/quillsync-3", ARTICLE)  # 127.0.0.1, not allowed for this test
    result = call_tool(ada, "page_fetch_markdown", {"url": url})
    assert result.is_error
    data = result.structured_content
    assert data["status"] == "BLOCKED" and data["content"] == ""
    assert "127.0.0.1" in data["message"]
    assert testweb.requests == []  # refused before any connection


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/x"])
def test_only_web_addresses_are_fetched(ada, url):
    result = call_tool(ada, "page_fetch_markdown", {"url": url})
    assert result.is_error and result.structured_content["status"] == "BLOCKED"


def test_a_missing_page_is_no_hit_and_a_broken_site_unavailable(ada, testweb, allow_loopback):
    missing = call_tool(ada, "page_fetch_markdown", {"url": testweb.url("/nowhere")})
    assert not missing.is_error
    assert missing.structured_content["status"] == "NO_HIT"
    broken = testweb.add("/broken", "oops", status=503)
    result = call_tool(ada, "page_fetch_markdown", {"url": broken})
    assert result.is_error and result.structured_content["status"] == "UNAVAILABLE"


def test_a_start_index_past_the_end_is_invalid(ada, testweb, allow_loopback):
    url = testweb.add("/quillsync-3", ARTICLE)
    result = call_tool(ada, "page_fetch_markdown", {"url": url, "start_index": 1_000_000})
    assert result.is_error
    assert result.structured_content["status"] == "INVALID"
    assert "past the end" in result.content[0].text


# --- extract_key_points --------------------------------------------------------------------

TEXT = (
    "# Sync engines we looked at\n\n"
    "Loamdb switched to the Business Source License in 2024, which raises the licence "
    "risk for commercial products. Quillsync stays under the MIT licence and made 41 "
    "releases in the last two years.\n\nThe office coffee machine is broken again.\n"
)


def test_key_points_of_a_text_quote_it_exactly(ada):
    arguments = {
        "text": TEXT,
        "options": ["Quillsync", "Loamdb"],
        "dimensions": ["licence risk", "maintenance activity"],
    }
    result = call_tool(ada, "extract_key_points", arguments)
    assert not result.is_error
    points = result.structured_content["key_points"]
    assert {p["option"] for p in points} == {"Quillsync", "Loamdb"}
    for point in points:
        assert TEXT[point["offset"] : point["offset"] + len(point["quote"])] == point["quote"]
    assert not any("coffee" in p["quote"] for p in points)
    loamdb = next(p for p in points if p["option"] == "Loamdb")
    assert "Business Source License" in loamdb["quote"]
    assert loamdb["dimension"] == "licence risk"


def test_a_text_with_nothing_about_the_options_is_no_hit(ada):
    arguments = {"text": "The office coffee machine is broken again.", "options": ["Loamdb"]}
    result = call_tool(ada, "extract_key_points", arguments)
    assert not result.is_error
    assert result.structured_content["status"] == "NO_HIT"
    assert result.structured_content["key_points"] == []


def test_key_points_of_a_page_a_run_read_are_the_notes_of_deep_read(ada, corpus):
    run = run_through(ada, corpus, "deepread")
    store = store_for(run.run_id)
    source = next(s for s in store.read_json(NOTES)["sources"] if s["key_points"])
    arguments = {"run_id": run.run_id, "source_id": source["source_id"]}
    result = call_tool(ada, "extract_key_points", arguments)
    assert not result.is_error
    data = result.structured_content
    assert data["uri"] == f"research://runs/{run.run_id}/{page_artifact(source['source_id'])}"
    assert [p["quote"] for p in data["key_points"]] == [k["quote"] for k in source["key_points"]]
    stored = store.read_text(page_artifact(source["source_id"]))
    for point in data["key_points"]:
        assert stored[point["offset"] : point["offset"] + len(point["quote"])] == point["quote"]


def test_key_points_of_a_page_that_could_not_be_read_give_its_outcome(ada, corpus):
    run = run_through(ada, corpus, None)
    notes = {
        "sources": [
            {
                "source_id": "s1",
                "url": "http://10.0.0.7/wiki",
                "status": "BLOCKED",
                "detail": "10.0.0.7 is a private address",
            }
        ]
    }
    store_for(run.run_id).write_json(NOTES, notes)
    result = call_tool(ada, "extract_key_points", {"run_id": run.run_id, "source_id": "s1"})
    assert result.is_error
    assert result.structured_content["status"] == "BLOCKED"
    assert "private address" in result.content[0].text


def test_key_points_before_deep_read_are_not_ready(ada, corpus):
    run = run_through(ada, corpus, "filter")
    result = call_tool(ada, "extract_key_points", {"run_id": run.run_id, "source_id": "s1"})
    assert result.is_error
    assert result.structured_content["status"] == "NOT_READY"
    assert "page_fetch_markdown" in result.content[0].text


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"text": TEXT, "options": ["Loamdb"], "run_id": "r1"},
        {"text": TEXT},
        {"run_id": "r1", "source_id": "../../etc/passwd"},
    ],
)
def test_key_points_need_a_run_page_or_a_text_with_options(ada, corpus, arguments):
    if "run_id" in arguments and "text" not in arguments:
        arguments["run_id"] = run_through(ada, corpus, None).run_id
    result = call_tool(ada, "extract_key_points", arguments)
    assert result.is_error and result.structured_content["status"] == "INVALID"


# --- generate_assessment -------------------------------------------------------------------


def test_an_assessment_of_a_cross_validated_run_is_what_decide_concludes(ada, corpus):
    run = run_through(ada, corpus, "crosscheck")
    computed = call_tool(ada, "generate_assessment", {"run_id": run.run_id})
    assert not computed.is_error
    data = computed.structured_content
    assert data["status"] == "OK" and data["source"] == "computed"
    assert data["stage"] == "decide"
    assert data["recommendation"] in ("Quillsync", "Loamdb", "Tessera")
    assert 0 <= data["confidence"] <= 100
    assert set(data["assessment"]) >= {"coverage", "consistency", "timeliness", "verifiability"}
    assert {s["option"] for s in data["scores"]} == {"Quillsync", "Loamdb", "Tessera"}
    for ranked in data["ranking"]:  # how much of its weight rests on evidence, and on whom
        assert 0 <= ranked["evidence_share"] <= 100 and ranked["sites"]
    assert data["single_site"] is None  # the best option rests on more than one site
    assert (data["withheld"], data["no_recommendation_reason"]) == (None, "")
    assert not (store_for(run.run_id).path / DECISION).exists()

    execute.execute_stage(run.run_id, "decide")
    stored = call_tool(ada, "generate_assessment", {"run_id": run.run_id}).structured_content
    assert stored["source"] == "stored"
    decision = store_for(run.run_id).read_json(DECISION)
    assert stored["recommendation"] == decision["recommendation"]["option"]
    assert stored["confidence"] == decision["assessment"]["confidence"]
    keys = ("recommendation", "single_site", "withheld", "confidence", "scores", "ranking")
    for key in (*keys, "missing_information"):
        assert stored[key] == data[key], key


def test_an_assessment_before_cross_validation_is_not_ready(ada, corpus):
    run = run_through(ada, corpus, "filter")
    result = call_tool(ada, "generate_assessment", {"run_id": run.run_id})
    assert result.is_error
    data = result.structured_content
    assert data["status"] == "NOT_READY" and data["stage"] == "deepread"
    assert "not cross-validated yet" in result.content[0].text
    assert data["recommendation"] is None


def test_an_assessment_of_another_users_run_is_no_hit(ada, bob, corpus):
    theirs = run_through(bob, corpus, "crosscheck")
    result = call_tool(ada, "generate_assessment", {"run_id": theirs.run_id})
    assert result.is_error and result.structured_content["status"] == "NO_HIT"
    assert store_for(theirs.run_id).is_valid(CROSSCHECK)
