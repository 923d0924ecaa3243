"""One crawl at a time on a store: a lock the crawl holds from start to end, whoever started it
(`scrapy crawl` by hand, `scrapy schedule`, cron or a systemd timer).

SQLite: an exclusive `flock` on a file beside the database (``<file>.lock``, holding the owner's pid and
start time); PostgreSQL: a session advisory lock on a connection kept open for the crawl. Both go with the
process: a crawl killed with ``kill -9`` or a power cut leaves no lock behind. Crawler processes meant to
share one store (scale-out workers) turn it off with ``CRAWL_LOCK = False``.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from sqlalchemy import Connection, Engine, text

# Any constant: it names the crawl lock in every process sharing a PostgreSQL database (the migration lock
# uses another).
_LOCK_ID = 0x63726177  # "craw"
_TRY_LOCK = "SELECT pg_try_advisory_lock(:id, hashtext(current_schema()))"
_UNLOCK = "SELECT pg_advisory_unlock(:id, hashtext(current_schema()))"


class CrawlLockHeldError(Exception):
    """Another crawl holds the store's lock."""


@dataclass(slots=True)
class CrawlLock:
    """A held crawl lock; `release` lets it go (the end of the process does too)."""

    file: IO[str] | None = None
    connection: Connection | None = None

    @classmethod
    def acquire(cls, engine: Engine) -> CrawlLock:
        """Take the store's lock, or raise `CrawlLockHeldError` saying who holds it."""
        if engine.dialect.name == "postgresql":
            connection = engine.connect()
            # Keyed by schema: stores in schemas of one database are apart, and so are their crawls.
            taken = connection.execute(text(_TRY_LOCK), {"id": _LOCK_ID}).scalar()
            if not taken:
                connection.close()
                raise CrawlLockHeldError(f"another crawl is running on {engine.url.render_as_string()}")
            connection.commit()
            return cls(connection=connection)
        return cls(file=_lock_file(lock_path(engine)))

    def release(self) -> None:
        """Let the lock go."""
        if self.connection is not None:
            self.connection.execute(text(_UNLOCK), {"id": _LOCK_ID})
            self.connection.close()
            self.connection = None
        if self.file is not None:
            fcntl.flock(self.file, fcntl.LOCK_UN)
            self.file.close()
            self.file = None


def lock_path(engine: Engine) -> Path:
    """The lock file of a SQLite store."""
    return Path(f"{engine.url.database or 'memory'}.lock")


def _lock_file(path: Path) -> IO[str]:
    handle = path.open("a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        owner = handle.read().strip() or "another process"
        handle.close()
        raise CrawlLockHeldError(f"another crawl is running on {path.with_suffix('')}: {owner}") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()} since {datetime.now(UTC).isoformat(timespec='seconds')}\n")
    handle.flush()
    return handle
