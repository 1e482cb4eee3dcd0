"""Typed settings helpers: name=value lists and the secret key kept in a file."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from research.env import env_pairs, stored_secret


def test_pairs_are_read_in_order_with_lower_case_names(monkeypatch):
    monkeypatch.setenv(
        "SOURCES", " Notes = local:/srv/notes , web=searxng:http://127.0.0.1:8888/?q=a,ddg=ddgs"
    )
    assert env_pairs("SOURCES") == {
        "notes": "local:/srv/notes",
        "web": "searxng:http://127.0.0.1:8888/?q=a",
        "ddg": "ddgs",
    }


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("notes", "expected NAME=VALUE, got 'notes'"),
        ("notes=", "expected NAME=VALUE, got 'notes='"),
        ("my notes=ddgs", "'my notes' is not a usable name"),
        ("a=ddgs,A=ddgs", "'a' is listed twice"),
    ],
)
def test_malformed_pairs_stop_the_start_up_with_the_variable_named(monkeypatch, raw, message):
    monkeypatch.setenv("SOURCES", raw)
    with pytest.raises(ImproperlyConfigured, match=f"^SOURCES: {message}"):
        env_pairs("SOURCES")


def test_a_secret_is_made_once_and_only_its_owner_can_read_it(tmp_path: Path):
    path = tmp_path / "var" / "secret_key"
    first = stored_secret(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(first) >= 50
    assert stored_secret(path) == first
    assert [p.name for p in path.parent.iterdir()] == ["secret_key"], "no temporary file left"


def test_a_secret_file_others_could_read_is_made_private(tmp_path: Path):
    path = tmp_path / "secret_key"
    path.write_text("k" * 60, encoding="utf-8")
    path.chmod(0o644)
    assert stored_secret(path) == "k" * 60
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_secret_too_short_to_be_safe_is_refused(tmp_path: Path):
    path = tmp_path / "secret_key"
    path.write_text("short", encoding="utf-8")
    with pytest.raises(ImproperlyConfigured, match="shorter than 50 characters"):
        stored_secret(path)


def test_processes_starting_at_once_agree_on_one_secret(tmp_path: Path):
    path = tmp_path / "var" / "secret_key"
    secrets: list[str] = []
    barrier = threading.Barrier(8)

    def start() -> None:
        barrier.wait()
        secrets.append(stored_secret(path))

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert len(secrets) == 8 and len(set(secrets)) == 1
    assert os.listdir(path.parent) == ["secret_key"]
