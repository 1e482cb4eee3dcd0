"""A run's lock when runs are kept in a bucket: a lease in Redis, fenced.

A kernel lock needs a shared folder; a lease needs only the broker's Redis. Taking the
lease gives a fencing token, one more than any before it on that run (INCR), and sets the
lease key to it with a time to live. While the lease is held, a heartbeat thread renews the
time to live; a killed holder stops renewing, and the lease lapses after STAGE_LEASE
seconds. A holder that was only slow (a long pause, a lost network) may still believe it
holds the run after a later worker took it: every write it makes carries its token, and
the store refuses it once a higher token exists (research.store.s3).

The parts of a stage that several workers read at once hold the run's lease *shared*: the
first of them opens a generation (one more token, as an exclusive holder would get) and the
others join it with the same token, while an exclusive holder (a whole stage, a recovery
pass) is kept out until the last shared holder lets go or lapses. Each part also has a lease
of its own, so no two workers read one part. A shared holder that lapsed is fenced like an
exclusive one: the next holder's token is higher.

The manifest's read-modify-writes, and the log's appends, are done under a short mutex in
the same Redis, so two writers never lose each other's updates.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Iterator

import redis

from research.store.errors import LeaseLost, RunLocked, StoreUnavailable

# The shared holders are a sorted set of (holder, expiry in Redis's own milliseconds); the
# ones past their expiry are dropped before anyone counts them.
_NOW = """
pcall(redis.replicate_commands)
local clock = redis.call('time')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
"""
# Take the lease if nobody holds it, shared or not: the next token, with a time to live.
_ACQUIRE = (
    _NOW
    + """
redis.call('zremrangebyscore', KEYS[3], '-inf', now)
if redis.call('exists', KEYS[1]) == 1 or redis.call('zcard', KEYS[3]) > 0 then return 0 end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], token, 'px', ARGV[1])
return token
"""
)
# A held lease's token raised above `floor`: after Redis lost its counters (a restart
# without persistence), the next token must still be above the one the manifest records.
_RAISE = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(redis.call('get', KEYS[2]) or '0') < tonumber(ARGV[2]) then
  redis.call('set', KEYS[2], ARGV[2])
end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], token, 'px', ARGV[3])
return token
"""
# Renew only the lease this holder still has; one that lapsed while nobody else took the
# run (its token is still the latest) is taken back.
_RENEW = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not holder and redis.call('get', KEYS[2]) == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
  return 1
end
return 0
"""
# Release only the lease this holder still has.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
# Hold the lease shared, unless an exclusive holder has it: the first shared holder opens a
# generation with the next token (raised above ARGV[3], the manifest's, first), the others
# join it.
_ACQUIRE_SHARED = (
    _NOW
    + """
if redis.call('exists', KEYS[1]) == 1 then return 0 end
redis.call('zremrangebyscore', KEYS[3], '-inf', now)
local token = tonumber(redis.call('get', KEYS[4]) or '0')
if redis.call('zcard', KEYS[3]) == 0 or token == 0 then
  if tonumber(redis.call('get', KEYS[2]) or '0') < tonumber(ARGV[3]) then
    redis.call('set', KEYS[2], ARGV[3])
  end
  token = redis.call('incr', KEYS[2])
end
redis.call('zadd', KEYS[3], now + tonumber(ARGV[2]), ARGV[1])
redis.call('set', KEYS[4], token, 'px', ARGV[2])
redis.call('pexpire', KEYS[3], ARGV[2])
return token
"""
)
# Renew a shared hold while its generation lasts and the holder has not lapsed.
_RENEW_SHARED = (
    _NOW
    + """
if redis.call('get', KEYS[4]) ~= ARGV[2] then return 0 end
if not redis.call('zscore', KEYS[3], ARGV[1]) then return 0 end
if tonumber(redis.call('zscore', KEYS[3], ARGV[1])) < now then return 0 end
redis.call('zadd', KEYS[3], now + tonumber(ARGV[3]), ARGV[1])
redis.call('pexpire', KEYS[3], ARGV[3])
redis.call('pexpire', KEYS[4], ARGV[3])
return 1
"""
)
# Let go of a shared hold; the last holder to go closes the generation.
_RELEASE_SHARED = """
redis.call('zrem', KEYS[3], ARGV[1])
if redis.call('zcard', KEYS[3]) == 0 and redis.call('get', KEYS[4]) == ARGV[2] then
  redis.call('del', KEYS[4])
end
return 1
"""
# Whether anyone holds the lease, shared or not.
_HELD = (
    _NOW
    + """
if redis.call('exists', KEYS[1]) == 1 then return 1 end
redis.call('zremrangebyscore', KEYS[3], '-inf', now)
return redis.call('zcard', KEYS[3])
"""
)
# A mutex is held for one manifest update or log append; if its holder dies it lapses.
MUTEX_TTL = 30.0
POLL = 0.02


class Lease:
    """A held lease: its token, and the heartbeat that keeps it alive."""

    def __init__(self, leases: Leases, run_id: str, token: int) -> None:
        self.leases, self.run_id, self.token = leases, run_id, token
        self.key = leases.keys(run_id)[0]
        self.start()

    def start(self) -> None:
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"lease-{self.run_id}", daemon=True)
        self._thread.start()

    def _beat(self) -> None:
        every = self.leases.ttl / 3
        while not self._stop.wait(every):
            try:
                if not self.renew():
                    self.lost.set()
                    return
            except StoreUnavailable:
                continue  # a missed renewal; the lease lapses only if they keep failing

    def renew(self) -> bool:
        return self.leases.renew(self.run_id, self.token)

    def release(self) -> None:
        self._stop.set()
        self._thread.join()
        with contextlib.suppress(StoreUnavailable):
            self.let_go()

    def let_go(self) -> None:
        self.leases.call(_RELEASE, [self.key], [self.token])


class SharedLease(Lease):
    """A shared hold on a run's lease: the token of its generation, renewed while held."""

    def __init__(self, leases: Leases, run_id: str, token: int, holder: str) -> None:
        self.leases, self.run_id, self.token, self.holder = leases, run_id, token, holder
        self.start()

    def renew(self) -> bool:
        keys = list(self.leases.keys(self.run_id)[:4])
        ttl = int(self.leases.ttl * 1000)
        return bool(self.leases.call(_RENEW_SHARED, keys, [self.holder, self.token, ttl]))

    def let_go(self) -> None:
        keys = list(self.leases.keys(self.run_id)[:4])
        self.leases.call(_RELEASE_SHARED, keys, [self.holder, self.token])


class Leases:
    """Leases, fencing tokens and mutexes for the runs under one bucket prefix."""

    def __init__(self, url: str, namespace: str, ttl: float) -> None:
        if not url.startswith(("redis://", "rediss://", "unix://")):
            raise StoreUnavailable(
                "runs kept in a bucket (RUNS_STORE=s3://...) take their locks in Redis, "
                f"but the broker is not Redis (CELERY_BROKER_URL={url.split('://')[0]}://...)"
            )
        self.client = redis.Redis.from_url(url)
        self.namespace, self.ttl = namespace, ttl

    def keys(self, run_id: str) -> tuple[str, str, str, str, str]:
        """The lease, the fencing counter, the shared holders, the shared generation's token
        and the manifest mutex of a run."""
        base = f"verdict:runs:{self.namespace}:{run_id}"
        return (
            f"{base}:lease",
            f"{base}:fence",
            f"{base}:shared",
            f"{base}:generation",
            f"{base}:mutex",
        )

    def call(self, script: str, keys: list[str], args: list[object]) -> int:
        try:
            return int(self.client.eval(script, len(keys), *keys, *args))
        except redis.RedisError as exc:
            raise StoreUnavailable(f"the Redis that holds run leases: {exc}") from exc

    def acquire(self, run_id: str, wait: float) -> Lease:
        lease_key, fence_key, shared_key, _, _ = self.keys(run_id)
        deadline = time.monotonic() + wait
        while True:
            token = self.call(_ACQUIRE, [lease_key, fence_key, shared_key], [int(self.ttl * 1000)])
            if token:
                return Lease(self, run_id, token)
            if time.monotonic() >= deadline:
                raise RunLocked(f"run {run_id} is being worked on")
            time.sleep(0.05)

    def acquire_shared(self, run_id: str, wait: float, floor: int) -> SharedLease:
        """Hold the run's lease beside other shared holders; its token is above `floor`,
        the last the run's manifest records, when it opens a generation."""
        keys, holder = list(self.keys(run_id)[:4]), uuid.uuid4().hex
        deadline = time.monotonic() + wait
        while True:
            token = self.call(_ACQUIRE_SHARED, keys, [holder, int(self.ttl * 1000), floor])
            if token:
                return SharedLease(self, run_id, token, holder)
            if time.monotonic() >= deadline:
                raise RunLocked(f"run {run_id} is being worked on")
            time.sleep(0.05)

    def raise_above(self, run_id: str, lease: Lease, floor: int) -> None:
        """Give the held `lease` a token above `floor`, the last the run's manifest records."""
        lease_key, fence_key = self.keys(run_id)[:2]
        ttl = int(self.ttl * 1000)
        token = self.call(_RAISE, [lease_key, fence_key], [lease.token, floor, ttl])
        if not token:
            raise LeaseLost(f"run {run_id}: lease lost while it was being taken")
        lease.token = token

    def renew(self, run_id: str, token: int) -> bool:
        lease_key, fence_key = self.keys(run_id)[:2]
        return bool(self.call(_RENEW, [lease_key, fence_key], [token, int(self.ttl * 1000)]))

    def held(self, run_id: str) -> bool:
        """Whether anyone holds the run's lease, exclusive or shared."""
        return bool(self.call(_HELD, list(self.keys(run_id)[:3]), []))

    def current(self, run_id: str) -> int:
        """The latest token given out on the run: 0 before any."""
        try:
            return int(self.client.get(self.keys(run_id)[1]) or 0)
        except redis.RedisError as exc:
            raise StoreUnavailable(f"the Redis that holds run leases: {exc}") from exc

    def check(self, run_id: str, token: int) -> None:
        """LeaseLost when a later holder took the run after `token` was given."""
        latest = self.current(run_id)
        if latest > token:
            raise LeaseLost(
                f"run {run_id}: lease lost; another worker took the run (token {latest}, "
                f"this worker's {token}), so this write was refused"
            )

    @contextlib.contextmanager
    def mutex(self, run_id: str) -> Iterator[None]:
        key, mine = self.keys(run_id)[4], uuid.uuid4().hex
        deadline = time.monotonic() + MUTEX_TTL * 2
        try:
            while not self.client.set(key, mine, nx=True, px=int(MUTEX_TTL * 1000)):
                if time.monotonic() >= deadline:
                    raise StoreUnavailable(f"run {run_id}: its manifest stayed locked")
                time.sleep(POLL)
        except redis.RedisError as exc:
            raise StoreUnavailable(f"the Redis that holds run leases: {exc}") from exc
        try:
            yield
        finally:
            with contextlib.suppress(StoreUnavailable):
                self.call(_RELEASE, [key], [mine])
