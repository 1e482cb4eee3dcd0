"""Which stage messages wait in the broker (Redis), read the way kombu stores them, so a
recovery pass can tell a queued stage whose message is still there from one whose message
was lost."""

from __future__ import annotations

import base64
import json
import logging
import time
from typing import Any

import redis
from django.conf import settings

from research.celery import app

logger = logging.getLogger(__name__)

# kombu's Redis transport keeps one list per priority step: queue, queue\x06\x161, ...
_DEFAULT_STEPS = (0, 3, 6, 9)
_DEFAULT_SEP = "\x06\x16"


def waiting_messages(lease: float | None = None) -> set[tuple[str, str]] | None:
    """(stage, run id) of every stage message that is live in the broker: waiting in the
    queue, or taken by a worker within the last `lease` seconds (default STAGE_LEASE).
    None when the broker cannot be read.

    A message taken longer ago, whose stage is still queued, belongs to a dead worker:
    with acks_late and a prefetch of one, a live worker starts what it takes at once."""
    url = app.conf.broker_url or ""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    lease = settings.STAGE_LEASE if lease is None else lease
    queue = app.conf.task_default_queue
    try:
        client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        with client:
            raw = [m for key in queue_keys(queue) for m in client.lrange(key, 0, -1)]
            # Read after the queue, so a message taken meanwhile is seen here.
            tags = client.zrangebyscore("unacked_index", time.time() - lease, "+inf")
            taken = client.hmget("unacked", tags) if tags else []
    except redis.RedisError:
        logger.warning("could not read the task queue at %s", url, exc_info=True)
        return None
    messages = [_parsed(m) for m in raw] + [_parsed(t, taken=True) for t in taken if t]
    return {found for m in messages if m and (found := _stage_message(m)) is not None}


def queue_keys(queue: str) -> list[str]:
    """The Redis lists that hold `queue`'s messages, one per priority step, as kombu's
    Redis transport names them with the configured steps and separator."""
    options = app.conf.broker_transport_options or {}
    steps = sorted({int(step) for step in options.get("priority_steps") or _DEFAULT_STEPS})
    sep = options.get("sep", _DEFAULT_SEP)
    return [queue if not step else f"{queue}{sep}{step}" for step in steps]


def _parsed(raw: bytes, taken: bool = False) -> dict[str, Any] | None:
    try:
        message = json.loads(raw)
        return message[0] if taken else message  # taken: [message, exchange, routing key]
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def _stage_message(message: dict[str, Any]) -> tuple[str, str] | None:
    try:
        task = message["headers"]["task"]
        if not task.startswith("research."):
            return None
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return task.removeprefix("research."), str(args[0])
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None
