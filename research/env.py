"""Typed readers for settings that come from the environment.

Each helper fails loudly with ImproperlyConfigured, so a typo in a deployment's
environment stops the process at start-up instead of surfacing as odd behaviour later.
"""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote, urlsplit

from django.core.exceptions import ImproperlyConfigured


def load_env_file(path: Path) -> None:
    """Read KEY=VALUE lines from `path` into os.environ, never overriding what is set."""
    if not path.is_file():
        return
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ImproperlyConfigured(f"{path}:{number}: expected KEY=VALUE, got {line!r}")
        os.environ.setdefault(key.strip(), value.strip().strip("'\""))


def env_str(name: str, default: str = "") -> str:
    return os.getenv(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.getenv(name)
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), got {raw!r}")


def env_int(name: str, default: int, minimum: int | None = None) -> int:
    raw = os.getenv(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from exc
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def env_float(name: str, default: float, minimum: float | None = None) -> float:
    raw = os.getenv(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from exc
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def env_list(name: str, default: str = "") -> list[str]:
    raw = os.getenv(name, default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_networks(name: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    networks = []
    for item in env_list(name):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError as exc:
            raise ImproperlyConfigured(f"{name}: {item!r} is not a CIDR network") from exc
    return networks


def env_pairs(name: str) -> dict[str, str]:
    """Read `NAME=a=x,b=y` as {"a": "x", "b": "y"}. Keys are lower-case words, unique."""
    pairs: dict[str, str] = {}
    for item in env_list(name):
        key, sep, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or not value:
            raise ImproperlyConfigured(f"{name}: expected NAME=VALUE, got {item!r}")
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,39}", key):
            raise ImproperlyConfigured(
                f"{name}: {key!r} is not a usable name (letters, digits, - and _; at most 40)"
            )
        if key in pairs:
            raise ImproperlyConfigured(f"{name}: {key!r} is listed twice")
        pairs[key] = value
    return pairs


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    """One of a fixed set of words, case-insensitive."""
    raw = os.getenv(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {raw!r}")
    return value


def env_url(name: str, example: str) -> str:
    """An http(s) URL without its trailing slash, or "" when unset."""
    raw = os.getenv(name, "").strip()
    if not raw:
        return ""
    try:
        parts = urlsplit(raw)
        valid = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        valid = False
    if not valid:
        raise ImproperlyConfigured(f"{name} must be an http(s) URL such as {example}, got {raw!r}")
    return raw.rstrip("/")


def env_per_stage(list_name: str, prefix: str, stages: Mapping[str, str]) -> dict[str, str]:
    """Per-stage values from `LIST=stage=value,...` and from `<PREFIX><STAGE>` variables.

    `stages` maps every accepted spelling ("deep-read", "deepread") to the stage id. A
    `<PREFIX><STAGE ID>` variable (LLM_MODEL_FILTER) wins over the list, so one stage can be
    changed without rewriting the list.
    """
    values: dict[str, str] = {}
    for key, value in env_pairs(list_name).items():
        stage = stages.get(key)
        if stage is None:
            known = ", ".join(dict.fromkeys(stages.values()))
            raise ImproperlyConfigured(f"{list_name}: {key!r} is not a stage; use {known}")
        if stage in values:
            raise ImproperlyConfigured(f"{list_name}: {key!r} names a stage listed twice")
        values[stage] = value
    for stage in dict.fromkeys(stages.values()):
        value = os.getenv(prefix + stage.upper(), "").strip()
        if value:
            values[stage] = value
    return values


def stored_secret(path: Path) -> str:
    """The secret kept in `path`, made on first use and readable by the owner only.

    The file is written under a temporary name and linked into place, so two processes
    starting at once agree on one secret and neither ever reads a half-written file.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(secrets.token_urlsafe(50))
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another process made it first; use theirs
        finally:
            temporary.unlink()
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    secret = path.read_text(encoding="utf-8").strip()
    if len(secret) < 50:
        raise ImproperlyConfigured(f"{path} holds a secret shorter than 50 characters")
    return secret


def in_project(database: dict, base: Path) -> dict:
    """A SQLite database named by a relative path (`sqlite:///db.sqlite3`) is a file of the
    project at `base`, not of whatever folder the process was started in: an MCP client
    starts the server in `/`."""
    name = str(database.get("NAME") or "")
    sqlite = database.get("ENGINE", "").endswith("sqlite3")
    special = name.startswith((":", "file:"))  # :memory:, or a URI SQLite reads itself
    if sqlite and name and not special and not Path(name).expanduser().is_absolute():
        database["NAME"] = str((base / name).resolve())
    return database


def local_in_project(spec: str, base: Path) -> str:
    """`local:DIR` with a relative DIR, as a folder of the project at `base`."""
    kind, sep, folder = spec.partition(":")
    folder = folder.strip()
    if kind.strip().lower() != "local" or not sep or not folder:
        return spec
    if folder.startswith("~") or Path(folder).is_absolute():
        return spec
    return f"local:{(base / folder).resolve()}"


def database_url(database: dict) -> str:
    """The DATABASE_URL that names `database` (a DATABASES entry), for a child process
    that must open the same database: a worker started by a test or a benchmark."""
    if database["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{database['NAME']}"
    user = quote(str(database.get("USER") or ""), safe="")
    password = quote(str(database.get("PASSWORD") or ""), safe="")
    login = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    port = f":{database['PORT']}" if database.get("PORT") else ""
    return f"postgres://{login}{database.get('HOST') or ''}{port}/{database['NAME']}"
