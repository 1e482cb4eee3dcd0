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
@pytest.mark.django_db(transaction=True)
def test_bench_prints_each_part_of_a_run_against_its_floor_of_round_trips():
    out = io.StringIO()
    call_command(
        "bench", pages=2, latency=0.05, queued=0, floor_runs=2, floor_pages=4, hosts=2, stdout=out
    )
    text = out.getvalue()
    assert "latency floor: 50 ms a request, 4 pages on 2 hosts" in text
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
    ran = re.compile(r"^  ([\d,]+) tokens a run: (?:within|OVER) the 12,000 target", re.M)
    totals = [int(m.group(1).replace(",", "")) for m in ran.finditer(text)]
    assert len(totals) == 3  # the notes corpora, English and Chinese, and the local web
    assert all(0 < t <= 12_000 for t in totals), totals
    assert text.count("(within the budget)") == 3  # even with every answer at its cap
    assert text.count("mode llm; all five stages done") == 3
    assert text.count("matches index.json") == 3
    for label in ("retrieve", "filter", "decide"):
        rows = [line.split() for line in lines if line.startswith(f"  {label} ")]
        assert len(rows) == 3 and all(int(row[1]) >= 1 for row in rows), rows
    for row in (line.split() for line in lines if line.startswith("  run ")):
        calls, prompt, completion, total = int(row[1]), *(int(v.replace(",", "")) for v in row[3:6])
        assert calls >= 3 and prompt + completion == total
