"""A snapshot keeps what a run wrote and nothing that changes from run to run, so that two
runs of the same corpus compare equal, and a change to any artifact is named."""

from __future__ import annotations

import json

import pytest

from tools.quality import snapshots


def write_run(folder, run_id: str, started: str, claim: str) -> None:
    folder.mkdir(parents=True)
    (folder / "report.md").write_text(f"# Run {run_id}\n\ngenerated 2026-11-{started[8:10]}\n")
    (folder / "log.jsonl").write_text(
        json.dumps({"at": started, "run": run_id, "elapsed_ms": 17}) + "\n"
    )
    (folder / "claims.json").write_text(json.dumps({"claims": [claim]}))
    (folder / "index.json").write_text(
        json.dumps(
            {
                "artifacts": [
                    {"name": "claims.json", "sha256": "x", "bytes": 1},
                    {"name": "report.md", "sha256": "y", "bytes": 2},
                ]
            }
        )
    )


@pytest.fixture
def snaps(tmp_path, monkeypatch):
    monkeypatch.setattr(snapshots, "SNAPS", tmp_path / "snaps")
    return tmp_path


def keep(snaps, name: str, run_id: str, started: str, claim: str) -> None:
    run = snaps / "runs" / name / run_id
    write_run(run, run_id, started, claim)
    snapshots.normalise(run, snapshots.SNAPS / name / "topic")


def test_two_runs_differing_only_in_ids_and_times_compare_equal(snaps, capsys):
    keep(snaps, "before", "aaaa1111", "2026-11-02T10:00:00Z", "Quillsync is MIT")
    keep(snaps, "after", "bbbb2222", "2026-11-30T18:41:07.5+00:00", "Quillsync is MIT")

    assert snapshots.compare("before", "after") == 0
    assert "0 differ" in capsys.readouterr().out


def test_a_changed_claim_names_its_file_and_the_manifest(snaps, capsys):
    keep(snaps, "before", "aaaa1111", "2026-11-02T10:00:00Z", "Quillsync is MIT")
    keep(snaps, "after", "bbbb2222", "2026-11-02T10:00:00Z", "Quillsync is GPL")

    assert snapshots.compare("before", "after") == 1
    out = capsys.readouterr().out
    assert "DIFFERS: topic/claims.json" in out
    assert "DIFFERS: topic/index.json" in out
    assert "report.md" not in out.replace("files compared", "")


def test_comparing_with_a_snapshot_never_made_says_so(snaps):
    keep(snaps, "before", "aaaa1111", "2026-11-02T10:00:00Z", "Quillsync is MIT")
    with pytest.raises(SystemExit, match="no snapshot after"):
        snapshots.compare("before", "after")
