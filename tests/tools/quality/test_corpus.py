"""Scoring a run against a labelled corpus, rule by rule on hand-built run folders, and the
`quality --corpus` command end to end on the fictional mini corpus in tests/fixtures."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from research.models import Run
from research.providers.documents import read_document
from tools.quality import corpus_runner
from tools.quality.corpus import (
    FUNNEL,
    RunArtifacts,
    TopicScore,
    normalise,
    overlap,
    score_run,
    tokens,
)

MINI_CORPUS = Path(settings.BASE_DIR) / "tests" / "fixtures" / "devcorpus_mini"
TALLY = "https://tallyforge.example/docs/about"
RAVEN = "https://ravenledger.example/readme"
FORUM = "https://bookkeepers-forum.example/t/tallyforge-licence-change/4471"


# --- hand-built run folders ---------------------------------------------------------------


@dataclass
class Source:
    id: str
    url: str
    text: str = ""
    key_points: tuple[str, ...] = ()
    status: str = "OK"


def write_run(
    folder: Path,
    sources: tuple[Source, ...] = (),
    claims: tuple[tuple[Source, str], ...] = (),
    contradictions: tuple[dict[str, Any], ...] = (),
    report: str | None = None,
    candidates: tuple[str, ...] | None = None,
    kept: tuple[str, ...] | None = None,
    decision: dict[str, Any] | None = None,
) -> RunArtifacts:
    """Write the round files scoring reads; candidates and kept default to every source."""
    (folder / "round_3_pages").mkdir(parents=True)
    urls = tuple(s.url for s in sources)
    notes = []
    for s in sources:
        (folder / f"round_3_pages/{s.id}.md").write_text(s.text, encoding="utf-8")
        notes.append(
            {
                "source_id": s.id,
                "url": s.url,
                "status": s.status,
                "page": f"round_3_pages/{s.id}.md",
                "key_points": [{"text": q, "quote": q} for q in s.key_points],
            }
        )
    rounds = {
        "round_1_candidates.json": {"candidates": [{"url": u} for u in candidates or urls]},
        "round_2_filtered.json": {"kept": [{"url": u} for u in kept or urls], "dropped": []},
        "round_3_notes.json": {"sources": notes},
        "round_4_crosscheck.json": {
            "claims": [
                {"id": f"c{i:03d}", "source_id": s.id, "quote": q}
                for i, (s, q) in enumerate(claims, 1)
            ],
            "contradictions": list(contradictions),
        },
        "round_5_decision.json": decision or {},
    }
    for name, data in rounds.items():
        (folder / name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    if report is not None:
        (folder / "report.md").write_text(report, encoding="utf-8")
    return RunArtifacts.load(folder)


def record(a: tuple[Source, str], b: tuple[Source, str], **extra: Any) -> dict[str, Any]:
    """A round 4 contradiction record between two quotes."""
    sides = {
        side: {"claim_id": f"c{side}", "source_id": s.id, "quote": q}
        for side, (s, q) in (("a", a), ("b", b))
    }
    return {"id": "x01", "option": "Tallyforge", "attribute": "licence", **sides, **extra}


def fact(quote: str, url: str = TALLY) -> dict[str, Any]:
    return {"option": "Tallyforge", "dimension": "licence", "fact": "", "url": url, "quote": quote}


def pair(a: str, b: str, option: str = "Tallyforge") -> dict[str, Any]:
    return {
        "option": option,
        "attribute": "licence",
        "a": {"url": TALLY, "quote": a},
        "b": {"url": FORUM, "quote": b},
        "note": "",
    }


def truth(facts: tuple[dict[str, Any], ...] = (), pairs: tuple[dict[str, Any], ...] = ()):
    return {"facts": list(facts), "contradictions": list(pairs)}


def score(run: RunArtifacts, facts=(), pairs=()) -> TopicScore:
    return score_run("ledger", truth(facts, pairs), run)


# --- normalising and tokens ---------------------------------------------------------------


def test_normalise_applies_nfkc_drops_markdown_marks_collapses_whitespace_and_lowercases():
    text = "**Ｔａｌｌｙｆｏｒｇｅ**  `4.2`\n> [Docs] _new_ #1"
    assert normalise(text) == "tallyforge 4.2 docs new 1"


def test_tokens_are_words_keeping_inner_dots_plus_percent_and_hyphens():
    text = "C++ bindings, 99.9% uptime: Apache-2.0 since v4.2!"
    assert tokens(text) == {"c++", "bindings", "99.9%", "uptime", "apache-2.0", "since", "v4.2"}


def test_a_word_cannot_start_with_punctuation_and_underscores_are_markdown():
    assert tokens("-flag .env +1 snake_case") == {"flag", "env", "1", "snakecase"}


def test_chinese_text_gives_character_bigrams_of_each_run_beside_its_words():
    assert tokens("墨舟使用MIT许可证") == {"墨舟", "舟使", "使用", "mit", "许可", "可证"}


def test_a_lone_chinese_character_makes_no_bigram_and_punctuation_ends_a_run():
    assert tokens("用 MIT，云梭") == {"mit", "云梭"}


def test_fullwidth_letters_and_digits_become_plain_words():
    assert tokens("ＭＩＴ 许可证，版本３．４") == {"mit", "许可", "可证", "版本", "3.4"}


def test_overlap_is_the_share_of_the_first_texts_tokens_found_in_the_second():
    assert overlap("alpha beta gamma delta", "beta alpha omega") == 0.5
    assert overlap("beta alpha omega", "alpha beta gamma delta") == pytest.approx(2 / 3)


def test_overlap_of_a_text_without_tokens_is_zero():
    assert overlap("，。!", "anything") == 0.0


# --- facts surfaced -----------------------------------------------------------------------

TEN_WORDS = "Tallyforge keeps every journal line in one append-only table forever."
# Seven of TWELVE_WORDS's twelve words: 0.583, just under the line.
TWELVE_WORDS = "Ravenledger stores each posting as one row inside its own SQLite file"
NEAR_MISS = "Ravenledger stores each posting as one row of the ledger"


def test_a_fact_is_surfaced_by_a_key_point_overlapping_exactly_six_tenths(tmp_path):
    key_point = "Tallyforge keeps every journal line in a database."
    assert overlap(TEN_WORDS, key_point) == 0.6
    run = write_run(tmp_path, sources=(Source("s1", TALLY, key_points=(key_point,)),))
    result = score(run, facts=(fact(TEN_WORDS),))
    assert (result.facts_surfaced, result.missed_facts) == (1, [])


def test_a_fact_just_under_six_tenths_is_a_near_miss_and_is_listed(tmp_path):
    assert overlap(TWELVE_WORDS, NEAR_MISS) == pytest.approx(7 / 12)
    run = write_run(tmp_path, sources=(Source("s1", RAVEN, key_points=(NEAR_MISS,)),))
    result = score(run, facts=(fact(TWELVE_WORDS, RAVEN),))
    assert result.facts_surfaced == 0
    assert result.missed_facts == [f"Tallyforge / licence: {TWELVE_WORDS}"]


def test_a_longer_key_point_surfaces_a_fact_since_overlap_counts_the_facts_tokens(tmp_path):
    key_point = f"Reviewers agree: {TEN_WORDS} Nothing is deleted, ever, by design."
    run = write_run(tmp_path, sources=(Source("s1", TALLY, key_points=(key_point,)),))
    assert score(run, facts=(fact(TEN_WORDS),)).facts_surfaced == 1


def test_a_claim_quote_alone_surfaces_a_fact(tmp_path):
    source = Source("s1", TALLY)
    run = write_run(tmp_path, sources=(source,), claims=((source, TEN_WORDS.upper()),))
    result = score(run, facts=(fact(TEN_WORDS),))
    assert result.facts_surfaced == 1
    assert (result.funnel["key_point"], result.funnel["claim"]) == (0, 1)


def test_a_fact_quoted_in_the_report_is_surfaced_even_across_a_line_break(tmp_path):
    report = "> Tallyforge keeps every journal line in one\n> append-only table forever.\n"
    run = write_run(tmp_path, sources=(Source("s1", TALLY),), report=report)
    result = score(run, facts=(fact(TEN_WORDS),))
    assert result.facts_surfaced == 1
    assert result.funnel["key_point"] == result.funnel["claim"] == 0


def test_a_report_that_only_paraphrases_the_fact_does_not_surface_it(tmp_path):
    report = "Tallyforge keeps journal lines in an append-only table.\n"
    run = write_run(tmp_path, sources=(Source("s1", TALLY),), report=report)
    assert score(run, facts=(fact(TEN_WORDS),)).facts_surfaced == 0


def test_a_chinese_fact_is_surfaced_through_bigrams_despite_other_spacing(tmp_path):
    quote = "云梭采用 Apache-2.0 许可证发布"
    key_point = "云梭采用Apache-2.0许可证。"
    assert overlap(quote, key_point) == 0.75  # 6 of 8 tokens: 证发 and 发布 are missing
    run = write_run(tmp_path, sources=(Source("s1", TALLY, key_points=(key_point,)),))
    assert score(run, facts=(fact(quote),)).facts_surfaced == 1


# --- contradictions flagged ---------------------------------------------------------------

APACHE = "Tallyforge is released under the Apache-2.0 licence."
BSL = "Tallyforge switched to the Business Source License in 2025, so it is no longer open source."
OFFICIAL, FORUM_POST = Source("s1", TALLY, APACHE), Source("s2", FORUM, BSL)


def test_a_contradiction_is_flagged_when_one_record_holds_both_sides(tmp_path):
    run = write_run(
        tmp_path,
        sources=(OFFICIAL, FORUM_POST),
        contradictions=(record((OFFICIAL, APACHE), (FORUM_POST, BSL)),),
    )
    result = score(run, pairs=(pair(APACHE, BSL),))
    assert (result.contradictions_flagged, result.missed_contradictions) == (1, [])


def test_sides_split_across_two_records_are_not_flagged(tmp_path):
    other = Source("s3", RAVEN, "Quillbook is AGPL-3.0.")
    run = write_run(
        tmp_path,
        sources=(OFFICIAL, FORUM_POST, other),
        contradictions=(
            record((OFFICIAL, APACHE), (other, "Quillbook is AGPL-3.0.")),
            record((other, "Quillbook is AGPL-3.0."), (FORUM_POST, BSL)),
        ),
    )
    result = score(run, pairs=(pair(APACHE, BSL),))
    assert result.contradictions_flagged == 0
    assert result.missed_contradictions == ["Tallyforge / licence"]


def test_a_side_is_matched_against_the_records_whole_json_text_not_only_its_quotes(tmp_path):
    note = "The forum: Tallyforge switched to the Business Source License in 2025, so it is closed."
    run = write_run(
        tmp_path,
        sources=(OFFICIAL, FORUM_POST),
        contradictions=(record((OFFICIAL, APACHE), (FORUM_POST, "no longer open"), note=note),),
    )
    assert overlap(BSL, "no longer open") < 0.6 <= overlap(BSL, note)
    assert score(run, pairs=(pair(APACHE, BSL),)).contradictions_flagged == 1


def test_a_record_matching_one_side_just_under_six_tenths_is_not_flagged(tmp_path):
    run = write_run(
        tmp_path,
        sources=(OFFICIAL, FORUM_POST),
        contradictions=(record((OFFICIAL, APACHE), (FORUM_POST, NEAR_MISS)),),
    )
    assert overlap(TWELVE_WORDS, run.contradiction_texts[0]) == pytest.approx(7 / 12)
    assert score(run, pairs=(pair(APACHE, TWELVE_WORDS),)).contradictions_flagged == 0


def test_a_line_break_inside_a_records_quote_does_not_glue_words_together(tmp_path):
    wrapped = "Tallyforge\nis\nreleased\nunder the\nApache-2.0 licence."
    run = write_run(
        tmp_path,
        sources=(OFFICIAL, FORUM_POST),
        contradictions=(record((OFFICIAL, wrapped), (FORUM_POST, BSL)),),
    )
    assert score(run, pairs=(pair(APACHE, BSL),)).contradictions_flagged == 1


def test_a_chinese_contradiction_is_flagged_through_bigrams(tmp_path):
    a, b = "云梭采用 Apache-2.0 许可证发布。", "云梭已经改成 AGPL-3.0 许可证了，商用要小心。"
    docs, forum = Source("s1", TALLY, a), Source("s2", FORUM, "楼主：" + b)
    run = write_run(
        tmp_path,
        sources=(docs, forum),
        contradictions=(record((docs, a), (forum, "楼主：" + b)),),
    )
    assert score(run, pairs=(pair(a, b, option="云梭"),)).contradictions_flagged == 1


# --- funnel, quotes verified, round 5 -----------------------------------------------------


def test_the_funnel_counts_how_far_each_facts_page_got(tmp_path):
    facts = (
        fact("Candidate only, then dropped.", "https://a.example/x"),
        fact("Kept but its fetch failed.", "https://b.example/y"),
        fact("Read, and surfaced as a key point.", "https://c.example/z"),
        fact("Never found by search.", "https://d.example/w"),
    )
    run = write_run(
        tmp_path,
        sources=(
            Source("s2", "https://b.example/y", status="FETCH_FAILED"),
            Source("s3", "https://c.example/z", key_points=("Read, and surfaced as a key point.",)),
        ),
        candidates=("http://www.a.example/x/#top", "https://b.example/y", "https://c.example/z"),
        kept=("https://b.example/y", "https://c.example/z/"),
    )
    result = score(run, facts=facts)
    assert result.funnel == {"candidate": 3, "kept": 2, "read": 1, "key_point": 1, "claim": 0}
    assert list(result.funnel) == list(FUNNEL)


def test_quotes_verified_counts_round_4_and_report_quotes_found_in_the_cited_page(tmp_path):
    page = f"{APACHE} It is maintained by the Tallyforge team."
    docs = Source("s1", TALLY, page)
    forum = Source("s2", FORUM, BSL)
    report = (
        f"[1] “{APACHE}”\n"
        "[2] “Tallyforge is closed source now.”\n\n"
        "## Sources\n\n"
        f"[1] [About]({TALLY}) · stored extract: [round_3_pages/s1.md](round_3_pages/s1.md)\n"
        f"[2] [Forum]({FORUM}) · stored extract: [round_3_pages/s2.md](round_3_pages/s2.md)\n"
    )
    run = write_run(
        tmp_path,
        sources=(docs, forum),
        claims=((docs, APACHE), (docs, "Tallyforge is Apache licensed.")),
        contradictions=(
            record(
                (docs, APACHE),
                (forum, BSL),
                a_also=[{"source_id": "s1", "quote": "maintained by the Tallyforge team"}],
            ),
        ),
        report=report,
    )
    result = score(run)
    # round 4: two claims (one paraphrased), sides a and b, one a_also; report: two quotes
    assert (result.quotes_verified, result.quotes_total) == (4 + 1, 5 + 2)


def test_confidence_and_recommendation_come_from_round_5(tmp_path):
    decision = {"recommendation": {"option": "Quillbook"}, "assessment": {"confidence": 61.5}}
    result = score(write_run(tmp_path, decision=decision))
    assert (result.confidence, result.recommendation) == (61.5, "Quillbook")


def test_a_run_that_stopped_early_scores_zero_without_failing(tmp_path):
    result = score(RunArtifacts.load(tmp_path), facts=(fact(APACHE),), pairs=(pair(APACHE, BSL),))
    assert (result.facts_surfaced, result.contradictions_flagged) == (0, 0)
    assert result.funnel == dict.fromkeys(FUNNEL, 0)
    assert (result.quotes_total, result.confidence, result.recommendation) == (0, None, None)


# --- the command, end to end on the mini corpus -------------------------------------------

ROW = re.compile(
    r"^(?P<topic>\S+) +(?P<facts>\d+)/(?P<facts_total>\d+) +"
    r"(?P<contra>\d+)/(?P<contra_total>\d+) +(?P<funnel>(?:(?:\d+%|-) +){5})"
    r"(?P<quotes>\d+%|-) +(?P<conf>\d+|-) +(?P<secs>\d+\.\d) +(?P<tokens>\d+)$"
)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy, so the search index the local provider writes stays out of the repository."""
    return Path(shutil.copytree(MINI_CORPUS, tmp_path / "corpus"))


def quality(corpus: Path, *args: str) -> str:
    out = io.StringIO()
    call_command("quality", f"--corpus={corpus}", *args, stdout=out)
    return out.getvalue()


def rows(output: str) -> dict[str, dict[str, str]]:
    return {m["topic"]: m.groupdict() for m in map(ROW.match, output.splitlines()) if m}


@pytest.mark.parametrize("topic", ["kanban_zh", "ledger"])
def test_every_quote_of_the_mini_corpus_is_an_exact_substring_of_its_page(topic):
    pages = [read_document(p) for p in sorted((MINI_CORPUS / topic / "pages").glob("*.md"))]
    text = {page.url: page.body for page in pages}
    labels = json.loads((MINI_CORPUS / topic / "truth.json").read_text(encoding="utf-8"))
    sides = [pair[side] for pair in labels["contradictions"] for side in ("a", "b")]
    for quoted in (*labels["facts"], *sides):
        assert quoted["quote"] in text[quoted["url"]]
    assert len(pages) == 6 and all(url.startswith("https://") for url in text)


@pytest.mark.django_db
def test_the_command_prints_a_row_per_topic_and_an_all_row(corpus):
    output = quality(corpus)
    header = output.splitlines()[0].split()
    assert header == ["topic", "facts", "contra", *FUNNEL, "quotes", "conf", "secs", "tokens"]
    found = rows(output)
    assert list(found) == ["kanban_zh", "ledger", "all"]
    for topic in ("kanban_zh", "ledger"):
        row = found[topic]
        assert (row["facts_total"], row["contra_total"]) == ("5", "2")
        assert int(row["facts"]) >= 1 and int(row["contra"]) >= 1  # the planted ones are easy
        assert row["quotes"] == "100%"
        assert row["conf"] != "-"
    total = found["all"]
    assert (total["facts_total"], total["contra_total"], total["quotes"]) == ("10", "4", "100%")
    assert int(total["facts"]) == sum(int(found[t]["facts"]) for t in ("kanban_zh", "ledger"))
    assert "funnel: share of facts whose page was a candidate" in output
    # Without a model configured, the figures are the deterministic reader's, at no token cost.
    assert "analysis: deterministic (no LLM), 0 tokens" in output
    assert all(found[t]["tokens"] == "0" for t in found)


@pytest.mark.django_db
def test_json_holds_the_printed_figures_and_totals_are_the_sums_of_topics(corpus, tmp_path):
    path = tmp_path / "figures.json"
    output = quality(corpus, f"--json={path}")
    figures = json.loads(path.read_text(encoding="utf-8"))
    assert set(figures) == {"topics", "total"}
    topics, total = figures["topics"], figures["total"]
    assert [t["topic"] for t in topics] == ["kanban_zh", "ledger"]
    keys = {"facts", "facts_surfaced", "contradictions", "contradictions_flagged", "funnel"}
    keys |= {"quotes_verified", "quotes_total", "confidence", "recommendation", "seconds"}
    keys |= {"topic", "missed_facts", "missed_contradictions", "tokens", "mode", "model"}
    keys |= {"judgement"}
    assert all(set(t) == keys for t in (*topics, total))
    for key in ("facts", "facts_surfaced", "contradictions", "contradictions_flagged"):
        assert total[key] == sum(t[key] for t in topics)
    for key in ("quotes_verified", "quotes_total"):
        assert total[key] == sum(t[key] for t in topics)
    assert total["funnel"] == {f: sum(t["funnel"][f] for t in topics) for f in FUNNEL}
    assert total["seconds"] == pytest.approx(sum(t["seconds"] for t in topics), abs=0.02)
    assert all(t["quotes_verified"] == t["quotes_total"] > 0 for t in topics)
    printed = rows(output)
    for t in (*topics, total):
        row = printed[t["topic"]]
        assert (int(row["facts"]), int(row["contra"])) == (
            t["facts_surfaced"],
            t["contradictions_flagged"],
        )
    assert f"Figures written to {path}" in output


@pytest.mark.django_db
def test_topic_runs_only_the_named_topics(corpus, tmp_path):
    path = tmp_path / "figures.json"
    output = quality(corpus, "--topic=ledger", f"--json={path}")
    assert list(rows(output)) == ["ledger", "all"]
    figures = json.loads(path.read_text(encoding="utf-8"))
    assert [t["topic"] for t in figures["topics"]] == ["ledger"]
    assert figures["total"]["facts"] == 5


@pytest.mark.django_db
def test_misses_lists_every_missed_fact_and_contradiction(corpus, tmp_path):
    path = tmp_path / "figures.json"
    output = quality(corpus, "--topic=ledger", "--misses", f"--json={path}")
    ledger = json.loads(path.read_text(encoding="utf-8"))["topics"][0]
    listed = [line.strip() for line in output.splitlines() if " missed " in line]
    assert listed == [f"ledger missed fact: {m}" for m in ledger["missed_facts"]] + [
        f"ledger missed contradiction: {m}" for m in ledger["missed_contradictions"]
    ] + [f"ledger missed stance: {m}" for m in ledger["judgement"]["missed_stances"]]


SPLIT_ROW = re.compile(
    r"^(?P<part>develop|check) +(?P<topics>\d+) +(?P<facts>\d+)/(?P<facts_total>\d+) \(\d+%\) +"
    r"(?P<contra>\d+)/(?P<contra_total>\d+) \(\d+%\) +(?P<claims>\S+(?: \(\d+%\))?) +"
)


@pytest.mark.django_db
def test_a_split_prints_the_develop_and_check_figures_side_by_side(corpus, tmp_path):
    path = tmp_path / "figures.json"
    output = quality(corpus, "--develop=ledger", "--check=kanban_zh", f"--json={path}")
    found = rows(output)
    split = {m["part"]: m.groupdict() for m in map(SPLIT_ROW.match, output.splitlines()) if m}
    assert list(split) == ["develop", "check"]
    for part, topic in (("develop", "ledger"), ("check", "kanban_zh")):
        assert split[part]["topics"] == "1"
        assert split[part]["facts"] == found[topic]["facts"]
        assert split[part]["contra"] == found[topic]["contra"]
    assert "develop: ledger" in output and "check: kanban_zh" in output
    figures = json.loads(path.read_text(encoding="utf-8"))
    assert figures["split"]["check"]["topics"] == ["kanban_zh"]
    assert figures["split"]["check"]["facts"] == 5
    assert figures["split"]["develop"]["facts_surfaced"] == int(found["ledger"]["facts"])


@pytest.mark.django_db
def test_misses_of_the_check_topics_are_never_listed(corpus):
    output = quality(corpus, "--develop=ledger", "--check=kanban_zh", "--misses")
    listed = [line for line in output.splitlines() if line.startswith("  ")]
    assert listed and all(line.strip().startswith("ledger ") for line in listed)
    assert "misses of the check topics are not listed: kanban_zh" in output


def test_a_topic_cannot_be_both_developed_on_and_checked(corpus):
    with pytest.raises(CommandError, match="both developed on and checked: ledger"):
        quality(corpus, "--develop=ledger,kanban_zh", "--check=ledger")


@pytest.mark.django_db
def test_an_unknown_topic_is_an_error_naming_the_topics_there_are(corpus):
    with pytest.raises(CommandError, match=r"no topic nope in .*; its topics: kanban_zh, ledger"):
        quality(corpus, "--topic=ledger", "--topic=nope")


@pytest.mark.parametrize("layout", ["empty", "pages without truth", "truth without pages"])
def test_a_folder_without_topics_is_a_one_line_error(tmp_path, layout):
    topic = tmp_path / "corpus" / "ledger"
    topic.mkdir(parents=True)
    if layout == "pages without truth":
        (topic / "pages").mkdir()
    if layout == "truth without pages":
        (topic / "truth.json").write_text("{}", encoding="utf-8")
    with pytest.raises(CommandError) as error:
        quality(tmp_path / "corpus")
    message = f"{tmp_path / 'corpus'} has no topic folders with truth.json and pages/"
    assert str(error.value) == message


def test_a_missing_corpus_folder_is_a_one_line_error(tmp_path):
    with pytest.raises(CommandError, match=r"^no corpus folder at .*nowhere$"):
        quality(tmp_path / "nowhere")


def test_manage_py_reports_a_folder_without_topics_without_a_traceback(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "quality", f"--corpus={tmp_path}"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"CommandError: {tmp_path} has no topic folders with truth.json and pages/"
    ]


@pytest.mark.django_db
def test_runs_dir_keeps_each_topics_run_folder_and_run(corpus, tmp_path):
    kept = tmp_path / "kept"
    output = quality(corpus, f"--runs-dir={kept}")
    named = dict(re.findall(r"^(\S+): run folder (\S+)$", output, re.M))
    assert set(named) == {"kanban_zh", "ledger"}
    for folder in map(Path, named.values()):
        assert folder.parent == kept
        assert (folder / "report.md").is_file() and (folder / "round_4_crosscheck.json").is_file()
        assert Run.objects.filter(run_id=folder.name).exists()


@pytest.mark.django_db
def test_without_runs_dir_no_run_is_left_behind(corpus, runs_dir):
    quality(corpus, "--topic=ledger")
    assert not Run.objects.exists()
    assert list(runs_dir.iterdir()) == []


@pytest.mark.django_db
def test_a_run_started_elsewhere_meanwhile_is_not_mistaken_for_the_topics_run(
    corpus, tmp_path, monkeypatch
):
    ours = []

    def research_with_a_neighbour(*args: Any, **kwargs: Any) -> None:
        call_command(*args, **kwargs)
        ours.append(kwargs["stdout"].getvalue())
        elsewhere = f"--source=local:{corpus / 'ledger' / 'pages'}"
        options = ("--option=Quillbook", "--option=Ravenledger")
        neighbour = f"--user={corpus_runner.MEASURING_ACCOUNT}"
        call_command(
            "research", "Which ledger?", *options, elsewhere, neighbour, stdout=io.StringIO()
        )

    monkeypatch.setattr(corpus_runner, "call_command", research_with_a_neighbour)
    output = quality(corpus, "--topic=ledger", f"--runs-dir={tmp_path / 'kept'}")
    run_id = re.match(r"Run (\S+):", ours[0])[1]
    assert f"ledger: run folder {tmp_path / 'kept' / run_id}" in output
    assert rows(output)["ledger"]["facts_total"] == "5"
