"""Pages extracted in extraction processes read exactly as pages extracted in the run's own
process, and no extraction process outlives the process that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor, wait
from multiprocessing import Pipe
from pathlib import Path

import pytest

from research.providers import extract_pool
from research.providers.extract import extract_page
from research.providers.extract_worker import serve
from tests.processes import wait_until
from tests.research.providers.test_extract import ARTICLE, CHINESE, make_pdf

ROOT = Path(__file__).resolve().parents[3]
PAGES = [
    (ARTICLE.encode(), "text/html; charset=utf-8", "https://dbweekly.example/a"),
    (CHINESE.format(meta='charset="gb2312"').encode("gb18030"), "text/html", "https://x.cn/p"),
    (make_pdf(["Licence: MIT.", "Releases every month."], "A PDF"), "application/pdf", "u"),
    (b"# Notes\n\nPlain words.", "text/markdown", "https://notes.example/n.md"),
    (b"<html><body></body></html>", "text/html", "https://empty.example/"),
]


@pytest.fixture
def processes(settings, monkeypatch):
    settings.EXTRACT_PROCESSES = 2
    monkeypatch.setattr(extract_pool, "_paused_until", 0.0)
    yield
    extract_pool.stop()


def children() -> list[subprocess.Popen]:
    return [p.child for p in extract_pool._processes]


def test_a_page_extracted_in_a_process_reads_as_one_extracted_here(processes):
    with ThreadPoolExecutor(8) as pool:
        pooled = list(pool.map(lambda page: extract_pool.extract(*page, 12_000), PAGES * 4))
    assert pooled == [extract_page(*page, 12_000) for page in PAGES * 4]
    assert len(children()) == 2 and all(c.poll() is None for c in children())
    assert "数据库选型" in pooled[1].title  # GB2312 decoded there as here


def test_many_large_pages_at_once_neither_wait_on_each_other_nor_on_their_answers(processes):
    # Requests and answers each far larger than a pipe holds, from many threads at once.
    paragraph = "<p>" + "PostgreSQL ships a major release every year. " * 40 + "</p>"
    big = f"<html><body><article>{paragraph * 150}</article></body></html>".encode()
    with ThreadPoolExecutor(16) as pool:
        futures = [
            pool.submit(extract_pool.extract, big, "text/html", f"https://a.example/{n}", 10**6)
            for n in range(32)
        ]
        done, waiting = wait(futures, timeout=120)
    assert not waiting
    assert {len(f.result().text) for f in done} == {
        len(extract_page(big, "text/html", "u", 10**6).text)
    }


def test_with_no_extraction_processes_pages_are_extracted_here(settings):
    settings.EXTRACT_PROCESSES = 0
    assert extract_pool.extract(*PAGES[0], 12_000) == extract_page(*PAGES[0], 12_000)
    assert extract_pool._processes == []


def test_a_page_whose_process_dies_is_extracted_here_and_no_process_starts_for_a_while(
    processes, monkeypatch, caplog
):
    extract_pool.start()
    child = children()[0]
    wait_until(lambda: child.poll() is None, 30, what="the extraction process to start")
    for c in children():
        c.send_signal(signal.SIGKILL)
    wait_until(
        lambda: all(not p.alive for p in extract_pool._processes), 30, what="the deaths seen"
    )
    assert extract_pool.extract(*PAGES[0], 12_000) == extract_page(*PAGES[0], 12_000)
    assert extract_pool._processes == []  # paused: no process started for this page
    assert "an extraction process ended" in caplog.text
    monkeypatch.setattr(extract_pool, "_paused_until", time.monotonic() - 1)
    assert extract_pool.extract(*PAGES[0], 12_000) == extract_page(*PAGES[0], 12_000)
    assert len(children()) == 2  # after the pause, new ones


def test_a_stopped_process_is_not_taken_for_a_dead_one(processes, caplog):
    extract_pool.start()
    extract_pool.stop()
    assert extract_pool._paused_until < time.monotonic()
    assert "an extraction process ended" not in caplog.text


def test_the_extraction_process_answers_in_order_and_says_when_a_page_raises():
    requests_out, requests_in = Pipe(duplex=False)
    answers_out, answers_in = Pipe(duplex=False)
    requests_in.send((1, *PAGES[0], 12_000))
    requests_in.send((2, PAGES[0][0], "text/html", None, "not a number"))
    requests_in.close()
    serve(requests_out, answers_in)
    first, second = answers_out.recv(), answers_out.recv()
    assert first == (1, extract_page(*PAGES[0], 12_000))
    assert second[:2] == (2, None) and "Error" in second[2]


SCRIPT = textwrap.dedent(
    """
    import os, sys
    import django
    os.environ["EXTRACT_PROCESSES"] = "2"
    django.setup()
    from research.providers import extract_pool
    extract_pool.start()
    print(" ".join(str(p.child.pid) for p in extract_pool._processes), flush=True)
    if sys.argv[1] == "fork":
        pid = os.fork()
        if pid == 0:  # the child has none of its parent's processes, and starts its own
            extract_pool.start()
            print(" ".join(str(p.child.pid) for p in extract_pool._processes), flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
    sys.stdin.read()  # until the test ends this process
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has ended
        return stat.read().split(") ", 1)[1][0] != "Z"


def _script(mode: str) -> subprocess.Popen:
    """SCRIPT in a process of its own: it prints its extraction processes' pids."""
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT, mode],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "research.settings"},
    )


@pytest.mark.parametrize("ending", ["SIGKILL", "exit"])
def test_no_extraction_process_outlives_the_process_that_started_it(ending):
    parent = _script("plain")
    pids = [int(p) for p in parent.stdout.readline().split()]
    assert len(pids) == 2 and all(_alive(p) for p in pids)
    if ending == "SIGKILL":
        parent.kill()
    else:
        parent.stdin.close()
    parent.wait(timeout=30)
    wait_until(lambda: not any(_alive(p) for p in pids), 30, what="the extraction processes to end")


def test_a_forked_process_starts_extraction_processes_of_its_own():
    parent = _script("fork")
    try:
        mine = set(parent.stdout.readline().split())
        the_child_s = set(parent.stdout.readline().split())
        assert len(the_child_s) == 2 and not mine & the_child_s
    finally:
        parent.stdin.close()
        parent.wait(timeout=30)
