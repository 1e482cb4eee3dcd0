from __future__ import annotations

from pathlib import Path

import hypothesis
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

pytest_plugins = ["tests.testweb", "tests.processes", "tests.postgres", "tests.objectstore"]

PASSWORD = "correct horse battery"  # the password of every account the fixtures make


def pytest_configure(config) -> None:
    """The Chinese pages need the compiled translations: `make test` builds them, and so does
    a plain `pytest` (a .mo newer than its .po is left alone)."""
    from research.i18n.build import compile_catalogs

    compile_catalogs()
    # Hypothesis fails an example slower than 200 ms, and examples drawn slowly, by default:
    # that measures how busy the machine is (tests run in parallel), not what the code does.
    hypothesis.settings.register_profile(
        "verdict", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow]
    )
    hypothesis.settings.load_profile("verdict")


@pytest.fixture(autouse=True)
def runs_dir(tmp_path: Path, settings) -> Path:
    """Every test writes its runs into its own folder, never into ./runs."""
    path = tmp_path / "runs"
    path.mkdir()
    settings.RUNS_DIR = path
    settings.RETRY_BASE_DELAY = 0.0
    settings.LOCAL_INDEX_DIR = tmp_path / "index"  # corpora's search indexes, never ./var
    return path


@pytest.fixture(autouse=True)
def own_var_dir(tmp_path: Path, settings) -> Path:
    """Every test keeps its server state (uploaded documents, caches, the operator's MCP
    sources file) in its own folder, never in ./var: what someone did with `make run` on
    this machine must not change what a test sees. Tests that need a `var` folder of their
    own still set VAR_DIR themselves."""
    path = tmp_path / "test-var"
    path.mkdir()
    settings.VAR_DIR = path
    settings.PRIMARY_CACHE_DIR = path / "primary-cache"
    settings.MCP_SOURCES_FILE = path / "mcp_sources.json"
    return path


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, settings) -> None:
    """The file cache (the sign-in throttle's counters) in the test's own folder, never in
    ./var where tests running in parallel would add up each other's failed sign-ins."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    }


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A request in Chinese leaves its language active in the thread (LocaleMiddleware
    activates, nothing deactivates between tests): each test starts in the default."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def worker_running(monkeypatch):
    """Starting a run, and the page of a queued run, ask whether a Celery worker is there;
    most tests are not about that, and a ping would cost them a second."""
    from research.runs import workers

    monkeypatch.setattr(workers, "worker_problem", lambda: None)


@pytest.fixture
def fast_passwords(settings) -> None:
    """A fast hash for the accounts tests make; how passwords are hashed is Django's."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ada(db, fast_passwords):
    return get_user_model().objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def bob(db, fast_passwords):
    return get_user_model().objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def ada_client(ada) -> Client:
    """A browser signed in as ada."""
    client = Client()
    client.force_login(ada)
    return client


@pytest.fixture
def bob_client(bob) -> Client:
    client = Client()
    client.force_login(bob)
    return client
