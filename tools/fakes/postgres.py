"""A throwaway PostgreSQL cluster: initdb in a temporary folder, a server on a free port of
127.0.0.1 trusting one superuser, no Unix socket, gone when stopped. For the tests
(tests/postgres.py) and the multi-host benchmark (tools/bench/hosts.py).

It needs PostgreSQL's server programs: on the PATH, or where Debian's `postgresql` package
puts them (/usr/lib/postgresql/<version>/bin). As root (CI) the server runs as the
`postgres` account that package creates, since PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


class Unavailable(RuntimeError):
    """No PostgreSQL here, or it would not start: the message says why."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_programs() -> Path | None:
    """The folder that holds initdb and pg_ctl: on the PATH, or Debian's newest version."""
    found = shutil.which("initdb")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name),
    )
    return Path(versions[-1]).parent if versions else None


USER = "verdict"
# PostgreSQL refuses to run as root; CI runs as root, so the cluster belongs to this account
# (Debian's package creates it).
SERVICE_ACCOUNT = "postgres"
# Durability is no concern for a cluster thrown away at the end: do without the fsyncs.
FAST = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]


class Cluster:
    """A cluster of its own: its folder, its port, one superuser `verdict` trusted on
    127.0.0.1, no Unix socket."""

    def __init__(self, bin_dir: Path | None = None) -> None:
        bin_dir = bin_dir or server_programs()
        if bin_dir is None:
            raise Unavailable(
                "no initdb found (install PostgreSQL's server: apt-get install postgresql)"
            )
        self.bin = bin_dir
        # Not under pytest's temporary folders: those are private to root, and the server
        # may run as another account that must reach its folder.
        self.root = Path(tempfile.mkdtemp(prefix="verdict-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.as_account: list[str] = []
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam(SERVICE_ACCOUNT)
            except KeyError:
                raise Unavailable(
                    f"running as root and there is no {SERVICE_ACCOUNT!r} account to run "
                    "PostgreSQL as"
                ) from None
            os.chown(self.root, account.pw_uid, account.pw_gid)
            self.as_account = ["runuser", "-u", SERVICE_ACCOUNT, "--"]

    @property
    def url(self) -> str:
        return f"postgres://{USER}@127.0.0.1:{self.port}/postgres"

    def url_of(self, database: str) -> str:
        return f"postgres://{USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str) -> None:
        done = subprocess.run(
            [*self.as_account, *argv], capture_output=True, text=True, cwd=self.root
        )
        if done.returncode:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise Unavailable(f"{argv[0]} failed: {done.stdout}{done.stderr}{log}")

    def start(self) -> str:
        self._run(
            str(self.bin / "initdb"),
            "-D", str(self.data),
            "-U", USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )  # fmt: skip
        options = ["-c", "listen_addresses=127.0.0.1", "-p", str(self.port)]
        options += ["-c", "unix_socket_directories=", "-c", "max_connections=200", *FAST]
        self._run(
            str(self.bin / "pg_ctl"),
            "start", "-w", "-t", "60",
            "-D", str(self.data),
            "-l", str(self.log),
            "-o", " ".join(options),
        )  # fmt: skip
        return self.url

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url_of(name)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            stop = [str(self.bin / "pg_ctl"), "stop", "-m", "immediate", "-D", str(self.data)]
            subprocess.run([*self.as_account, *stop], capture_output=True, cwd=self.root)
        shutil.rmtree(self.root, ignore_errors=True)
