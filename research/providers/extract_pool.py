"""Page extraction in processes of their own, on the cores the run's own process leaves idle.

A run's pages come in together, and turning each into its main text (research.providers.
extract) is pure CPU work under the GIL, as is reading those texts for key points. With
EXTRACT_PROCESSES > 0 a page's body is extracted in one of that many processes while the
run's process reads the pages already extracted, so the two use two cores instead of
taking turns on one. Extraction is a function of the body alone, so what a page gives does
not depend on where it was extracted.

Each process (research.providers.extract_worker) is started from a fresh interpreter,
never forked from a process running threads; it imports the extraction code and pays its
one-off costs once, then answers requests on a pipe until that pipe closes, which it does
when the process that started it ends, however it ends: no process outlives its run's.
They start with the first page, or ahead of it with `start()` (the command line and each
worker process do so while their first stages wait on the network). A page whose process
died, or whose extraction raised there, is extracted again here; the next page starts a
new process. A process forked from one holding extraction processes starts its own.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from multiprocessing.connection import Connection

from django.conf import settings

from research.providers.extract import ExtractedPage, extract_page

log = logging.getLogger(__name__)


class ExtractorGone(Exception):
    """The extraction process ended before it answered."""


class _Process:
    """One extraction process, and the pages sent to it that it has not answered yet."""

    def __init__(self) -> None:
        self.child = subprocess.Popen(
            [sys.executable, "-m", "research.providers.extract_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,  # its warnings where this process's go
            close_fds=True,
        )
        if self.child.stdin is None or self.child.stdout is None:  # pragma: no cover - PIPE given
            raise OSError("no pipe to the extraction process")
        self.requests = Connection(os.dup(self.child.stdin.fileno()), readable=False)
        self.answers = Connection(os.dup(self.child.stdout.fileno()), writable=False)
        self.child.stdin.close()
        self.child.stdout.close()
        self.pending: dict[int, Future[ExtractedPage]] = {}
        self.lock = threading.Lock()  # for `pending` and `alive`, never held while waiting
        self.sending = threading.Lock()
        self.alive = True
        self.stopping = False
        threading.Thread(target=self._read, name="extract-answers", daemon=True).start()

    def submit(self, ident: int, request: tuple) -> Future[ExtractedPage]:
        future: Future[ExtractedPage] = Future()
        with self.lock:
            if not self.alive:
                raise ExtractorGone("the extraction process has ended")
            self.pending[ident] = future
        # Sent outside `lock`: a send waits while the process's input is full, and the
        # process waits for its answers to be read, which takes `lock` to hand them over.
        try:
            with self.sending:
                self.requests.send((ident, *request))
        except OSError as exc:
            with self.lock:
                self.pending.pop(ident, None)
            raise ExtractorGone(str(exc)) from exc
        return future

    def _read(self) -> None:
        while True:
            try:
                ident, page, *problem = self.answers.recv()
            except (EOFError, OSError):
                break
            with self.lock:
                future = self.pending.pop(ident, None)
            if future is None:
                continue
            if page is None:
                future.set_exception(ExtractorGone(problem[0] if problem else "no answer"))
            else:
                future.set_result(page)
        with self.lock:
            unasked = not self.stopping
        if unasked:
            _lost(self)  # before it is seen dead, so no new process starts at once
        with self.lock:
            self.alive = False
            pending, self.pending = self.pending, {}
        for future in pending.values():
            future.set_exception(ExtractorGone("the extraction process ended"))

    def stop(self) -> None:
        with self.lock:
            self.alive = False
            self.stopping = True
        with self.sending:
            self.requests.close()  # the process's input ends: it exits
        try:
            self.child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.child.kill()
            self.child.wait()
        self.answers.close()

    def forget(self) -> None:
        """In a forked child: close this copy of the pipes, so the process still sees its
        input end when the parent does."""
        for connection in (self.requests, self.answers):
            with contextlib.suppress(OSError):
                connection.close()


_lock = threading.Lock()
_processes: list[_Process] = []
_ids = itertools.count()
# After an extraction process ends unasked, none is started for this long: a process that
# cannot start (a broken install) must not cost every page a start and a wait.
RESTART_PAUSE = 30.0
_paused_until = 0.0


def extract(body: bytes, content_type: str, url: str, max_chars: int) -> ExtractedPage:
    """extract_page, in an extraction process when there are any, else here."""
    process = _least_busy()
    if process is not None:
        try:
            return process.submit(next(_ids), (body, content_type, url, max_chars)).result()
        except ExtractorGone as exc:
            log.info("extracting %s here: %s", url, exc)
    return extract_page(body, content_type, url, max_chars)


def start() -> None:
    """Start the extraction processes now, if there are to be any."""
    _least_busy()


def stop() -> None:
    """End the extraction processes (a later page starts new ones)."""
    with _lock:
        processes = list(_processes)
        _processes.clear()
    for process in processes:
        process.stop()


def _least_busy() -> _Process | None:
    wanted = settings.EXTRACT_PROCESSES
    if wanted <= 0:
        return None
    with _lock:
        _processes[:] = [p for p in _processes if p.alive]
        while len(_processes) < wanted and time.monotonic() >= _paused_until:
            try:
                _processes.append(_Process())
            except OSError as exc:
                log.warning("no extraction process (%s): pages are extracted here", exc)
                break
        if not _processes:
            return None
        return min(_processes, key=lambda p: len(p.pending))


def _lost(process: _Process) -> None:
    global _paused_until
    log.warning(
        "an extraction process ended (exit %s); pages are extracted here for %.0f s",
        process.child.poll(),
        RESTART_PAUSE,
    )
    with _lock:
        _paused_until = time.monotonic() + RESTART_PAUSE


def _forget_in_child() -> None:
    global _lock
    _lock = threading.Lock()
    for process in _processes:
        process.forget()
    _processes.clear()


os.register_at_fork(after_in_child=_forget_in_child)
