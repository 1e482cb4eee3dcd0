"""`manage.py bench` prints retrieve's wall time against one search's latency."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_bench_prints_retrieve_time_as_a_multiple_of_one_search():
    out = io.StringIO()
    call_command(
        "bench", pages=3, latency=0.05, search_latency=0.1, queued=0, floor_runs=0, stdout=out
    )
    line = next(line for line in out.getvalue().splitlines() if "retrieve:" in line)
    figures = re.fullmatch(
        r"  retrieve: (\d+) searches, 100 ms latency each \| (?:\d+|all) in flight per provider: +"
        r"(\d+\.\d\d) x search latency \| one at a time: +(\d+\.\d\d) x",
        line,
    )
    assert figures, line
    searches, parallel, sequential = figures.groups()
    # Lower bounds only: every search waits out its latency, one at a time or not.
    assert float(parallel) >= 1
    assert float(sequential) >= int(searches)


@pytest.mark.slow
@pytest.mark.serial  # 20 runs at once on two real workers: it loads the machine
@pytest.mark.django_db(transaction=True)
def test_bench_prints_when_the_first_median_and_last_of_queued_runs_finished():
    out = io.StringIO()
    call_command("bench", pages=2, latency=0.02, queued=4, workers=2, floor_runs=0, stdout=out)
    line = next(line for line in out.getvalue().splitlines() if "queued:" in line)
    figures = re.fullmatch(
        r"  queued: 4 runs submitted at once to 2 workers \| first done +([\d.]+) s \| "
        r"median +([\d.]+) s \| last +([\d.]+) s \| one run alone +([\d.]+) s",
        line,
    )
    assert figures, line  # no run failed: the line would say so
    first, median, last, _alone = (float(v) for v in figures.groups())
    assert 0 < first <= median <= last


@pytest.mark.slow
@pytest.mark.serial  # the benchmark loads the machine and times it
@pytest.mark.django_db(transaction=True)
def test_bench_prints_each_part_of_a_run_against_its_floor_of_round_trips():
    out = io.StringIO()
    call_command(
        "bench",
        latency=0.05,
        floor_runs=2,
        floor_pages=4,
        hosts=2,
        floor_only=True,
        stdout=out,
    )
    text = out.getvalue()
    assert "latency floor: 50 ms a request, 4 pages on 2 hosts" in text
    assert "retrieve:" not in text and "queued:" not in text  # the floor only
    assert "pages read OK [4, 4]; min / median / max of 2" in text
    spread = r"(\d+) / +(\d+) / +(\d+) ms"
    ratio = r"(\d+\.\d\d) / (\d+\.\d\d) / (\d+\.\d\d) x"
    for label, against in (
        ("retrieve", "one search"),
        ("deep-read", "one robots \\+ page chain"),
        ("five stages", "10 round trips"),
    ):
        line = re.search(rf"^  {label} +{spread} = {ratio} {against}$", text, re.M)
        assert line, (label, text)
        low, mid, high = (float(v) for v in line.groups()[3:])
        assert 0 < low <= mid <= high
    for label in ("CLI start-up", "CLI exit", "CLI whole process", "CLI research --help"):
        line = re.search(rf"^  {label} +{spread}$", text, re.M)
        assert line, (label, text)
        low, mid, high = (int(v) for v in line.groups())
        assert low <= mid <= high


def test_bench_llm_prints_each_stages_tokens_for_whole_runs_within_the_target():
    out = io.StringIO()
    call_command("bench", llm=True, stdout=out)
    text = out.getvalue()
    # The limits a run gets without a model too: the model does not make it read less.
    assert "limits 50 candidates / 30 kept / 30 pages / 30,000 characters" in text
    assert "local web, 60 pages over 30,000 characters: 50 candidates, 30 kept, 30 read" in text
    lines = text.split("\n")[1:]
    ran = re.compile(r"^  ([\d,]+) tokens a run: (?:within|OVER) the 30,000 target", re.M)
    totals = [int(m.group(1).replace(",", "")) for m in ran.finditer(text)]
    assert len(totals) == 3  # the notes corpora, English and Chinese, and the local web
    assert all(0 < t <= 30_000 for t in totals), totals
    assert text.count("(within the budget)") == 3  # even with every answer at its cap
    assert text.count("mode llm; all five stages done") == 3
    assert text.count("matches index.json") == 3
    for label in ("retrieve", "filter", "decide"):
        rows = [line.split() for line in lines if line.startswith(f"  {label} ")]
        assert len(rows) == 3 and all(int(row[1]) >= 1 for row in rows), rows
    for row in (line.split() for line in lines if line.startswith("  run ")):
        calls, prompt, completion, total = int(row[1]), *(int(v.replace(",", "")) for v in row[3:6])
        assert calls >= 3 and prompt + completion == total


def test_fitted_exponent_is_the_slope_of_log_time_against_log_pages():
    from tools.bench.scale import fitted_exponent

    sizes = [30, 60, 120, 240]
    assert fitted_exponent(sizes, [0.01 * s for s in sizes]) == pytest.approx(1.0)
    assert fitted_exponent(sizes, [8e-6 * s * s for s in sizes]) == pytest.approx(2.0)
    assert fitted_exponent(sizes, [0.5, 0.5, 0.5, 0.5]) == pytest.approx(0.0)


def test_bench_scale_prints_every_stages_time_per_size_and_its_exponent():
    out = io.StringIO()
    call_command("bench", scale=[6, 3], stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("bench --scale: CPU seconds per stage by pages read")
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:-1]}
    assert rows["pages"] == ["3", "6", "exponent"]
    assert rows["read"] == ["OK", "3", "6"]  # every page of the local web was read
    points = [int(v) for v in rows["key"][1:]]
    assert 0 < points[0] < points[1]  # twice the pages, more key points to compare
    for stage in ("retrieve", "filter", "deepread", "crosscheck", "decide"):
        figures = [float(v) for v in rows[stage]]
        assert len(figures) == 3 and all(t >= 0 for t in figures[:2]), (stage, figures)
    assert re.fullmatch(
        r"  filter and cross-validate (within|OVER) the 1\.2 target exponent( \(.*\))?",
        lines[-1],
    )


def test_bench_scale_refuses_a_single_size():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="at least two different page counts"):
        call_command("bench", scale=[30], stdout=io.StringIO())


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_bench_chord_prints_deep_reads_time_as_one_task_and_on_each_number_of_workers():
    out = io.StringIO()
    call_command("bench", chord=12, chord_workers=[1, 2], stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("bench --chord: deep-read of one run of 12 pages")
    rows = {}
    for line in lines[1:]:
        figures = re.fullmatch(
            r"  (one task|1 worker|2 workers) +([\d.]+) s deep-read \| +[\d.]+ CPU s in the "
            r"workers \( *[\d.]+ cores busy\) \| +(\d+) part\(s\) \| (\d+) pages read \| +"
            r"([\d.]+) x the speed of 1 worker",
            line,
        )
        assert figures, line
        label, seconds, parts, read, _speed = figures.groups()
        rows[label] = (float(seconds), int(parts), int(read))
    assert list(rows) == ["one task", "1 worker", "2 workers"]
    assert rows["one task"][1] == 1 and rows["1 worker"][1] > 1 and rows["2 workers"][1] > 1
    # Every page of the local web was read, whichever way.
    assert {read for _, _, read in rows.values()} == {12}
    assert all(seconds > 0 for seconds, _, _ in rows.values())


def test_bench_chord_refuses_fewer_than_two_pages():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="at least 2 pages"):
        call_command("bench", chord=1, stdout=io.StringIO())


def test_bench_prints_question_reading_times_at_each_multiple_of_the_longest_question():
    out = io.StringIO()
    call_command("bench", questions=[1, 2], stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "question reading, fastest of 3: 1x (2,000 chars) | 2x (4,000 chars)"
    rows = [
        re.fullmatch(r"  (.+?) +([\d.]+) ms \( +1\.0x\) \| +([\d.]+) ms \( *[\d.]+x\)", line)
        for line in lines[1:]
    ]
    assert all(rows), lines
    assert {row.group(1) for row in rows} >= {"one letter", "ranking", "Chinese list"}
