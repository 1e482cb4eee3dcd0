"""Pytest fixtures around the local web (tools.fakes.localweb): nothing leaves 127.0.0.x."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

import pytest

from tools.fakes.localweb import LocalWeb, Route


class TestWeb(LocalWeb):
    __test__ = False  # a server, not a test class


__all__ = ["Route", "TestWeb"]


@pytest.fixture
def testweb() -> Iterator[TestWeb]:
    web = TestWeb().start()
    yield web
    web.stop()


@pytest.fixture
def allow_loopback(settings) -> None:
    """The test web lives on 127.0.0.1, which the fetcher refuses unless allowed."""
    settings.FETCH_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]
