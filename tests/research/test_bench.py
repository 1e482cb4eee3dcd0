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
