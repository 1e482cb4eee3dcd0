"""Run events over Redis pub/sub: a worker says a run's stage changed, MCP servers hear it.

The worker runs stages in other processes (on other machines, past one): the MCP server
learns that a stage finished only through Redis, the broker both already share. Each
change is one message on the run's channel, `verdict:runs:<run_id>`.

research.runs.manifest publishes every stage status it records (queued, running, done,
failed ...) and the end of the run. Publishing never gets in a stage's way: with Redis
down, the event is dropped and the publisher leaves that Redis alone for a few seconds.
Events are level triggers ("this run changed, read it again"), so a dropped one costs a
client a refresh, never a wrong answer: what a client reads comes from the run's files
and rows.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from functools import cache
from typing import TYPE_CHECKING

import anyio
import redis
from anyio.abc import TaskStatus
from django.conf import settings

if TYPE_CHECKING:
    import redis.asyncio

logger = logging.getLogger(__name__)

CHANNEL_PREFIX = "verdict:runs:"
RETRY_AFTER = 10.0  # seconds before a publisher or a listener tries an unreachable Redis again
CONNECT_TIMEOUT = 2.0


@dataclass(frozen=True)
class RunEvent:
    """A run changed: `stage` took `status` (queued, running, done, failed ...), or with no
    stage, the run itself did (finished)."""

    run_id: str
    stage: str | None
    status: str

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, data: bytes | str) -> RunEvent | None:
        """The event a message carries; None for anything else on the channels."""
        try:
            fields = json.loads(data)
            return cls(str(fields["run_id"]), fields.get("stage"), str(fields["status"]))
        except (ValueError, TypeError, KeyError):
            return None


def channel(run_id: str) -> str:
    return f"{CHANNEL_PREFIX}{run_id}"


# --- publishing (worker side, synchronous) ------------------------------------------------

_unreachable_until: dict[str, float] = {}
_lock = threading.Lock()


@cache
def _client(url: str) -> redis.Redis:
    # redis-py's pool notices a fork and reconnects, so a prefork worker may share it.
    return redis.Redis.from_url(
        url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=CONNECT_TIMEOUT
    )


def publish(run_id: str, stage: str | None, status: str) -> None:
    """Tell every MCP server that `run_id` changed. Never raises."""
    url = settings.REDIS_URL
    with _lock:
        if time.monotonic() < _unreachable_until.get(url, 0.0):
            return
    try:
        _client(url).publish(channel(run_id), RunEvent(run_id, stage, status).to_json())
    except (redis.RedisError, OSError) as exc:
        with _lock:
            _unreachable_until[url] = time.monotonic() + RETRY_AFTER
        # Debug only: the command line runs stages without any Redis, and a worker whose
        # Redis is down has Celery saying so loudly already.
        logger.debug("run %s: the %s event was not published (Redis: %s)", run_id, status, exc)


# --- listening (MCP server side, async) ---------------------------------------------------

OnEvent = Callable[[RunEvent], Awaitable[None]]


async def listen(
    url: str, on_event: OnEvent, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED
) -> None:
    """Hand every run event to `on_event` until cancelled, reconnecting after RETRY_AFTER
    seconds whenever Redis cannot be reached.

    Reports itself started once Redis confirmed the subscription, so an event published
    after that is never missed, or once the first attempt failed, so a server never waits
    for a Redis that is not there.
    """
    import redis.asyncio  # only a listener needs the asyncio client

    started = warned = False
    while True:
        try:
            async with (
                redis.asyncio.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT) as client,
                client.pubsub() as pubsub,
            ):
                await pubsub.psubscribe(f"{CHANNEL_PREFIX}*")
                await _confirmed(pubsub)
                if not started:
                    started = True
                    task_status.started()
                warned = False
                async for message in pubsub.listen():
                    await _deliver(message, on_event)
        except (redis.RedisError, OSError) as exc:
            # Once per outage: a server without Redis still serves, only without updates.
            log = logger.debug if warned else logger.warning
            log("not hearing run events from Redis (%s); trying every %g s", exc, RETRY_AFTER)
            warned = True
        if not started:
            started = True
            task_status.started()
        await anyio.sleep(RETRY_AFTER)


async def _confirmed(pubsub: redis.asyncio.client.PubSub) -> None:
    with anyio.fail_after(CONNECT_TIMEOUT):
        while True:
            message = await pubsub.get_message(timeout=CONNECT_TIMEOUT)
            if message is not None and message["type"] == "psubscribe":
                return


async def _deliver(message: dict, on_event: OnEvent) -> None:
    if message["type"] != "pmessage":
        return
    event = RunEvent.from_json(message["data"])
    if event is None:
        return
    try:
        await on_event(event)
    except Exception:  # one bad delivery must not stop the server hearing later events
        logger.exception("run event %s could not be delivered", event)
