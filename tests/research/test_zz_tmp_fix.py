import pytest
from research import pipeline
from research.management.commands import research as cmd
from tests.research.test_cli import *  # noqa

def fixed(self, run_id, from_stage):
    stage = from_stage or pipeline.first_unfinished(run_id)
    last = pipeline.active_stages()[-1]
    while stage is not None:
        result = pipeline.execute_stage(run_id, stage, force=stage == from_stage, lock_wait=2.0)
        self._progress(f"[1/5] x: {result.status}", done=True)
        last, stage = stage, pipeline.next_stage(stage)
    pipeline.finish_run(run_id, last)

@pytest.mark.django_db
def test_fixed(finished, monkeypatch):
    monkeypatch.setattr(cmd.Command, "_run_here", fixed)
    output = research("--resume", finished)
    assert attempts(finished) == dict.fromkeys(attempts(finished), 1)
    assert all(status != "done" for _, status in stage_lines(output))
    assert re.search(r"^Confidence: \d+/100", output, re.MULTILINE)
