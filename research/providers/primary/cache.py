"""A short on-disk cache of registry answers, so a question asked twice in an afternoon
asks each service once (and stays well inside the rate limits of services that ask
clients to cache, as arXiv and Wikimedia do).

Entries are keyed by the request (service, URL with its parameters sorted, and what was
accepted), never by the credentials it carried: a token is never written to disk. Only
answers the provider could read are stored, so a malformed answer is asked again next time.
Each entry is written atomically (a temporary file, then os.replace).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CachedAnswer:
    status: int
    body: bytes
    stored_at: float  # epoch seconds: when the service gave this answer


def request_key(service: str, url: str, accept: str = "") -> str:
    parts = urlsplit(url)
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    canonical = urlunsplit((parts.scheme, parts.netloc.lower(), parts.path, query, ""))
    return hashlib.sha256(f"{service}\n{canonical}\n{accept}".encode()).hexdigest()


class ResponseCache:
    def __init__(self, folder: Path, ttl: float, clock: Callable[[], float] = time.time) -> None:
        self.folder = Path(folder)
        self.ttl = ttl  # seconds; 0 turns the cache off
        self.clock = clock

    def _path(self, service: str, key: str) -> Path:
        return self.folder / service / key[:2] / f"{key}.json"

    def get(self, service: str, url: str, accept: str = "") -> CachedAnswer | None:
        """The stored answer to this request while it is younger than the TTL."""
        if self.ttl <= 0:
            return None
        path = self._path(service, request_key(service, url, accept))
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            answer = CachedAnswer(
                int(entry["status"]), entry["body"].encode("utf-8"), float(entry["stored_at"])
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.info("primary cache: ignoring unreadable entry %s: %s", path, exc)
            return None
        age = self.clock() - answer.stored_at
        return answer if 0 <= age < self.ttl else None

    def put(
        self, service: str, url: str, status: int, body: bytes, stored_at: float, accept: str = ""
    ) -> None:
        """Store an answer. A body that is not UTF-8, or a disk that refuses, is skipped:
        the cache only ever saves a request, it never fails one."""
        if self.ttl <= 0:
            return
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return
        path = self._path(service, request_key(service, url, accept))
        entry = {"url": url, "status": status, "stored_at": stored_at, "body": text}
        temporary = ""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            descriptor, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(entry, handle, ensure_ascii=False)
            os.replace(temporary, path)
        except OSError as exc:
            log.info("primary cache: could not store %s: %s", url, exc)
            if temporary:
                Path(temporary).unlink(missing_ok=True)
