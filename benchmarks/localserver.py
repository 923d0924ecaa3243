"""Serve a directory on 127.0.0.1 from a thread, like `python -m http.server`: for benchmarks and tests."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class QuietDirectoryHandler(SimpleHTTPRequestHandler):
    """`http.server`'s directory handler without its access log."""

    def log_message(self, format: str, *args: Any) -> None:
        """No access log: the crawl's own log tells what was fetched."""


class LocalServer(ThreadingHTTPServer):
    """A threading HTTP server that copes with a crawler's burst of connections and hang-ups."""

    daemon_threads = True
    # A crawler opens up to 16 connections at once; the default backlog of 5 could drop some.
    request_queue_size = 64

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up (or a route that resets on purpose) is not an error; anything else is."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class BurstServer(LocalServer):
    """A `LocalServer` with a deeper backlog, for a simulated site a whole crawl connects to at once."""

    request_queue_size = 256


class KeepAliveMixIn:
    """For a `BaseHTTPRequestHandler` that crawlers call: HTTP/1.1 keep-alive, responses sent without delay,
    no access log (put it first among the bases, as `socketserver.ThreadingMixIn`)."""

    protocol_version = "HTTP/1.1"  # keep-alive: a crawler sends many requests per connection
    disable_nagle_algorithm = True  # headers and body go in separate writes; Nagle would delay the body

    def log_message(self, format: str, *args: Any) -> None:
        """No access log: the server's own records say what was asked and answered."""


@contextmanager
def running(
    server: ThreadingHTTPServer, poll_interval: float = 0.5, name: str | None = None
) -> Iterator[str]:
    """Run `server` in a daemon thread; yields its base URL (no trailing slash) and stops it afterwards.

    `shutdown` waits for the serving loop to notice, up to `poll_interval` seconds."""
    thread = threading.Thread(target=server.serve_forever, args=(poll_interval,), name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextmanager
def serve_directory(root: Path) -> Iterator[str]:
    """Serve `root` on 127.0.0.1, a free port; yields the base URL (no trailing slash)."""
    handler = partial(QuietDirectoryHandler, directory=str(root))
    with running(LocalServer(("127.0.0.1", 0), handler)) as base:
        yield base
