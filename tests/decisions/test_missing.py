from __future__ import annotations

from datetime import date

from decisions.missing import Reading, explain_gaps, gap_reason, missing_information
from decisions.scoring.sources import source_infos
from research.artifacts import (
    Contradiction,
    Crosscheck,
    Filtered,
    Notes,
    SourceNotes,
)
from research.outcomes import Outcome
from tests.decisions.builders import (
    BSL,
    CLAIMS,
    MIT,
    OPTIONS,
    SOURCES,
    TODAY,
    contradiction,
    fact,
    kept,
    matrix,
    stance,
)

NOTHING = Crosscheck(claims=[], consensus=[], contradictions=[], gaps=[])


def read(sid: str, url: str, status: Outcome = Outcome.OK, detail: str = "") -> SourceNotes:
    return SourceNotes(source_id=sid, url=url, title=sid, status=status, detail=detail)


# --- the whole list -----------------------------------------------------------------------


def test_missing_information_lists_every_gap_in_a_fixed_order() -> None:
    claims = [*CLAIMS, stance("c7", "Tessera", "cost", "s4", -1)]
    crosscheck = Crosscheck(
        claims=claims, consensus=[], contradictions=[contradiction(MIT, BSL)], gaps=[]
    )
    cells = matrix(OPTIONS, ["perf", "cost", "docs"], claims, SOURCES, crosscheck.contradictions)
    notes = Notes(
        sources=[
            read("s1", "https://loamdb.io"),
            read("s8", "https://blocked.example", Outcome.BLOCKED),
            read("s9", "https://slow.example", Outcome.TIMEOUT),
        ]
    )

    lines = missing_information(cells, crosscheck, SOURCES, notes, OPTIONS, today=TODAY)

    assert lines == [
        "No evidence on Loamdb x docs was found in the 1 page read",
        "No evidence on Tessera x docs was found in the 1 page read",
        "Scored on a single site, or only on forums and interested parties: Loamdb x perf,"
        " Tessera x perf, Tessera x cost; an independent review or primary source for each"
        " would raise confidence",
        "No primary source (official site, repository or specification) for Tessera",
        "Sources disagree on Loamdb's licence: MIT vs BSL; a primary, current statement would"
        " settle it",
        "2 sources could not be read (TIMEOUT: 1, BLOCKED: 1)",
        "Evidence on Tessera x cost is all older than 3 years (newest 2019-01-01); a current"
        " source would help",
    ]


def test_a_stance_disagreement_is_shown_in_the_sources_own_words() -> None:
    fast = stance("c1", "Loamdb", "perf", "s1", +1, quote="Loamdb is fast")
    slow = stance("c2", "Loamdb", "perf", "s2", -1, quote="Loamdb   crawls under load")
    crosscheck = Crosscheck(
        claims=[fast, slow], consensus=[], contradictions=[contradiction(fast, slow)], gaps=[]
    )
    cells = matrix(["Loamdb"], ["perf"], [fast, slow], SOURCES, crosscheck.contradictions)

    lines = missing_information(
        cells, crosscheck, SOURCES, Notes(sources=[]), ["Loamdb"], today=TODAY
    )

    assert lines == [
        'Sources disagree on Loamdb\'s perf: "Loamdb is fast" vs "Loamdb crawls'
        ' under load"; a primary, current statement would settle it'
    ]


def test_undated_or_recent_well_backed_evidence_raises_no_concern() -> None:
    claims = [
        stance("c1", "Loamdb", "perf", "s2", +1),
        stance("c2", "Loamdb", "perf", "s1", +1),
        stance("c3", "Loamdb", "cost", "s1", +1),
        stance("c4", "Loamdb", "cost", "s2", +1),
    ]
    crosscheck = Crosscheck(claims=claims, consensus=[], contradictions=[], gaps=[])
    cells = matrix(["Loamdb"], ["perf", "cost"], claims, SOURCES, [])

    lines = missing_information(
        cells, crosscheck, SOURCES, Notes(sources=[]), ["Loamdb"], today=TODAY
    )

    assert lines == []


def test_a_single_unreadable_source_reads_as_singular() -> None:
    notes = Notes(sources=[read("s9", "https://x.example", Outcome.RATE_LIMITED)])

    assert missing_information([], NOTHING, {}, notes, [], today=TODAY) == [
        "1 source could not be read (RATE_LIMITED: 1)"
    ]


# --- not found in what was read vs not read -----------------------------------------------

PEBBLE_PAGES = Filtered(
    kept=[
        kept(
            "k1", "Marrowline delivery guide", "https://marrowline.io/docs/delivery", "Marrowline"
        ),
        kept("k2", "Pebblestack retention settings", "https://pebblestack.dev/docs/retention"),
        kept("k3", "Running a broker fleet", "https://ops.example.org/fleet", "Pebblestack"),
        kept("k4", "What Pebblestack costs us", "https://ledger.example.com/pebblestack-bill"),
    ],
    dropped=[],
)
PEBBLE_NOTES = Notes(
    sources=[
        read("k1", "https://marrowline.io/docs/delivery"),
        read("k3", "https://ops.example.org/fleet", Outcome.TIMEOUT, "after 20 s"),
    ]
)


def test_a_gap_names_the_pages_about_the_option_that_were_never_read() -> None:
    reading = Reading(PEBBLE_NOTES, PEBBLE_PAGES, max_pages=2)

    line = gap_reason("Pebblestack", ["cost", "support"], reading)

    assert line == (
        "No evidence on Pebblestack x cost, support; 3 pages about Pebblestack were not read: "
        "“Pebblestack retention settings” (https://pebblestack.dev/docs/retention): beyond the "
        "reading budget of 2 pages; "
        "“Running a broker fleet” (https://ops.example.org/fleet): could not be read "
        "(TIMEOUT, after 20 s); "
        "“What Pebblestack costs us” (https://ledger.example.com/pebblestack-bill): beyond "
        "the reading budget of 2 pages"
    )


def test_a_gap_with_every_page_read_says_nothing_was_found_in_them() -> None:
    reading = Reading(PEBBLE_NOTES, PEBBLE_PAGES, max_pages=2)

    line = gap_reason("Marrowline", ["cost"], reading)

    assert line == "No evidence on Marrowline x cost was found in the 1 page read"


def test_a_long_list_of_unread_pages_names_three_and_counts_the_rest() -> None:
    many = Filtered(
        kept=[kept(f"k{i}", f"Pebblestack note {i}", f"https://n{i}.example/") for i in range(5)],
        dropped=[],
    )

    line = gap_reason("Pebblestack", ["cost"], Reading(Notes(sources=[]), many, max_pages=0))

    assert line.count("Pebblestack note") == 3
    assert line.endswith("; and 2 more")


def test_without_the_filters_list_failed_reads_about_the_option_are_still_named() -> None:
    notes = Notes(
        sources=[
            read("a", "https://pebblestack.dev/pricing", Outcome.BLOCKED),
            read("b", "https://marrowline.io/pricing", Outcome.BLOCKED),
        ]
    )

    line = gap_reason("Pebblestack", ["cost"], Reading(notes))

    assert "https://pebblestack.dev/pricing" in line
    assert "marrowline.io" not in line


def test_each_missing_cell_carries_its_own_reason() -> None:
    cells = matrix(["Pebblestack", "Marrowline"], ["cost"], [], {}, [])
    reading = Reading(PEBBLE_NOTES, PEBBLE_PAGES, max_pages=2)

    explained = explain_gaps(cells, reading)

    assert explained[0].notes[0].startswith("No evidence on Pebblestack x cost; 3 pages")
    assert explained[1].notes == ["No evidence on Marrowline x cost was found in the 1 page read"]


def test_missing_cells_of_one_option_share_a_line() -> None:
    cells = matrix(["Pebblestack"], ["cost", "support"], [], {}, [])
    reading = Reading(PEBBLE_NOTES, PEBBLE_PAGES, max_pages=2)

    lines = missing_information(cells, NOTHING, {}, reading, ["Pebblestack"], today=TODAY)

    assert lines[0].startswith("No evidence on Pebblestack x cost, support; 3 pages")


# --- who wrote it -------------------------------------------------------------------------


def test_a_vendors_page_about_its_rival_is_not_the_rivals_primary_source() -> None:
    notes = Notes(
        sources=[
            SourceNotes(
                source_id="v",
                url="https://marrowline.io/compare/pebblestack",
                title="Marrowline vs Pebblestack",
                status=Outcome.OK,
            )
        ]
    )
    options = ["Marrowline", "Pebblestack"]
    sources = source_infos(notes, options)
    claims = [
        stance("c1", "Pebblestack", "cost", "v", -1, "Pebblestack bills per partition"),
        stance("c2", "Marrowline", "cost", "v", +1, "Marrowline is flat-rate"),
    ]
    crosscheck = Crosscheck(claims=claims, consensus=[], contradictions=[], gaps=[])
    cells = matrix(options, ["cost"], claims, sources, [])

    lines = missing_information(cells, crosscheck, sources, notes, options, today=TODAY)

    assert "No primary source (official site, repository or specification) for Pebblestack" in (
        lines
    )
    # its self-praise is no primary evidence for Marrowline's merits either
    assert "No primary source (official site, repository or specification) for Marrowline" in (
        lines
    )


# --- language -----------------------------------------------------------------------------


def test_missing_information_is_written_in_chinese_for_a_chinese_question() -> None:
    cells = matrix(["青石队列", "松涛存储"], ["成本"], [], {}, [])
    filtered = Filtered(
        kept=[kept("k1", "青石队列价格说明", "https://qingshi.example/pricing", "青石队列")],
        dropped=[],
    )
    notes = Notes(sources=[read("k9", "https://songtao.example/docs")])
    reading = Reading(notes, filtered, max_pages=1)

    lines = missing_information(
        cells, NOTHING, {}, reading, ["青石队列", "松涛存储"], today=TODAY, language="zh"
    )

    assert lines[:2] == [
        "没有关于青石队列在成本方面的证据；有 1 个关于青石队列的页面未读："
        "《青石队列价格说明》（https://qingshi.example/pricing）：超出 1 页的阅读上限",
        "在已读的 1 个页面中没有找到关于松涛存储在成本方面的证据",
    ]
    assert "青石队列没有一手来源（官方网站、代码仓库或规范）" in lines


def test_a_status_disagreement_is_reported_in_chinese_words() -> None:
    alive = fact("c1", "Tessera", "维护", "s1", "maintenance", "active")
    gone = fact("c2", "Tessera", "维护", "s2", "maintenance", "inactive")
    crosscheck = Crosscheck(
        claims=[alive, gone], consensus=[], contradictions=[contradiction(alive, gone)], gaps=[]
    )

    lines = missing_information(
        [], crosscheck, SOURCES, Notes(sources=[]), [], today=TODAY, language="zh"
    )

    assert lines == [
        "各来源对Tessera的维护状态说法不一：仍在维护 与 已停止维护；一份一手的最新说明可以澄清"
    ]


def disagreement(x: Contradiction, language: str = "en") -> list[str]:
    claims = [MIT, BSL]
    crosscheck = Crosscheck(claims=claims, consensus=[], contradictions=[x], gaps=[])
    return missing_information(
        [], crosscheck, SOURCES, Notes(sources=[]), [], today=TODAY, language=language
    )


def test_a_licence_change_is_reported_as_a_change_with_the_earlier_value_first() -> None:
    changed_to_bsl = contradiction(MIT, BSL, "time", current=BSL)
    changed_to_mit = contradiction(BSL, MIT, "time", current=BSL)

    expected = [
        "Sources disagree on Loamdb's licence, likely a change over time: MIT earlier, BSL now;"
        " the project's own current statement would confirm it"
    ]
    assert disagreement(changed_to_bsl) == expected
    assert disagreement(changed_to_mit) == expected
    assert disagreement(changed_to_bsl, "zh") == [
        "各来源对Loamdb的许可证说法不一，可能是前后变化：此前为MIT，现为BSL；项目官方的最新说明可以确认"
    ]


def test_a_difference_of_scope_asks_for_the_version_in_use() -> None:
    assert disagreement(contradiction(MIT, BSL, "scope")) == [
        "Sources disagree on Loamdb's licence, likely for different versions or setups: MIT vs"
        " BSL; a source naming the version or setup you would use would settle it"
    ]


def test_a_disagreement_between_whole_statements_quotes_them() -> None:
    a = stance("c1", "Loamdb", "cost", "s1", 0, quote="Loamdb hosting starts at 9 dollars.")
    b = stance("c2", "Loamdb", "cost", "s2", 0, quote="Loamdb hosting is free for hobby use.")
    a, b = (
        c.model_copy(update={"kind": "statement", "attribute": "hosting", "value": c.quote})
        for c in (a, b)
    )
    crosscheck = Crosscheck(
        claims=[a, b], consensus=[], contradictions=[contradiction(a, b)], gaps=[]
    )

    lines = missing_information([], crosscheck, SOURCES, Notes(sources=[]), [], today=TODAY)

    assert lines == [
        'Sources disagree on Loamdb\'s cost: "Loamdb hosting starts at 9 dollars." vs "Loamdb'
        ' hosting is free for hobby use."; a primary, current statement would settle it'
    ]


def test_a_stale_cell_is_reported_in_chinese() -> None:
    old = stance("c1", "Tessera", "成本", "s4", -1)
    crosscheck = Crosscheck(claims=[old], consensus=[], contradictions=[], gaps=[])
    cells = matrix(["Tessera"], ["成本"], [old], SOURCES, [])

    lines = missing_information(
        cells,
        crosscheck,
        SOURCES,
        Notes(sources=[]),
        ["Tessera"],
        today=date(2025, 6, 1),
        language="zh",
    )

    assert "关于Tessera在成本方面的证据均早于 3 年（最新为 2019-01-01）；需要更新的来源" in lines
