from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from research.providers.primary import PrimaryProvider, build_primary
from tests.research.providers.primary.fakeservices import FakeServices
from tests.research.providers.primary.world import NOW_EPOCH


@pytest.fixture(autouse=True)
def primary_cache(tmp_path: Path, settings) -> Path:
    """Every test keeps its cached answers in a folder of its own, never in ./var."""
    path = tmp_path / "primary-cache"
    settings.PRIMARY_CACHE_DIR = path
    settings.GITHUB_TOKEN = ""
    return path


@pytest.fixture
def services(settings) -> Iterator[FakeServices]:
    fake = FakeServices().start()
    settings.PRIMARY_URLS = fake.urls()
    settings.PRIMARY_TIMEOUT = 5.0
    settings.PRIMARY_DEADLINE = 5.0
    yield fake
    fake.stop()


@pytest.fixture
def waits() -> list[float]:
    """The pauses providers took between tries (recorded instead of slept)."""
    return []


@pytest.fixture
def primary(services: FakeServices, waits: list[float]) -> Iterator[Callable[..., PrimaryProvider]]:
    """A provider by name, configured from the settings against the local services, on
    the services' clock, with its waits recorded instead of slept."""
    built: list[PrimaryProvider] = []

    def make(name: str, clock: Callable[[], float] = lambda: NOW_EPOCH) -> PrimaryProvider:
        provider = build_primary(name, sleep=waits.append, clock=clock, pace=0)
        built.append(provider)
        return provider

    yield make
    for provider in built:
        provider.close()
