"""The test processes of tests/processes.py: each test's Redis is its own, even when the
suite runs in parallel and another test takes the port it picked."""

from __future__ import annotations

import redis

from tests import processes


def test_a_redis_whose_port_was_taken_meanwhile_starts_on_another(tmp_path, monkeypatch):
    (tmp_path / "other").mkdir()
    (tmp_path / "mine").mkdir()
    other, other_url = processes._start_redis(tmp_path / "other")
    taken = redis.Redis.from_url(other_url).connection_pool.connection_kwargs["port"]
    ports = iter([taken, processes.free_port()])
    monkeypatch.setattr(processes, "free_port", lambda: next(ports))
    try:
        mine, url = processes._start_redis(tmp_path / "mine")
        try:
            assert url != other_url
            assert redis.Redis.from_url(url).info("server")["process_id"] == mine.pid
        finally:
            mine.terminate()
            mine.wait(10)
    finally:
        other.terminate()
        other.wait(10)
