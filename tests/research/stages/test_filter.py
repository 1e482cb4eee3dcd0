from __future__ import annotations

from datetime import date

from research.artifacts import Candidate, Candidates, Dimension, Limits, Plan, SubQuery
from research.context import StageContext
from research.stages.filter import filter_candidates

TODAY = date(2026, 11, 30)


def plan(max_kept: int = 12) -> Plan:
    return Plan(
        question="For our notes app, choose between Quillsync and Loamdb, weighing licence risk",
        options=["Quillsync", "Loamdb"],
        dimensions=[Dimension(name="licence risk", weight=1.0)],
        sources=["local:x"],
        queries=[SubQuery(id="q01", text="Quillsync licence risk")],
        limits=Limits(max_kept=max_kept),
    )


def cand(
    n: int, url: str, title: str, snippet: str = "", published: str | None = "2026-01-01"
) -> Candidate:
    return Candidate(
        id=f"s{n}",
        url=url,
        title=title,
        snippet=snippet,
        provider="local",
        query="q",
        rank=n,
        published=published,
    )


def run(cands: list[Candidate], max_kept: int = 12):
    ctx = StageContext()
    return filter_candidates(plan(max_kept), Candidates(candidates=cands), ctx, TODAY), ctx


def test_it_drops_pages_that_mention_no_option_and_says_why():
    result, ctx = run(
        [
            cand(1, "https://quillsync.dev/licence", "Quillsync licensing", "Apache-2.0 licence"),
            cand(2, "https://recipes.example/bread", "Sourdough bread", "Flour, water and salt"),
        ]
    )
    assert [k.id for k in result.kept] == ["s1"]
    assert result.dropped[0].id == "s2"
    assert "off topic" in result.dropped[0].reason
    logged = [e for e in ctx.events if e["event"] == "candidate_dropped"]
    assert logged[0]["reason"] == result.dropped[0].reason


def test_it_removes_a_syndicated_copy_with_a_near_identical_title():
    result, _ = run(
        [
            cand(
                1,
                "https://devnotes.example/quillsync-vs-loamdb",
                "Quillsync vs Loamdb: a licence review",
            ),
            cand(2, "https://mirror.example/posts/77", "Quillsync vs Loamdb - a licence review"),
        ]
    )
    assert len(result.kept) == 1
    assert result.dropped[0].reason.startswith("near-duplicate of")


def test_pages_about_different_options_are_not_duplicates_even_with_similar_titles():
    result, _ = run(
        [
            cand(1, "https://a.example/1", "Quillsync licence review"),
            cand(2, "https://b.example/2", "Loamdb licence review"),
        ]
    )
    assert len(result.kept) == 2


def test_it_drops_outdated_pages_and_prefers_fresh_primary_sources():
    result, _ = run(
        [
            cand(1, "https://forum.example/t/1", "Loamdb licence question", published="2025-06-01"),
            cand(2, "https://github.com/loamdb/loamdb", "Loamdb licence", published="2026-05-01"),
            cand(3, "https://old.example/loamdb", "Loamdb licence in 2012", published="2012-01-01"),
        ]
    )
    assert [k.id for k in result.kept] == ["s2", "s1"]
    assert "outdated" in result.dropped[0].reason


def test_it_keeps_at_most_the_limit_and_records_the_cut():
    titles = [
        "Quillsync licence FAQ",
        "Why we picked Quillsync",
        "Quillsync in production",
        "Migrating to Quillsync from paper notes",
        "A week with Quillsync sync",
    ]
    cands = [cand(i, f"https://site{i}.example/q", t) for i, t in enumerate(titles, 1)]
    result, _ = run(cands, max_kept=3)
    assert len(result.kept) == 3
    assert len(result.dropped) == 2
    assert all("below the cut" in d.reason for d in result.dropped)
    assert all(k.reasons for k in result.kept)


def test_an_options_own_address_counts_as_naming_it_and_short_forms_count_too():
    from research.reading.text import mentions, option_names

    assert option_names("Apache Tessera") == ("Apache Tessera", "Tessera")
    assert option_names("Quill Sync Engine") == ("Quill Sync Engine", "QSE")
    assert mentions("Benchmarks of QSE under load", "Quill Sync Engine")
    assert not mentions("the qse flag", "Quill Sync Engine")  # initials only in capitals
    assert mentions("Why Tessera's ingest is slow", "Apache Tessera")


def test_a_page_on_an_options_own_site_is_kept_even_when_its_title_does_not_name_it():
    filtered, _ = run(
        [
            cand(1, "https://quillsync.io/docs/acknowledgements", "Acknowledgements and receipts"),
            cand(2, "https://cooking.example/soup", "A soup for winter evenings"),
        ]
    )
    assert [k.id for k in filtered.kept] == ["s1"]


def test_a_snippet_with_figures_and_comparisons_outranks_a_thin_one():
    filtered, _ = run(
        [
            cand(1, "https://a.example/1", "About Quillsync", "Quillsync is a notes tool."),
            cand(
                2,
                "https://b.example/2",
                "Quillsync in practice",
                "Quillsync syncs 40% faster than Loamdb since 2025.",
            ),
        ]
    )
    assert [k.id for k in filtered.kept] == ["s2", "s1"]


def test_a_camel_case_name_is_also_known_by_its_stem_written_as_a_name():
    from research.reading.text import mentions

    assert mentions("Push it through a single Rabbit queue.", "RabbitMQ")
    assert not mentions("That is a rabbit hole.", "RabbitMQ")
    assert mentions("Mongo keeps its documents in BSON.", "MongoDB")
