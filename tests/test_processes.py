"""The test processes (tests/processes.py, tools/fakes/redis_server.py): each test's Redis is
its own, and a port where nothing listens stays so, even when tests run in parallel and
pick ports at the same time."""

from __future__ import annotations

import errno
import socket

import pytest
import redis

from tests import processes
from tools.fakes import redis_server


def test_a_redis_whose_port_was_taken_meanwhile_starts_on_another(tmp_path, monkeypatch):
    (tmp_path / "other").mkdir()
    (tmp_path / "mine").mkdir()
    other, other_url = redis_server.start_redis(tmp_path / "other")
    taken = redis.Redis.from_url(other_url).connection_pool.connection_kwargs["port"]
    ports = iter([taken, processes.free_port()])
    monkeypatch.setattr(redis_server, "_free_port", lambda: next(ports))
    try:
        mine, url = redis_server.start_redis(tmp_path / "mine")
        try:
            assert url != other_url
            assert redis.Redis.from_url(url).info("server")["process_id"] == mine.pid
        finally:
            mine.terminate()
            mine.wait(10)
    finally:
        other.terminate()
        other.wait(10)


def test_a_refused_port_refuses_connections_and_no_server_can_take_it():
    port = processes.refused_port()
    with socket.socket() as client:
        assert client.connect_ex(("127.0.0.1", port)) == errno.ECONNREFUSED
    with socket.socket() as server, pytest.raises(OSError) as taken:
        server.bind(("127.0.0.1", port))
    assert taken.value.errno == errno.EADDRINUSE
