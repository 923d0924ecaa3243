"""Local HTTP servers for crawl tests: a directory served as is, and a programmable "bad" server.

Both listen on 127.0.0.1 on a free port, answer from daemon threads, and stop when their context ends.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from benchmarks.localserver import LocalServer, running

# A handler answers one GET request through the request handler it is given.
Route = Callable[[BaseHTTPRequestHandler], None]


@dataclass(slots=True)
class RouteServer:
    """A running route server: its base URL and the paths requested so far, in order."""

    base: str
    requested: list[str] = field(default_factory=list)


@contextmanager
def serve_routes(routes: Mapping[str, Route]) -> Iterator[RouteServer]:
    """Serve `routes` (path with query -> handler); other paths answer 404.

    The mapping is read at each request, so a test may change it between two crawls.
    """
    requested: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requested.append(self.path)
            routes.get(self.path, not_found)(self)

        def log_message(self, format: str, *args: Any) -> None:
            """Keep test output clean."""

    with running(LocalServer(("127.0.0.1", 0), Handler)) as base:
        yield RouteServer(base, requested)


def page(body: str | bytes, status: int = 200, content_type: str = "text/html; charset=utf-8") -> Route:
    """A complete answer with this body, status and Content-Type."""
    data = body.encode("utf-8") if isinstance(body, str) else body

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    return route


def redirect(location: str, status: int = 302) -> Route:
    """An HTTP redirect to `location`."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        handler.send_header("Location", location)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    return route


def reset_mid_body(announced: int, sent: int) -> Route:
    """Announce `announced` bytes of HTML, send `sent` of them, then reset the connection (TCP RST)."""

    def route(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html; charset=utf-8")
        handler.send_header("Content-Length", str(announced))
        handler.end_headers()
        handler.wfile.write(b"<html><body><p>" + b"x" * sent)
        handler.wfile.flush()
        # SO_LINGER with a zero timeout makes close() send RST instead of FIN.
        handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        handler.connection.close()
        handler.close_connection = True

    return route


@dataclass(slots=True)
class BusyUntil:
    """A route answering `status` with ``Retry-After: retry_after`` until `seconds` after its first request,
    then as `then`; `times` holds when each request came (monotonic seconds)."""

    seconds: float
    then: Route
    retry_after: str
    status: int = 429
    times: list[float] = field(default_factory=list)

    def __call__(self, handler: BaseHTTPRequestHandler) -> None:
        self.times.append(time.monotonic())
        if self.times[-1] - self.times[0] >= self.seconds:
            self.then(handler)
            return
        handler.send_response(self.status)
        handler.send_header("Retry-After", self.retry_after)
        handler.send_header("Content-Length", "0")
        handler.end_headers()


def not_found(handler: BaseHTTPRequestHandler) -> None:
    """The 404 answer of any path without a route."""
    page("<html><body><p>Not found</p></body></html>", status=404)(handler)
