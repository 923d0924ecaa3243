"""A fleet's shared state in Redis: the keys of one crawl and the few atomic operations on them.

Processes started with the same ``scrapy crawl site`` command and ``REDIS_URL`` form a fleet. They share,
under one key prefix (`crawl_key`: the spider, its seeds and its store, or ``FLEET_KEY``):

- ``requests`` and ``dupefilter``: scrapy-redis' priority queue and duplicate filter
  (`crawler.fleet_components`), written together in one step;
- ``seen``, ``stored``, ``pages``: the spider's memory (`crawler.frontier.RedisFrontier`);
- ``seeding``: who schedules the seeds ("started" by the first process, "done" once scheduled);
- ``leases``, ``payloads`` and ``met``: each request a process took from the queue (by the SHA-1 of its
  encoding), with the time it may hold it until, the request itself, and the links its page met first, so
  that the request of a process that died goes back to the queue with the links it may have met and not
  queued;
- ``workers`` and ``resting``: the processes running, each with the time it last said so, and those of
  them with nothing to do;
- ``closing`` and ``recleaned``: the processes at their share of closing the crawl, and who re-cleans each
  cluster with which stored pages (`records.closing`);
- ``slot:HOST`` and ``busy:HOST``: the fleet's politeness per site (the time of its next request, its
  requests in flight).

Redis holds only what a fleet needs while it runs: the last process to stop deletes every key (and were
they all to die, the keys expire two leases after the last heartbeat); the store's crawl state
(`pipelines.storage.crawl_state`) is what the next crawl goes on from.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import redis
    from redis.client import Pipeline

# The meta keys of a request's lease id, and of a request taken back from a process that died (the links its
# page met first there).
LEASE, RETAKEN = "fleet_lease", "fleet_retaken"

# Takes a place of a site's fleet-wide concurrency: drops the places whose holders are past their time,
# then adds one when fewer than the limit are held. KEYS[1] busy set; ARGV: now, deadline, token, limit.
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then
    redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
    return 1
end
return 0
"""
# Takes the best request of the queue and leases it, and marks the taker busy, in one step: no other process
# can see the queue empty, no lease out and every process resting in between. KEYS: queue, leases, payloads,
# resting set; ARGV: the lease's deadline, the taker. Returns the lease id (the payload's SHA-1) and the
# payload, or nothing.
_POP_LEASE = """
local best = redis.call('ZRANGE', KEYS[1], 0, 0)
if #best == 0 then
    return false
end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, 0)
local lease = redis.sha1hex(best[1])
redis.call('ZADD', KEYS[2], ARGV[1], lease)
redis.call('HSET', KEYS[3], lease, best[1])
redis.call('SREM', KEYS[4], ARGV[2])
return {lease, best[1]}
"""
# Queues a request and adds its fingerprint to the duplicate filter in one step, unless it is filtered and the
# fingerprint was there: a process killed between the two would leave a link the filter drops and no queue
# holds, and a page taken back queues the links its dead process met through that filter. A request that
# skips the filter (a seed, a due URL, a retry) is recorded too: a page taken back queues all its links again,
# the home page's among them. KEYS: duplicate filter, queue; ARGV: fingerprint, score, payload, filtered
# ("1" or "0"). Returns 1 when queued.
_SCHEDULE = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 and ARGV[4] == '1' then
    return 0
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
"""
# Adds URLs to the met set and, in the same step, records those that were new under the lease of the page
# that met them: a process that dies before it queues them leaves them with its lease. KEYS: met set, met
# hash; ARGV[1] the lease ("": none), ARGV[2...] the URLs. Returns the new URLs.
_MEET = """
local new = {}
for i = 2, #ARGV do
    if redis.call('SADD', KEYS[1], ARGV[i]) == 1 then
        new[#new + 1] = ARGV[i]
    end
end
if ARGV[1] ~= '' and #new > 0 then
    local before = redis.call('HGET', KEYS[2], ARGV[1])
    local joined = table.concat(new, '\\n')
    if before then
        joined = before .. '\\n' .. joined
    end
    redis.call('HSET', KEYS[2], ARGV[1], joined)
end
return new
"""
# Counts within a budget: INCR, and back when that passed it. KEYS[1] counter; ARGV[1] budget.
_TAKE = """
local count = redis.call('INCR', KEYS[1])
if count > tonumber(ARGV[1]) then
    redis.call('DECR', KEYS[1])
    return 0
end
return 1
"""


def check_redis(url: str) -> None:
    """ValueError, in one line, when ``REDIS_URL`` is set and no Redis answers there."""
    if not url:
        return
    import redis  # a fleet's only: one process never loads redis (some 6 MB)

    try:
        redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5).ping()
    except (redis.RedisError, ValueError) as error:
        raise ValueError(f"REDIS_URL {url}: {error}") from None


def crawl_key(spider: str, seeds: Sequence[str], store: str) -> str:
    """The key prefix of a crawl: the same spider, seeds and store give the same prefix on every machine."""
    digest = hashlib.sha256("\n".join([spider, store, *sorted(seeds)]).encode()).hexdigest()[:16]
    return f"cleancrawl:{spider}:{digest}"


@dataclass(frozen=True, slots=True)
class FleetKeys:
    """The Redis keys of one crawl (the module's docstring says what each holds)."""

    prefix: str
    requests: str  # scrapy-redis' request queue (a sorted set)
    dupefilter: str  # scrapy-redis' request fingerprints (a set)
    seen: str  # URLs met (a set)
    stored: str  # final URLs of the pages stored (a set)
    pages: str  # pages counted against max_pages (a counter)
    seeding: str  # who schedules the seeds: "started", then "done"
    leases: str  # requests taken from the queue: lease id -> the time they may be held until (a sorted set)
    payloads: str  # the taken requests, encoded as the queue holds them: lease id -> bytes (a hash)
    met: str  # the links each taken request's page met first: lease id -> URLs, one a line (a hash)
    workers: str  # the processes running: id -> the time they last said so (a hash)
    resting: str  # the processes with nothing to do (a set)
    closing: str  # the processes at their share of closing the crawl (a set)
    recleaned: str  # "site cluster pages" -> the process that re-cleans the cluster with that many (a hash)

    @classmethod
    def of(cls, prefix: str) -> FleetKeys:
        """The keys under `prefix`."""
        names = [name for name in cls.__dataclass_fields__ if name != "prefix"]
        return cls(prefix, **{name: f"{prefix}:{name}" for name in names})

    def slot(self, site: str) -> str:
        """The time a site may be asked again (a key that expires then)."""
        return f"{self.prefix}:slot:{site}"

    def busy(self, site: str) -> str:
        """A site's requests in flight (token -> the time they may be held until; a sorted set)."""
        return f"{self.prefix}:busy:{site}"

    def owned(self) -> list[str]:
        """Every fixed key of the crawl (the per-site ones are found by pattern)."""
        return [getattr(self, name) for name in self.__dataclass_fields__ if name != "prefix"]


class Fleet:
    """One crawl's shared state on a Redis server."""

    def __init__(self, server: redis.Redis, prefix: str, lease_seconds: float) -> None:
        self.server = server
        self.keys = FleetKeys.of(prefix)
        self.lease_seconds = lease_seconds
        self._acquire = server.register_script(_ACQUIRE)
        self._take = server.register_script(_TAKE)
        self._pop_lease = server.register_script(_POP_LEASE)
        self._meet = server.register_script(_MEET)
        self._schedule = server.register_script(_SCHEDULE)
        # The leases this process holds: renewed with each heartbeat, so that only a dead process's run out.
        self.held: set[str] = set()

    def schedule(self, fingerprint: str, payload: bytes, priority: int, filtered: bool) -> bool:
        """Queue the encoded request at `priority` unless `filtered` and its `fingerprint` was seen before;
        the fingerprint is seen from now on, in the same step. Whether it was queued."""
        keys = [self.keys.dupefilter, self.keys.requests]
        return bool(self._schedule(keys=keys, args=[fingerprint, -priority, payload, int(filtered)]))

    def meet(self, urls: Sequence[str], lease: str) -> set[str]:
        """Add `urls` to the fleet's met set, in one step; those that were not in it, recorded under
        `lease` (the page's that met them; "": none) until it ends."""
        if not urls:
            return set()
        new = self._meet(keys=[self.keys.seen, self.keys.met], args=[lease, *urls])
        return {_text(url) for url in new}

    def take(self, key: str, budget: int | None) -> bool:
        """Count one in the counter `key` within `budget` (None: no budget)."""
        if budget is None:
            self.server.incr(key)
            return True
        return bool(self._take(keys=[key], args=[budget]))

    # --- seeding -------------------------------------------------------------------------------------------

    def claim_seeding(self) -> bool:
        """Whether this process is the first to schedule the seeds."""
        return bool(self.server.set(self.keys.seeding, "started", nx=True))

    def finish_seeding(self) -> None:
        """The seeds are in the queue."""
        self.server.set(self.keys.seeding, "done")

    def seeding_done(self) -> bool:
        """Whether the process that schedules the seeds has done so."""
        return self.server.get(self.keys.seeding) in (b"done", "done")

    # --- leases ---------------------------------------------------------------------------------------------

    def pop_lease(self, worker: str) -> tuple[str, bytes] | None:
        """The best request of the queue, encoded, leased to `worker`, which is busy now: (lease id,
        payload); None when the queue is empty."""
        keys = [self.keys.requests, self.keys.leases, self.keys.payloads, self.keys.resting]
        popped = self._pop_lease(keys=keys, args=[time.time() + self.lease_seconds, worker])
        if not popped:
            return None
        lease, payload = popped
        self.held.add(_text(lease))
        return _text(lease), payload

    def release(self, lease: str) -> None:
        """The leased request is done: answered, failed, dropped, or back in the queue."""
        self.held.discard(lease)
        pipe = self.server.pipeline(transaction=False)
        pipe.zrem(self.keys.leases, lease)
        pipe.hdel(self.keys.payloads, lease)
        pipe.hdel(self.keys.met, lease)
        pipe.execute()

    def expired(self) -> list[tuple[bytes, list[str]]]:
        """Take back the requests whose leases ran out (their process died), each returned to exactly one
        caller, for the queue: their payloads, and the links their pages met first."""
        taken: list[tuple[bytes, list[str]]] = []
        expired: list[bytes] = self.server.zrangebyscore(self.keys.leases, "-inf", time.time())  # type: ignore[assignment]
        for lease in expired:
            if self.server.zrem(self.keys.leases, lease):  # this caller won it
                pipe = self.server.pipeline(transaction=False)
                pipe.hget(self.keys.payloads, lease)
                pipe.hget(self.keys.met, lease)
                pipe.hdel(self.keys.payloads, lease)
                pipe.hdel(self.keys.met, lease)
                payload, met, *_ = pipe.execute()
                if payload is not None:
                    taken.append((payload, _text(met).split("\n") if met else []))
        return taken

    def leased(self) -> int:
        """Requests taken from the queue and not yet done, in the whole fleet."""
        return int(self.server.zcard(self.keys.leases))

    # --- workers ------------------------------------------------------------------------------------------

    def join(self, worker: str) -> None:
        """Say that `worker` runs (again: a heartbeat) and renew the leases it holds. Every key of the crawl
        lives two leases past the last heartbeat of any process: a fleet whose processes all died leaves
        nothing behind for long."""
        pipe = self.server.pipeline(transaction=False)
        pipe.hset(self.keys.workers, worker, time.time())
        if self.held:
            deadline = time.time() + self.lease_seconds
            pipe.zadd(self.keys.leases, dict.fromkeys(self.held, deadline), xx=True)
        for key in self.keys.owned():
            pipe.expire(key, self._lifetime)
        pipe.execute()

    def rest(self, worker: str) -> bool:
        """`worker` has nothing to do; True when the fleet is done: the queue is empty, no request is out,
        the seeds are scheduled and every process running rests."""
        self.server.sadd(self.keys.resting, worker)
        if self.server.zcard(self.keys.requests) or self.leased() or not self.seeding_done():
            return False
        members: set[bytes] = self.server.smembers(self.keys.resting)  # type: ignore[assignment]
        return self._alive() <= {_text(member) for member in members}

    def _alive(self) -> set[str]:
        """The processes that said they run within a lease's time."""
        since = time.time() - self.lease_seconds
        workers: dict[bytes, bytes] = self.server.hgetall(self.keys.workers)  # type: ignore[assignment]
        return {_text(worker) for worker, seen in workers.items() if float(seen) > since}

    def leave(self, worker: str) -> bool:
        """`worker` stops; True when it was the last (no other said it runs within a lease's time): then every
        key of the crawl is deleted."""
        self.server.hdel(self.keys.workers, worker)
        self.server.srem(self.keys.resting, worker)
        if self._alive():
            return False
        self.server.delete(*self.keys.owned())
        for pattern in (self.keys.slot("*"), self.keys.busy("*")):
            for key in self.server.scan_iter(match=pattern):
                self.server.delete(key)
        return True

    # --- closing -------------------------------------------------------------------------------------------

    def begin_closing(self, worker: str) -> None:
        """`worker` starts its share of closing the crawl (`records.closing`)."""
        self._add_lasting(self.keys.closing, lambda pipe: pipe.sadd(self.keys.closing, worker))

    def claim_cluster(self, worker: str, site: str, cluster: str, members: str) -> bool:
        """Whether `worker` re-cleans the cluster of these stored pages (`records.closing.Members`, as text):
        it is the first to claim it with them, or claimed it before."""
        key, field = self.keys.recleaned, f"{site} {cluster} {members}"
        if self._add_lasting(key, lambda pipe: pipe.hsetnx(key, field, worker)):
            return True
        return _text(self.server.hget(key, field) or b"") == worker

    def _add_lasting(self, key: str, write: Callable[[Pipeline], object]) -> bool:
        """`write` to `key` and give the key the crawl's lifetime (`join`): written after the last heartbeat
        of a process, it must not outlive the fleet. What `write` returned, as a bool."""
        pipe = self.server.pipeline()
        write(pipe)
        pipe.expire(key, self._lifetime)
        return bool(pipe.execute()[0])

    @property
    def _lifetime(self) -> int:
        """Seconds a key of the crawl lives past its last renewal: two leases."""
        return max(1, round(2 * self.lease_seconds))

    def end_closing(self, worker: str) -> bool:
        """`worker` is done with its re-cleans; True when no other process that runs is still at its share."""
        self.server.srem(self.keys.closing, worker)
        members: set[bytes] = self.server.smembers(self.keys.closing)  # type: ignore[assignment]
        return not {_text(member) for member in members} & self._alive()

    # --- politeness -----------------------------------------------------------------------------------------

    def next_turn(self, site: str, delay: float) -> float:
        """Seconds to wait before the fleet's next request to `site`, `delay` apart: 0 when this process takes
        the turn now."""
        if self.server.set(self.keys.slot(site), "1", px=max(1, round(delay * 1000)), nx=True):
            return 0.0
        return max(0.001, int(self.server.pttl(self.keys.slot(site))) / 1000)

    def enter(self, site: str, token: str, limit: int) -> bool:
        """Take one of `site`'s `limit` places for requests in flight across the fleet."""
        now = time.time()
        return bool(
            self._acquire(keys=[self.keys.busy(site)], args=[now, now + self.lease_seconds, token, limit])
        )

    def exit(self, site: str, token: str) -> None:
        """Give back a place taken by `enter`."""
        self.server.zrem(self.keys.busy(site), token)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
