"""The benchmark commands print their figures; these tests check they run and report."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_the_quality_command_prints_precision_recall_and_verified_quotes():
    out = io.StringIO()
    call_command("quality", stdout=out)
    text = out.getvalue()
    figures = re.findall(r"precision (\d\.\d\d) \| recall (\d\.\d\d)", text)
    # all / English / Chinese, for both finders, on both labelled sets
    assert len(figures) == 12
    assert "Contradiction detection (whole sentences)" in text
    assert all(0 <= float(p) <= 1 and 0 <= float(r) <= 1 for p, r in figures)
    verified = re.findall(r"(\d+)/(\d+) quotes found verbatim", text)
    assert len(verified) == 2
    assert all(int(total) > 0 and ok == total for ok, total in verified)


@pytest.mark.serial  # the benchmark loads the machine and times it
def test_the_bench_command_prints_each_stage_time_and_the_latency_multiple():
    out = io.StringIO()
    call_command("bench", pages=3, latency=0.05, queued=0, stdout=out)
    text = out.getvalue()
    assert "bench: 3 pages, 50 ms latency each" in text
    for label in ("parallel", "sequential (1 worker)"):
        line = next(line for line in text.splitlines() if line.strip().startswith(label))
        assert re.search(r"retrieve +\d+ ms \| filter +\d+ ms \| deep-read +\d+ ms", line)
        assert "pages OK 3" in line
    assert re.search(r"speed-up from parallel fetching: \d+\.\dx", text)
