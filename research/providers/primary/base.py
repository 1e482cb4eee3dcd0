"""What every primary provider shares: one deadline per lookup, typed failures, and
careful reading of answers whose shape the service may change or get wrong."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from research.outcomes import Outcome
from research.providers.http import Call
from research.providers.netguard import Resolver, resolve
from research.providers.primary.client import ApiAnswer, ApiClient
from research.providers.primary.dates import timestamp
from research.providers.primary.records import (
    Gap,
    PrimaryResult,
    RecordWriter,
    SourceKind,
    Subject,
)

DEFAULT_DEADLINE = 20.0


class ShapeError(ValueError):
    """An answer that parsed but is not what the service documents."""


class PrimaryProvider(Protocol):
    name: str  # as sources name it: "github", "pypi", ...
    label: str  # as people read it: "GitHub", "PyPI", ...
    source_kind: SourceKind

    def lookup(self, subject: Subject) -> PrimaryResult: ...

    def close(self) -> None: ...


class ApiProvider:
    """A provider over one or more ApiClients. Subclasses implement `_lookup`."""

    name = ""
    label = ""
    service = ""  # "the GitHub REST API": named in every record it writes
    source_kind: SourceKind = "registry"

    def __init__(
        self,
        client: ApiClient,
        *,
        deadline: float = DEFAULT_DEADLINE,
        resolver: Resolver = resolve,
    ) -> None:
        self.client = client
        self.deadline = deadline  # seconds for one lookup, every request and retry included
        self._resolver = resolver

    def lookup(self, subject: Subject) -> PrimaryResult:
        """Ask the service about `subject`. Never raises for what the service does: every
        answer ends in an outcome, with the reason when it is not OK."""
        with self._call() as call:
            try:
                return self._lookup(subject, call)
            except ShapeError as exc:
                detail = f"{self.label} answered in an unexpected shape: {exc}"
                return self.result(subject, Outcome.UNAVAILABLE, detail=detail)

    def _lookup(self, subject: Subject, call: Call) -> PrimaryResult:
        raise NotImplementedError

    @contextmanager
    def _call(self) -> Iterator[Call]:
        call = Call.within_seconds(self.deadline, self._resolver)
        with call.active():
            yield call

    def close(self) -> None:
        self.client.close()

    # --- building results ---------------------------------------------------------------

    def result(self, subject: Subject, outcome: Outcome, **parts: Any) -> PrimaryResult:
        return PrimaryResult(self.name, subject, outcome, **parts)

    def failed(self, subject: Subject, answer: ApiAnswer, what: str = "") -> PrimaryResult:
        """The result of a lookup whose main request did not find its record."""
        detail = answer.detail or f"{self.label} answered {answer.outcome}"
        if what and answer.outcome is Outcome.NO_HIT:
            detail = f"{self.label} has no {what}"
        return self.result(subject, answer.outcome, detail=detail)

    def writer(self, subject: Subject, answer: ApiAnswer, *, url: str, title: str) -> RecordWriter:
        return RecordWriter(
            provider=self.name,
            source_kind=self.source_kind,
            option=subject.option,
            url=url,
            title=title,
            retrieved_at=retrieved_at(answer),
            service=self.service,
        )


def retrieved_at(answer: ApiAnswer) -> str:
    """When the service gave the answer: the cache keeps that time, so a cached record
    says when it was really retrieved, not when it was read back."""
    return timestamp(answer.fetched_at or 0.0)


def gap(attribute: str, answer: ApiAnswer, what: str) -> Gap:
    if answer.outcome is Outcome.NO_HIT:
        return Gap(attribute, Outcome.NO_HIT, f"{what}: none found")
    return Gap(attribute, answer.outcome, f"{what}: could not look ({answer.detail})")


# --- reading answers defensively -----------------------------------------------------


def require_dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ShapeError(f"{what} is not a JSON object")
    return value


def obj(value: Any, *keys: str) -> dict[str, Any]:
    """value[k1][k2]... when every step is an object, else {}."""
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def items(value: Any, key: str) -> list[Any]:
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, list) else []


def text(value: Any, key: str) -> str:
    found = value.get(key) if isinstance(value, dict) else None
    return found.strip() if isinstance(found, str) else ""


def number(value: Any, key: str) -> int | None:
    found = value.get(key) if isinstance(value, dict) else None
    if isinstance(found, bool) or not isinstance(found, int | float):
        return None
    return int(found)


def flag(value: Any, key: str) -> bool | None:
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, bool) else None
