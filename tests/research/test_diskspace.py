"""A full disk under the run folders: the run waits with the reason in the database, the log
keeps whole lines, the supervisor says it once, and the run goes on once there is room.

The disk here is a real folder whose writes fail with ENOSPC while the test says it is
full: the run store's own file operations see the error a full file system gives."""

from __future__ import annotations

import errno
import logging
import os
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from research import diskspace, services
from research.artifacts import STAGES, Question
from research.models import Run
from research.questions import Submission
from research.runs import broker, execute, loop, registry, rows, tasks
from research.store import RunStore, store_for
from research.store import files as store_module  # where the run folder's writes are made
from tests.processes import wait_until


class Disk:
    """The run store's view of the disk: full or not. While full, every write of the store
    fails with ENOSPC, as a full file system makes it; `room` bytes still fit, so a write
    can also stop part way."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        self.room = 0
        real_write, real_atomic = os.write, store_module.atomic_write

        class OS:
            def __getattr__(self, name: str):
                return getattr(os, name)

            @staticmethod
            def write(fd: int, data: bytes) -> int:
                if not disk.full:
                    return real_write(fd, data)
                if disk.room <= 0:
                    raise OSError(errno.ENOSPC, "No space left on device")
                written = real_write(fd, bytes(data[: disk.room]))
                disk.room -= written
                return written

        def atomic_write(path: Path, data: bytes) -> None:
            if disk.full:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
            real_atomic(path, data)

        disk = self
        monkeypatch.setattr(store_module, "os", OS())
        monkeypatch.setattr(store_module, "atomic_write", atomic_write)


@pytest.fixture
def disk(monkeypatch) -> Disk:
    return Disk(monkeypatch)


def new_run() -> Run:
    return services.create_run(
        Question(
            question="Choose between Alderstream and Brightwell",
            options=["Alderstream", "Brightwell"],
            sources=["ddgs"],
        )
    )


def test_a_log_line_that_does_not_fit_is_not_written_at_all(runs_dir, disk):
    run_store = RunStore(runs_dir, "run1")
    run_store.create({"question": "A or B?"}, STAGES)
    before = run_store.path.joinpath("log.jsonl").read_bytes()
    disk.full, disk.room = True, 20

    with pytest.raises(OSError) as caught:
        run_store.log("stage_started", stage="deepread", attempt=1)

    assert caught.value.errno == errno.ENOSPC
    assert run_store.path.joinpath("log.jsonl").read_bytes() == before
    disk.full = False
    run_store.log("after")
    assert [e["event"] for e in run_store.read_log()] == ["run_created", "after"]


@pytest.mark.django_db
def test_a_stage_that_cannot_write_leaves_its_run_waiting_for_space_in_the_database(disk):
    run = new_run()
    disk.full = True

    with pytest.raises(diskspace.DiskFull):
        execute.execute_stage(run.run_id, "retrieve")

    run.refresh_from_db()
    assert run.status == "queued"
    assert run.error.startswith("retrieve: waiting for disk space: no space left on the disk")
    assert run.stages.get(stage="retrieve").status == "queued"


@pytest.mark.django_db
def test_a_stage_that_runs_out_of_space_part_way_goes_back_to_queued_to_be_sent_again(
    disk, monkeypatch
):
    run = new_run()
    spec = registry.REGISTRY["retrieve"]

    def fills_the_disk(run_store, ctx):
        disk.full = True  # a later write of the manifest has no room either
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(spec, "run", fills_the_disk)
    with pytest.raises(diskspace.DiskFull):
        execute.execute_stage(run.run_id, "retrieve")

    assert rows.waiting_for_space(run.run_id)
    # The manifest could not record it: the stage still reads as running there, and the
    # supervisor takes it back without counting a lost worker.
    disk.full = False
    assert store_for(run.run_id).index()["stages"]["retrieve"]["status"] == "running"


@pytest.mark.django_db
def test_the_supervisor_says_once_that_a_run_waits_for_space_and_sends_it_when_there_is_room(
    disk, monkeypatch, caplog
):
    sent = []
    monkeypatch.setattr(tasks.STAGE_TASKS["filter"], "delay", lambda run_id: sent.append(run_id))
    monkeypatch.setattr(broker, "waiting_messages", lambda lease=None: set())
    run = new_run()
    run_store = store_for(run.run_id)
    old = (datetime.now(UTC) - timedelta(seconds=120)).isoformat()
    run_store.update_index(
        lambda index: (
            index["stages"]["retrieve"].update(status="done", finished=old),
            index["stages"]["filter"].update(status="running", started=old, heartbeat=old),
        )
    )
    Run.objects.filter(pk=run.pk).update(status="running", current_stage="filter")
    disk.full = True

    with caplog.at_level(logging.INFO):
        for _ in range(3):
            assert loop.recovery_pass(30.0) == []

    run.refresh_from_db()
    assert run.status == "queued" and "no space left on the disk" in run.error
    assert caplog.text.count("waits for disk space") == 1
    assert "Traceback" not in caplog.text
    assert sent == []

    disk.full = False
    [done] = loop.recovery_pass(30.0)
    assert (done.stage, done.did) == ("filter", "requeued")
    assert sent == [run.run_id]
    assert run_store.index()["stages"]["filter"].get("recoveries") == 0, "no worker was lost"


@pytest.mark.django_db
def test_the_run_page_says_a_run_waits_for_disk_space(disk, client, django_user_model):
    user = django_user_model.objects.create_user("ada")
    run = new_run()
    Run.objects.filter(pk=run.pk).update(owner=user)
    rows.wait_for_space(run.run_id, "deepread")
    client.force_login(user)

    text = client.get(f"/runs/{run.run_id}/progress/").text

    assert "<strong>Waiting for disk space.</strong> No space left on the disk" in text
    assert "Waiting for a worker" not in text


# --- a real full disk ---------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 3 MB tmpfs, where mounting one is allowed (root on Linux); skipped elsewhere."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path) -> Path:
    ballast = folder / "ballast"
    with open(ballast, "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return ballast


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_run_on_a_full_disk_waits_with_the_reason_and_finishes_once_space_returns(
    small_disk, workers, testweb, settings
):
    from tests.runs import serve_pages

    runs = small_disk / "runs"
    runs.mkdir()
    settings.RUNS_DIR = runs
    workers.env["RUNS_DIR"] = str(runs)
    base = serve_pages(testweb, delay=2.0)
    workers.wait_ready(workers.start(STAGE_LEASE="3"))
    run = services.create_run(
        Question(
            question="Choose between Alderstream and Brightwell",
            dimensions=[{"name": "licence risk", "weight": 1}],
            sources=[f"searxng:{base}"],
        )
    )
    tasks.start(run.run_id)
    run_store = store_for(run.run_id)
    wait_until(
        lambda: run_store.index()["stages"]["deepread"]["status"] == "running", 60, "deep-read"
    )
    ballast = fill(small_disk)
    filled = time.monotonic()

    wait_until(lambda: rows.waiting_for_space(run.run_id), 30, "the run to wait")
    noticed = time.monotonic() - filled
    run.refresh_from_db()
    assert "no space left on the disk that holds the run folders" in run.error
    for line in run_store.path.joinpath("log.jsonl").read_bytes().splitlines():
        assert line.endswith(b"}"), f"a log line was cut short: {line[-60:]!r}"

    ballast.unlink()
    freed = time.monotonic()
    wait_until(lambda: Run.objects.get(pk=run.pk).status in ("done", "failed"), 60, "the end")
    run.refresh_from_db()
    resumed = time.monotonic() - freed
    print(
        f"\nfull disk: the run waited {noticed:.1f} s after the disk filled, and was "
        f"{run.status} {resumed:.1f} s after space returned"
    )
    assert run.status == "done", run.error


@pytest.mark.django_db
def test_a_question_asked_while_the_disk_is_full_is_refused_with_the_reason(disk):
    disk.full = True

    with pytest.raises(services.QuestionInvalid) as caught:
        services.submit_question(
            None, Submission(question="Choose between Alderstream and Brightwell")
        )

    assert caught.value.errors == {
        "question": [
            "The server could not store this run (no space left on the disk that holds the run "
            "folders). Try again later."
        ]
    }
    assert not Run.objects.exists()
