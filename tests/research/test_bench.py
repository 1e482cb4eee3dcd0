"""`manage.py bench` prints retrieve's wall time against one search's latency."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_bench_prints_retrieve_time_as_a_multiple_of_one_search():
    out = io.StringIO()
    call_command("bench", pages=3, latency=0.05, search_latency=0.1, stdout=out)
    line = next(line for line in out.getvalue().splitlines() if "retrieve:" in line)
    figures = re.fullmatch(
        r"  retrieve: (\d+) searches, 100 ms latency each \| \d+ in flight per provider: +"
        r"(\d+\.\d\d) x search latency \| one at a time: +(\d+\.\d\d) x",
        line,
    )
    assert figures, line
    searches, parallel, sequential = figures.groups()
    # Lower bounds only: every search waits out its latency, one at a time or not.
    assert float(parallel) >= 1
    assert float(sequential) >= int(searches)


def test_bench_llm_prints_each_stages_tokens_for_whole_runs_within_the_budget():
    out = io.StringIO()
    call_command("bench", llm=True, stdout=out)
    text = out.getvalue()
    assert "limits 25 candidates / 12 kept / 8 pages / 12,000 characters" in text
    lines = text.split("\n")[1:]
    ran = re.compile(r"^  ([\d,]+) tokens a run: (?:within|OVER) the 12,000 target", re.M)
    totals = [int(m.group(1).replace(",", "")) for m in ran.finditer(text)]
    assert len(totals) == 3  # the notes corpora, English and Chinese, and the local web
    assert all(0 < t <= 15_000 for t in totals)
    assert text.count("mode llm; all five stages done") == 3
    assert text.count("matches index.json") == 3
    for label in ("retrieve", "filter", "decide"):
        rows = [line.split() for line in lines if line.startswith(f"  {label} ")]
        assert len(rows) == 3 and all(int(row[1]) >= 1 for row in rows), rows
    for row in (line.split() for line in lines if line.startswith("  run ")):
        calls, prompt, completion, total = int(row[1]), *(int(v.replace(",", "")) for v in row[3:6])
        assert calls >= 3 and prompt + completion == total
