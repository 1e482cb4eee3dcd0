"""Reading a question takes time in proportion to its length, however it is written: a
question is checked for length before it is read, and reading what passes must not stall
the web process for everyone else."""

from __future__ import annotations

import pytest

from tools.bench.question_reading import SHAPES, reading_times

# Below this, a reading is too short for a busy machine to time against another.
TIMER_FLOOR = 0.002


@pytest.mark.serial  # it times itself, and so needs the machine to itself
@pytest.mark.parametrize("shape", list(SHAPES))
def test_reading_16_times_as_long_a_question_takes_far_less_than_256_times_as_long(shape):
    times = reading_times(shape, (1, 16), repeats=3)
    # Linear is 16x; the slack is for a noisy machine, and a reader that starts again from
    # every character takes 256x.
    assert times[16] < 40 * max(times[1], TIMER_FLOOR), times
