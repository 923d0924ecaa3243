"""The machine's Redis (127.0.0.1:6379) for the tests of a fleet: a test fails loudly when it is not up."""

from __future__ import annotations

import pytest
import redis

from crawler.fleet import check_redis

REDIS_URL = "redis://127.0.0.1:6379/0"
START_REDIS = "start it with `make services`"


def redis_server() -> redis.Redis:
    """A connection to the machine's Redis; fails the test, saying how to start it, if it does not answer."""
    try:
        check_redis(REDIS_URL)
    except ValueError as error:
        pytest.fail(f"{error}; {START_REDIS}")
    return redis.Redis.from_url(REDIS_URL)
