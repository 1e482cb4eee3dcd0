"""Verdict past one machine, on one machine: every process a host of its own.

A deployment here is PostgreSQL (its own cluster), Redis, optionally an S3-compatible
object store (moto's server), one web process (uvicorn, as `manage.py serve` starts it) and
Celery workers. Each process gets its own empty scratch folders (RUNS_DIR, VAR_DIR,
TMPDIR), so nothing passes between them but the database, the broker and the run store:
with RUNS_STORE=s3://... no process sees another's files. Without an object store the runs
live in one folder that every process shares, as on a shared mount.

Runs are asked the way a person asks them: signed in on the web process, through the
question form. The multi-host test (tests/research/runs/test_multihost.py) kills workers
in the middle of this; `python -m tools.bench.hosts` times 20 runs on 1, 2 and 3 workers.

Everything listens on 127.0.0.1, and the pages the runs read are served from here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tools.fakes.localweb import LocalWeb
from tools.fakes.postgres import Cluster, free_port
from tools.fakes.redis_server import start_redis, stop_redis

BASE_DIR = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
READY = 120.0  # seconds a process may take to start on a busy machine
USERNAME = "operator"
BUCKET = "verdict-runs"
PREFIX = "runs"
OPTIONS = ("Alderstream", "Brightwell")
TOPICS = ("licence", "maintenance", "cost")
# Two things differ between any two runs of one question, wherever they ran: the run's own
# id (named in report.md) and how long each search took (round_1_candidates.json).
ELAPSED = re.compile(rb'"elapsed_ms": \d+')
# The report's run line names the day it was written, which two runs a midnight apart differ in.
GENERATED = re.compile(rb"(`RUN-ID`[^\n]*?)\d{4}-\d{2}-\d{2}")


def wait_until(check: Callable[[], object], timeout: float, what: str) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")


# --- what the runs read --------------------------------------------------------------------


def serve_pages(web: LocalWeb, pages: int = 6, delay: float = 0.05) -> str:
    """Pages on Alderstream and Brightwell and a SearXNG that finds them; its address."""
    found = []
    for n in range(pages):
        option, topic = OPTIONS[n % 2], TOPICS[n % 3]
        title = f"{option} {topic} notes {n}"
        html = (
            f"<html><head><title>{title}</title></head><body><article><h1>{title}</h1>"
            f"<p>{option} is released under the MIT License and its {topic} is well "
            f"documented by the maintainers.</p><p>{option} shipped version 2.{n} in 2026 "
            f"with about {20 + n} contributors working on {topic}.</p></article></body></html>"
        )
        found.append({"url": web.add(f"/doc/{n}", html, delay=delay), "title": title})

    def results(query: str) -> list[dict]:
        return [{**page, "content": "release notes and licence"} for page in found]

    return web.add_searxng(results, delay=delay)


@dataclass(frozen=True)
class Ask:
    """One question as the form takes it."""

    question: str
    weights: tuple[float, float]  # licence risk, maintenance

    def form(self, source: str) -> dict:
        return {
            "question": self.question,
            "options": "\n".join(OPTIONS),
            "preset": "custom",
            "dimension_name": ["licence risk", "maintenance", ""],
            "dimension_weight": [str(w) for w in self.weights] + [""],
            "sources": [source],
        }


# A few different questions, so that a run given another's files would show.
ASKS = (
    Ask("Choose between Alderstream and Brightwell", (2, 1)),
    Ask("Alderstream or Brightwell for our notes sync?", (1, 1)),
    Ask("Which is safer to adopt, Alderstream or Brightwell?", (3, 1)),
    Ask("Pick one: Alderstream vs Brightwell", (1, 2)),
)


# --- where the runs are kept ---------------------------------------------------------------


class Store:
    """Reads a run's files from wherever the deployment keeps them."""

    location: str

    def read(self, run_id: str, name: str) -> bytes:
        raise NotImplementedError


class SharedFolder(Store):
    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)

    def read(self, run_id: str, name: str) -> bytes:
        return (self.path / run_id / name).read_bytes()


class ObjectStore(Store):
    """moto's S3 server on a free port, with one bucket."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.location = f"s3://{BUCKET}/{PREFIX}"
        self.log = folder / "s3.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        argv = [str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(self.port)]
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
        wait_until(self._answers, READY, "the S3 server to answer")
        self.client.create_bucket(Bucket=BUCKET)

    def _answers(self) -> bool:
        try:
            return httpx.get(self.endpoint, timeout=1).status_code < 500
        except httpx.HTTPError:
            return False

    @property
    def client(self):
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, **credentials())

    def env(self) -> dict[str, str]:
        keys = credentials()
        return {
            "RUNS_STORE": self.location,
            "S3_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": keys["aws_access_key_id"],
            "AWS_SECRET_ACCESS_KEY": keys["aws_secret_access_key"],
            "AWS_DEFAULT_REGION": keys["region_name"],
        }

    def read(self, run_id: str, name: str) -> bytes:
        answer = self.client.get_object(Bucket=BUCKET, Key=f"{PREFIX}/{run_id}/{name}")
        return answer["Body"].read()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(15)


def credentials() -> dict[str, str]:
    """moto takes any keys; these never leave the machine."""
    return {
        "aws_access_key_id": "verdict-test",
        "aws_secret_access_key": "verdict-test-secret",
        "region_name": "us-east-1",
    }


def artifact_digests(store: Store, run_id: str) -> dict[str, str]:
    """sha256 of every artifact the run's manifest lists, each first checked against the
    sha256 the manifest recorded (a damaged file fails here), with the run id, the search
    times (ELAPSED) and the day the report was written (GENERATED) written the same way."""
    index = json.loads(store.read(run_id, "index.json"))
    digests = {}
    for entry in index["artifacts"]:
        data = store.read(run_id, entry["name"])
        recorded = hashlib.sha256(data).hexdigest()
        if recorded != entry["sha256"]:
            raise AssertionError(f"{run_id}/{entry['name']} does not match its manifest")
        data = ELAPSED.sub(b'"elapsed_ms": 0', data.replace(run_id.encode(), b"RUN-ID"))
        data = GENERATED.sub(rb"\1DAY", data)
        digests[entry["name"]] = hashlib.sha256(data).hexdigest()
    return digests


# --- the processes -------------------------------------------------------------------------


@dataclass
class Host:
    """One process with scratch folders of its own."""

    name: str
    proc: subprocess.Popen
    log: Path

    def said(self, text: str) -> bool:
        return text in self.log.read_text(encoding="utf-8", errors="replace")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def tail(self, lines: int = 30) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])


@dataclass
class Deployment:
    """A database on `cluster`, a Redis, a run store, a web process and workers."""

    work: Path
    cluster: Cluster
    source: str  # the SearXNG the runs search
    s3: bool = True
    lease: float = 3.0
    hosts: list[Host] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    store: Store | None = None
    web_url: str = ""
    password: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    _stack: ExitStack = field(default_factory=ExitStack)

    # -- setting up --

    def start(self, workers: int, **worker_env: str) -> Deployment:
        name = f"verdict_{secrets.token_hex(4)}"
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "RUNS_"))},
            "DATABASE_URL": self.cluster.create_database(name),
            "REDIS_URL": self._start_redis(),
            "SECRET_KEY": secrets.token_urlsafe(50),
            "SOURCES": f"web=searxng:{self.source}",
            "DEFAULT_SOURCES": "web",
            "FETCH_ALLOWED_NETWORKS": "127.0.0.1/32",
            "RETRY_BASE_DELAY": "0",
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "STAGE_LEASE": str(self.lease),
            "PYTHONUNBUFFERED": "1",
        }
        if self.s3:
            s3 = ObjectStore(self.work)
            s3.start()
            self._stack.callback(s3.stop)
            self.env.update(s3.env())
            self.store = s3
        else:
            shared = self.work / "shared-runs"
            shared.mkdir()
            self.env["RUNS_DIR"] = str(shared)
            self.store = SharedFolder(shared)
        self.manage("migrate", "--noinput", "-v0")
        self.manage(
            "createsuperuser", "--noinput", "--username", USERNAME, "--email", "op@example.invalid"
        )
        web = self._start_web()
        for _ in range(workers):
            self.start_worker(**worker_env)
        self.wait_ready(web, *self.workers)
        return self

    def _scratch(self, name: str) -> dict[str, str]:
        """Empty folders of the host's own: its runs folder (unless runs are shared), its
        state and its temporary files."""
        root = self.work / name
        folders = {"VAR_DIR": root / "var", "TMPDIR": root / "tmp"}
        if self.s3:
            folders["RUNS_DIR"] = root / "runs"
        for path in folders.values():
            path.mkdir(parents=True)
        return {key: str(path) for key, path in folders.items()}

    def _spawn(self, name: str, argv: list[str], **env: str) -> Host:
        log_path = self.work / f"{name}.log"
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                argv,
                env={**self.env, **self._scratch(name), **env},
                cwd=BASE_DIR,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        host = Host(name, proc, log_path)
        self.hosts.append(host)
        return host

    def manage(self, *args: str) -> None:
        env = {**self.env, **self._scratch(f"manage-{secrets.token_hex(3)}")}
        env["DJANGO_SUPERUSER_PASSWORD"] = self.password
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            env=env,
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        if done.returncode:
            raise RuntimeError(f"manage.py {args[0]} failed:\n{done.stdout}{done.stderr}")

    def _start_redis(self) -> str:
        proc, url = start_redis(self.work, wait=READY)
        self._stack.callback(stop_redis, proc)
        return url

    def _start_web(self) -> Host:
        port = free_port()
        argv = [sys.executable, "manage.py", "web", "--host", "127.0.0.1", "--port", str(port)]
        self.web_url = f"http://127.0.0.1:{port}"
        return self._spawn("web", argv)

    def start_worker(self, **env: str) -> Host:
        """A worker on a host of its own; `env` adds to its environment."""
        name = f"worker{sum(h.name.startswith('worker') for h in self.hosts)}"
        argv = [sys.executable, "-m", "celery", "-A", "research", "worker", "--pool=solo"]
        argv += ["--loglevel=INFO", "--without-gossip", "--without-mingle"]
        argv += ["--without-heartbeat", f"--hostname={name}@%h"]
        return self._spawn(name, argv, **env)

    @property
    def workers(self) -> list[Host]:
        return [h for h in self.hosts if h.name.startswith("worker") and h.alive()]

    def wait_ready(self, *hosts: Host) -> None:
        for host in hosts:

            def ready(host: Host = host) -> bool:
                if not host.alive():
                    raise RuntimeError(f"{host.name} stopped:\n{host.tail()}")
                if host.name == "web":
                    return _answers(f"{self.web_url}/accounts/login/")
                return host.said(" ready.")

            wait_until(ready, READY, f"{host.name} to be ready")

    def kill(self, host: Host) -> None:
        """SIGKILL: the host is gone, mid-whatever it was doing."""
        os.killpg(host.proc.pid, signal.SIGKILL)
        host.proc.wait(10)

    def stop(self) -> None:
        for host in self.hosts:
            if host.alive():
                os.killpg(host.proc.pid, signal.SIGTERM)
        for host in self.hosts:
            try:
                host.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(host.proc.pid, signal.SIGKILL)
                host.proc.wait(10)
        self._stack.close()

    # -- asking and waiting --

    def browser(self) -> httpx.Client:
        """A person signed in on the web process."""
        client = httpx.Client(base_url=self.web_url, timeout=60)
        page = client.get("/accounts/login/")
        fields = {"username": USERNAME, "password": self.password, "csrfmiddlewaretoken": ""}
        fields["csrfmiddlewaretoken"] = _csrf(page.text)
        signed_in = client.post("/accounts/login/", data=fields)
        if signed_in.status_code != 302:
            raise RuntimeError(f"could not sign in: {signed_in.status_code}")
        return client

    def ask(self, client: httpx.Client, ask: Ask) -> str:
        """Ask through the question form; the new run's id."""
        form = client.get("/")
        answer = client.post(
            "/new/", data={**ask.form("web"), "csrfmiddlewaretoken": _csrf(form.text)}
        )
        match = re.fullmatch(r"/runs/([^/]+)/", answer.headers.get("location", ""))
        if answer.status_code != 302 or not match:
            raise RuntimeError(f"the question form refused the run: {answer.status_code}")
        return match.group(1)

    def statuses(self, run_ids: list[str]) -> dict[str, tuple[str, str]]:
        import psycopg

        with psycopg.connect(self.env["DATABASE_URL"]) as conn:
            rows = conn.execute(
                "SELECT run_id, status, error FROM research_run WHERE run_id = ANY(%s)",
                (run_ids,),
            ).fetchall()
        return {run_id: (status, error) for run_id, status, error in rows}

    def wait_finished(self, run_ids: list[str], timeout: float) -> dict[str, tuple[str, str]]:
        def over() -> dict | None:
            found = self.statuses(run_ids)
            finished = all(found.get(r, ("",))[0] in ("done", "failed") for r in run_ids)
            return found if finished else None

        return wait_until(over, timeout, f"{len(run_ids)} runs to finish")


def _csrf(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    if not match:
        raise RuntimeError("the page has no CSRF token")
    return match.group(1)


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(10)


@contextmanager
def deployment(
    cluster: Cluster, source: str, workers: int, s3: bool = True, **worker_env: str
) -> Iterator[Deployment]:
    work = Path(tempfile.mkdtemp(prefix="verdict-hosts-"))
    deployed = Deployment(work, cluster, source, s3=s3)
    try:
        yield deployed.start(workers, **worker_env)
    finally:
        deployed.stop()
        shutil.rmtree(work, ignore_errors=True)


# --- the benchmark -------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    workers: int
    runs: int
    asked: float  # seconds to ask them all through the form
    finished: float  # seconds from the first asked to the last finished
    failed: int

    def line(self) -> str:
        plural = "s" if self.workers > 1 else " "
        return (
            f"  {self.workers} worker{plural}: {self.finished:6.1f} s "
            f"({self.finished / self.runs:4.1f} s a run; asked in {self.asked:4.1f} s)"
            + (f", {self.failed} FAILED" if self.failed else "")
        )


def time_runs(deployed: Deployment, runs: int, timeout: float = 1800.0) -> Timing:
    """Ask `runs` runs at once and time them to the last one finished."""
    client = deployed.browser()
    started = time.monotonic()
    ids = [deployed.ask(client, ASKS[n % len(ASKS)]) for n in range(runs)]
    asked = time.monotonic() - started
    found = deployed.wait_finished(ids, timeout)
    failed = sum(s == "failed" for s, _ in found.values())
    return Timing(len(deployed.workers), runs, asked, time.monotonic() - started, failed)


def main(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--shared-folder", action="store_true", help="RUNS_DIR, not S3")
    parser.add_argument(
        "--latency", type=float, default=0.3, help="seconds each search and page takes"
    )
    args = parser.parse_args(argv)
    web = LocalWeb().start()
    cluster = Cluster()
    cluster.start()
    try:
        source = serve_pages(web, delay=args.latency)
        store = "one shared folder" if args.shared_folder else "a bucket (moto)"
        print(
            f"{args.runs} runs asked through the web form, runs kept in {store}, each worker "
            f"a host of its own, {args.latency * 1000:.0f} ms a search or page:"
        )
        for count in args.workers:
            with deployment(cluster, source, count, s3=not args.shared_folder) as deployed:
                print(time_runs(deployed, args.runs).line(), flush=True)
    finally:
        cluster.stop()
        web.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
