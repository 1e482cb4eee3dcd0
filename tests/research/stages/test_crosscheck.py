from __future__ import annotations

from datetime import date

from research.artifacts import Claim, Dimension, KeyPoint, Limits, Notes, Plan, SourceNotes
from research.context import StageContext
from research.outcomes import Outcome
from research.reading.conflicts.facts import SourceFacts, conflict
from research.stages.crosscheck import cross_validate, one_reading_per_cell

PRIMARY = SourceFacts("loamdb.io", "primary", 90, date(2026, 1, 1))
FORUM = SourceFacts("forum.example", "community", 30, date(2026, 2, 1))
BLOG = SourceFacts("blog.example", "community", 30, date(2026, 3, 1))


def claim(cid, attribute, value, source, quote="q", polarity=0, dimension=None, kind="fact"):
    return Claim(
        id=cid,
        option="Loamdb",
        attribute=attribute,
        kind=kind,
        value=value,
        polarity=polarity,
        source_id=source,
        quote=quote,
        dimension=dimension,
    )


def test_different_licences_from_two_sources_conflict_and_the_note_names_the_newer():
    a = claim("c1", "licence", "MIT", "s1", "Loamdb is MIT licensed.")
    b = claim("c2", "licence", "BSL", "s2", "Loamdb moved to the BSL.")
    note = conflict(a, b, PRIMARY, FORUM)
    assert note is not None and "forum.example" in note


def test_licences_for_different_version_ranges_do_not_conflict():
    a = claim("c1", "licence", "MIT", "s1", "Loamdb 1.5 and earlier are MIT.")
    b = claim("c2", "licence", "BSL", "s2", "Loamdb moved to the BSL with its 1.6 release.")
    assert conflict(a, b, PRIMARY, FORUM) is None


def test_opposite_stances_conflict_only_between_sources_of_comparable_strength():
    a = claim("c1", "stance", "positive", "s1", polarity=1, dimension="cost", kind="stance")
    b = claim("c2", "stance", "negative", "s2", polarity=-1, dimension="cost", kind="stance")
    strong = SourceFacts("standards.example", "primary", 90, None)
    assert conflict(a, b, FORUM, BLOG) is not None
    assert conflict(a, b, strong, FORUM) is None
    other = claim("c3", "stance", "negative", "s3", polarity=-1, dimension="risk", kind="stance")
    assert conflict(a, other, FORUM, BLOG) is None


def test_close_quantities_agree_and_distant_ones_conflict():
    a = claim("c1", "contributors", "40", "s1")
    assert conflict(a, claim("c2", "contributors", "42", "s2"), PRIMARY, FORUM) is None
    assert conflict(a, claim("c3", "contributors", "340", "s3"), PRIMARY, FORUM) is not None


def test_a_latest_version_from_a_much_older_page_is_history_not_a_conflict():
    a = claim("c1", "latest_version", "2.8.0", "s1")
    b = claim("c2", "latest_version", "2.10.1", "s2")
    old = SourceFacts("a.example", "comparison", 60, date(2024, 1, 1))
    new = SourceFacts("b.example", "comparison", 60, date(2025, 6, 1))
    assert conflict(a, b, old, new) is None
    assert conflict(a, b, new, new) is not None


PLAN = Plan(
    question="Loamdb or Quillsync?",
    options=["Loamdb", "Quillsync"],
    dimensions=[Dimension(name="licence risk", weight=1)],
    sources=["local:x"],
    queries=[],
    limits=Limits(),
)


def _notes(*sources):
    return Notes(sources=list(sources))


def _source(sid, url, text, published="2026-01-01"):
    return SourceNotes(
        source_id=sid,
        url=url,
        title="",
        published=published,
        status=Outcome.OK,
        key_points=[
            KeyPoint(text=text, quote=text, offset=0, option="Loamdb", dimension="licence risk")
        ],
    )


def test_a_disputed_licence_is_a_contradiction_and_not_also_a_consensus():
    plan = PLAN
    texts = {
        "s1": "Loamdb is released under the MIT License.",
        "s2": "Loamdb and its bindings are MIT-licensed.",
        "s3": "Loamdb switched to the Business Source License (BSL) in 2024.",
    }
    urls = {
        "s1": "https://github.com/loamdb/loamdb",
        "s2": "https://docs.loamdb.io/x",
        "s3": "https://forum.example.org/t/1",
    }
    notes = _notes(*(_source(s, urls[s], t) for s, t in texts.items()))
    ctx = StageContext()
    check = cross_validate(plan, notes, texts, ctx)
    assert [k for k in check.consensus if k.attribute == "licence"] == []
    assert len(check.contradictions) == 1
    x = check.contradictions[0]
    assert {x.a.quote, x.b.quote} >= {texts["s3"]}
    # "switched to ... in 2024" reports a change: the newer state is the current one.
    assert x.cause == "time"
    current = next(c for c in check.claims if c.id == x.current)
    assert current.quote == texts["s3"]
    assert [(g.option, g.dimension) for g in check.gaps] == [("Quillsync", "licence risk")]


def test_sources_that_agree_on_an_undisputed_licence_form_a_consensus():
    texts = {
        "s1": "Loamdb is released under the MIT License.",
        "s2": "Loamdb and its bindings are MIT-licensed.",
    }
    urls = {"s1": "https://github.com/loamdb/loamdb", "s2": "https://docs.loamdb.io/x"}
    notes = _notes(*(_source(s, urls[s], t) for s, t in texts.items()))
    check = cross_validate(PLAN, notes, texts, StageContext())
    assert [(k.value, k.sites) for k in check.consensus if k.attribute == "licence"] == [
        ("MIT", ["github.com", "loamdb.io"])
    ]
    assert check.contradictions == []


def test_a_key_point_whose_quote_is_not_in_the_stored_text_is_dropped_and_logged():
    plan = PLAN
    notes = _notes(_source("s1", "https://a.example/", "Loamdb is MIT licensed."))
    ctx = StageContext()
    check = cross_validate(plan, notes, {"s1": "Something else entirely."}, ctx)
    assert check.claims == []
    assert [e["event"] for e in ctx.events].count("quote_dropped") == 1


def test_an_item_under_cons_is_a_negative_claim_even_without_a_judging_word():
    text = "Deployment: a second metadata service to run"
    kp = KeyPoint(
        text=text,
        quote=text,
        offset=0,
        option="Loamdb",
        dimension="operational complexity",
        polarity=-1,
        header="Cons",
    )
    src = SourceNotes(source_id="s1", url="https://x.example/", status=Outcome.OK, key_points=[kp])
    plan = PLAN.model_copy(
        update={"dimensions": [Dimension(name="operational complexity", weight=1)]}
    )
    check = cross_validate(plan, _notes(src), {"s1": text}, StageContext())
    assert [(c.kind, c.dimension, c.polarity) for c in check.claims] == [
        ("stance", "operational complexity", -1)
    ]


def test_an_item_under_cons_about_another_dimension_is_no_claim_on_this_one():
    text = "Operational complexity: a second metadata service to run"
    kp = KeyPoint(text=text, quote=text, offset=0, option="Loamdb", polarity=-1, header="Cons")
    src = SourceNotes(source_id="s1", url="https://x.example/", status=Outcome.OK, key_points=[kp])
    check = cross_validate(PLAN, _notes(src), {"s1": text}, StageContext())
    assert [c for c in check.claims if c.polarity] == []


def test_a_status_or_licence_said_of_one_component_is_not_the_projects_own():
    texts = {
        "s1": "The legacy sync adapter of Loamdb is deprecated.",
        "s2": "The legacy sync adapter of Loamdb is GPL-3.0 licensed.",
    }
    urls = {"s1": "https://x.example/", "s2": "https://y.example/"}
    notes = _notes(*(_source(s, urls[s], t) for s, t in texts.items()))
    ctx = StageContext()
    check = cross_validate(PLAN, notes, texts, ctx)
    assert not [c for c in check.claims if c.attribute in ("maintenance", "licence")]
    assert [e["attribute"] for e in ctx.events if e["event"] == "claim_scoped_out"] == ["licence"]


def test_a_comparison_gives_each_compared_option_its_own_stance():
    plan = PLAN.model_copy(update={"dimensions": [Dimension(name="performance", weight=1)]})
    text = "Loamdb replicates writes much faster than Quillsync."
    kp = KeyPoint(text=text, quote=text, offset=0, option="Loamdb", dimension="performance")
    src = SourceNotes(source_id="s1", url="https://x.example/", status=Outcome.OK, key_points=[kp])
    check = cross_validate(plan, _notes(src), {"s1": text}, StageContext())
    stances = {(c.option, c.polarity) for c in check.claims if c.kind == "stance"}
    assert stances == {("Loamdb", 1), ("Quillsync", -1)}


def _dated(sid, text, published, option="Loamdb", dimension="licence risk"):
    src = _source(sid, f"https://{sid}.example/", text, published=published)
    src.key_points[0].option, src.key_points[0].dimension = option, dimension
    return src


FILLER_TEXTS = [
    "Loamdb has a command-line client for scripting.",
    "Loamdb stores documents as compact binary records.",
    "Loamdb runs on Linux, macOS and Windows.",
    "Loamdb ships keyboard shortcuts for every action.",
    "Loamdb replicates through any WebDAV server.",
    "Loamdb has a dark theme and a light theme.",
]


def _time_conflict(newer_text):
    sources = [
        _dated("old", "Loamdb has no offline mode: edits made on a plane are lost.", "2019-03-01"),
        _dated("new", newer_text, "2025-05-01"),
        *(_dated(f"f{i}", t, "2024-01-01") for i, t in enumerate(FILLER_TEXTS)),
    ]
    texts = {s.source_id: s.key_points[0].quote for s in sources}
    check = cross_validate(PLAN, _notes(*sources), texts, StageContext())
    [x] = [c for c in check.contradictions if "offline" in c.attribute]
    return x, check


def test_a_later_page_that_merely_disagrees_does_not_settle_which_side_is_current():
    x, _ = _time_conflict("The offline mode of Loamdb queues edits until the network is back.")
    assert x.cause == "time"
    assert x.current is None


def test_a_sentence_that_reports_the_change_describes_the_current_state():
    x, check = _time_conflict("Loamdb now has an offline mode that queues edits until online.")
    current = next(c for c in check.claims if c.id == x.current)
    assert "now has an offline mode" in current.quote


def test_many_pages_giving_different_figures_are_one_contradiction_with_sides():
    plan = PLAN.model_copy(update={"dimensions": [Dimension(name="performance", weight=1)]})
    texts = {
        "s1": "Loamdb has 40 contributors.",
        "s2": "Loamdb has 40 contributors today.",
        "s3": "Loamdb counts 120 contributors.",
        "s4": "Loamdb lists 300 contributors.",
    }
    sources = []
    for sid, text in texts.items():
        src = _source(sid, f"https://{sid}.example/", text)
        src.key_points[0].dimension = "performance"
        sources.append(src)
    check = cross_validate(plan, _notes(*sources), texts, StageContext())
    [x] = [c for c in check.contradictions if c.attribute == "contributors"]
    sides = [x.a, *x.a_also, x.b, *x.b_also]
    assert sorted(s.source_id for s in sides) == ["s1", "s2", "s3", "s4"]
    values = {c.id: c.value for c in check.claims}
    assert {values[s.claim_id] for s in [x.a, *x.a_also]} == {values[x.a.claim_id]}


def _read(*texts_by_site: tuple[str, str]):
    sources = []
    pages = {}
    for i, (site, text) in enumerate(texts_by_site):
        kp = KeyPoint(text=text, quote=text, offset=0, option="Loamdb", about="named")
        sid = f"s{i}"
        sources.append(
            SourceNotes(source_id=sid, url=f"https://{site}/p", status=Outcome.OK, key_points=[kp])
        )
        pages[sid] = text
    return cross_validate(PLAN, _notes(*sources), pages, StageContext())


def test_different_figures_of_one_measure_against_one_yardstick_contradict():
    check = _read(
        ("bench.example", "Loamdb uses 2.5x the memory of Quillsync at idle."),
        ("news.example", "At idle, Loamdb needs 25x the memory of Quillsync, says the rewrite."),
    )
    assert [c.attribute for c in check.contradictions] == ["multiple (memory vs Quillsync)"]


def test_weekly_and_monthly_downloads_are_compared_per_month():
    agree = _read(
        ("a.example", "Loamdb has 1 million weekly downloads on npm."),
        ("b.example", "Loamdb 的月均下载量约 430 万次。"),
    )
    assert agree.contradictions == []
    differ = _read(
        ("a.example", "Loamdb has 1 million weekly downloads on npm."),
        ("b.example", "Loamdb 的月均下载量约 50 万次。"),
    )
    assert [c.attribute for c in differ.contradictions] == ["downloads per month"]


def test_a_release_dated_early_in_a_year_contradicts_a_date_late_in_it():
    check = _read(
        ("a.example", "2024 年初，Loamdb 官方正式发布了 Loamdb 5。"),
        ("b.example", "Loamdb 5 was released in October 2024."),
    )
    [found] = check.contradictions
    assert "early 2024" in found.note and "2024-10" in found.note
    same = _read(
        ("a.example", "Loamdb 5 came out in early 2024."),
        ("b.example", "Loamdb 5.0 was released in February 2024."),
    )
    assert same.contradictions == []


def test_a_sentence_about_two_options_gives_each_the_figure_of_its_own_clause():
    check = _read(
        ("a.example", "Loamdb ships a 40KB runtime; Quillsync weighs 150KB."),
        ("b.example", "Loamdb needs 150KB of runtime code, the benchmark found."),
    )
    [found] = check.contradictions
    assert (found.option, found.attribute) == ("Loamdb", "size (KB)")


def test_a_change_over_time_resolves_toward_the_side_that_reports_the_change():
    check = _read(
        ("old.example", "Loamdb will remain MIT licensed, its founders promised."),
        ("new.example", "Loamdb is switching to the AGPL with its next release."),
    )
    [found] = check.contradictions
    by_id = {c.id: c for c in check.claims}
    assert found.cause == "time"
    assert by_id[found.current].quote.startswith("Loamdb is switching")


# --- one reading per sentence and cell -------------------------------------------------------


def _logged() -> tuple[StageContext, list[tuple[str, dict]]]:
    events: list[tuple[str, dict]] = []
    return StageContext(log=lambda event, **data: events.append((event, data))), events


def test_two_readings_of_one_sentence_that_disagree_on_a_cell_leave_it_mixed_and_unscored():
    quote = "Loamdb is licensed under the AGPL, so any fork must publish its changes."
    fact = claim("c1", "licence", "AGPL-3.0", "s1", quote, polarity=1, dimension="licence risk")
    stance = claim(
        "c2",
        "stance",
        "negative",
        "s1",
        quote,
        polarity=-1,
        dimension="licence risk",
        kind="stance",
    )
    ctx, events = _logged()
    read = one_reading_per_cell([fact, stance], ctx)
    assert [(c.id, c.polarity) for c in read] == [("c1", 0), ("c2", 0)]
    assert read[1].value == "mixed" and read[0].value == "AGPL-3.0"
    mixed = [data for event, data in events if event == "claim_mixed"]
    assert {m["claim_id"] for m in mixed} == {"c1", "c2"}
    assert all("disagree" in m["reason"] for m in mixed)


def test_readings_that_agree_score_the_sentence_once_on_its_cell():
    quote = "Loamdb is fast and cheap to run."
    one = claim(
        "c1", "stance", "positive", "s1", quote, polarity=1, dimension="cost", kind="stance"
    )
    again = one.model_copy(update={"id": "c2"})
    other_cell = one.model_copy(update={"id": "c3", "dimension": "speed"})
    other_page = one.model_copy(update={"id": "c4", "source_id": "s2"})
    ctx, events = _logged()
    read = one_reading_per_cell([one, again, other_cell, other_page], ctx)
    assert [(c.id, c.polarity) for c in read] == [("c1", 1), ("c2", 0), ("c3", 1), ("c4", 1)]
    assert [d["claim_id"] for e, d in events if e == "claim_not_scored"] == ["c2"]


def test_every_claim_says_which_reader_read_it():
    rules = claim("c1", "stance", "positive", "s1", polarity=1, dimension="cost", kind="stance")
    model = rules.model_copy(update={"id": "c2", "origin": "model"})
    assert (rules.read_by, model.read_by) == ("rules", "model")
    assert rules.model_dump(mode="json")["read_by"] == "rules"
    assert Claim.model_validate(model.model_dump(mode="json")).read_by == "model"
