"""A fault-injecting HTTP server for soak tests: a generated site with the troubles of the real web.

`FaultServer(root, config)` serves a directory (``/a/`` answers ``a/index.html``, ``/a`` redirects to
``/a/``) from a threaded HTTP/1.1 server with keep-alive, and gives some paths a fault. The fault of a path
is fixed by a hash of the path and `FaultConfig.seed`, so every run and every attempt agree; the default
rates are:

- 5% server errors: half ``transient-503`` (503 for the first `transient_failures` attempts, then the
  page), half ``permanent-500`` (500 on every attempt);
- 2% ``reset``: the first attempts announce the whole body, send half of it and reset the connection
  (TCP RST); later attempts get the page;
- 1% ``slow``: the page drips out in small chunks with pauses, finishing after `drip_seconds`;
- 1% ``oversized``: the page padded past `oversize_bytes` (20 MB of HTML), half of them with the size
  announced in Content-Length, half without (the end of the body is the end of the connection);
- 1% ``charset``: the header declares one charset and the body is in another (windows-1252 bytes
  declared utf-8, or utf-8 bytes declared windows-1252).

The server records, per path, the attempts and the answers it gave (`records`), and `servable(paths)` says
which pages a correct crawler ends up storing: all but the permanent 500s and the oversized pages
(given at least `transient_failures` retries).

Usage::

    server = FaultServer(root, FaultConfig(seed=1))
    with server as base:            # "http://127.0.0.1:PORT"
        ...crawl base + "/"...
    expected = server.servable(site.kinds)
"""

from __future__ import annotations

import hashlib
import math
import mimetypes
import posixpath
import re
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from types import TracebackType
from urllib.parse import unquote, urlsplit

from benchmarks.localserver import BurstServer, KeepAliveMixIn

_HASH_SCALE = float(2**64)
_PADDING_BLOCK = (
    '<p class="filler">This paragraph pads an oversized page. It repeats until the page is far larger '
    "than any crawler should download, as a runaway template or an endless archive would make it.</p>\n"
) * 256  # about 64 KB, sent again and again
_ROOT_RELATIVE_HREF = re.compile(rb'href="(/[^"#?]*)')


class Fault(StrEnum):
    """What the server does to a path."""

    NONE = "none"
    TRANSIENT_503 = "transient-503"
    PERMANENT_500 = "permanent-500"
    RESET = "reset"
    SLOW = "slow"
    OVERSIZED = "oversized"
    CHARSET = "charset"


# Faults that a correct crawler cannot get past: those pages are never stored.
UNSERVABLE = frozenset({Fault.PERMANENT_500, Fault.OVERSIZED})


@dataclass(frozen=True, slots=True)
class FaultRates:
    """The share of paths given each fault."""

    server_error: float = 0.05
    """Server errors: half of them a 503 that a later attempt gets past (`Fault.TRANSIENT_503`), half a
    500 that stays (`Fault.PERMANENT_500`)."""
    reset: float = 0.02
    """The connection is reset half-way through a body sent with no Content-Length."""
    slow: float = 0.01
    """The answer comes after the crawl's download timeout."""
    oversized: float = 0.01
    """The body grows past the crawl's maximum download size."""
    charset: float = 0.01
    """The page is declared UTF-8 and holds an invalid byte."""

    def bands(self) -> list[tuple[float, Fault]]:
        """Cumulative upper bounds in [0, 1) with their fault, in a fixed order."""
        shares = [
            (self.server_error / 2, Fault.TRANSIENT_503),
            (self.server_error / 2, Fault.PERMANENT_500),
            (self.reset, Fault.RESET),
            (self.slow, Fault.SLOW),
            (self.oversized, Fault.OVERSIZED),
            (self.charset, Fault.CHARSET),
        ]
        bands, bound = [], 0.0
        for share, fault in shares:
            bound += share
            bands.append((bound, fault))
        if bound > 1.0:
            raise ValueError(f"fault rates add up to {bound:.2f}, more than 1")
        return bands


@dataclass(frozen=True, slots=True)
class FaultConfig:
    """How the server misbehaves. `overrides` pins the fault of given paths (tests, reproductions)."""

    seed: int = 0
    rates: FaultRates = field(default_factory=FaultRates)
    transient_failures: int = 1  # attempts of a transient fault path that fail before it answers
    oversize_bytes: int = 20_000_000
    drip_seconds: float = 3.0
    drip_chunks: int = 24
    exempt: frozenset[str] = frozenset({"/"})  # the start page stays healthy, or there is no crawl
    overrides: Mapping[str, Fault] = field(default_factory=dict)


def _unit(*parts: object) -> float:
    """A stable number in [0, 1) from the parts."""
    data = "\x1f".join(str(part) for part in parts).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big") / _HASH_SCALE


def choose_fault(path: str, config: FaultConfig) -> Fault:
    """The fault of `path`: an override, none for an exempt path, else the band its hash falls in."""
    if path in config.overrides:
        return config.overrides[path]
    if path in config.exempt:
        return Fault.NONE
    roll = _unit(config.seed, "fault", path)
    for bound, fault in config.rates.bands():
        if roll < bound:
            return fault
    return Fault.NONE


def _variant(path: str, config: FaultConfig) -> bool:
    """A second, independent coin per path: which way a charset is wrong, whether a size is announced."""
    return _unit(config.seed, "variant", path) < 0.5


@dataclass(slots=True)
class PathRecord:
    """What happened to one path: how many requests came, and what each was answered."""

    attempts: int = 0
    answers: list[str] = field(default_factory=list)


class FaultServer:
    """Serve a directory with per-path faults; a context manager whose value is the base URL."""

    def __init__(self, root: Path, config: FaultConfig | None = None) -> None:
        self.root = root.resolve()
        self.config = config or FaultConfig()
        self.records: dict[str, PathRecord] = {}
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._bands = self.config.rates.bands()  # validates the rates before any request

    # --- what the server does --------------------------------------------------------------------------

    def fault(self, path: str) -> Fault:
        """The fault of `path` (an url path such as ``/2021/03/14/slug/``)."""
        return choose_fault(path, self.config)

    def servable(self, paths: Iterable[str]) -> list[str]:
        """The paths among `paths` that a correct crawler stores: not permanent 500s, not oversized pages."""
        return [path for path in paths if self.fault(path) not in UNSERVABLE]

    def reachable(self, start: str = "/") -> set[str]:
        """The servable pages reachable from `start` through servable pages only.

        Follows the root-relative links (``href="/..."``) of the files, as `sitegen` writes them; a page
        whose only way in passes through a permanent 500 is servable but cannot be found.
        """
        seen, stack = {start}, [start]
        while stack:
            path = stack.pop()
            file = self._file(path)
            if file is None or self.fault(path) in UNSERVABLE:
                continue
            for match in _ROOT_RELATIVE_HREF.finditer(file.read_bytes()):
                target = match.group(1).decode("utf-8", errors="replace")
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        return {path for path in seen if self._file(path) is not None and self.fault(path) not in UNSERVABLE}

    def fault_counts(self, paths: Iterable[str]) -> Counter[Fault]:
        """How many of `paths` have each fault."""
        return Counter(self.fault(path) for path in paths)

    def record(self, path: str) -> PathRecord:
        """A copy of what happened to `path` so far."""
        with self._lock:
            found = self.records.get(path, PathRecord())
            return PathRecord(found.attempts, list(found.answers))

    def requests(self) -> int:
        """All requests answered so far."""
        with self._lock:
            return sum(record.attempts for record in self.records.values())

    # --- running ---------------------------------------------------------------------------------------

    @property
    def base(self) -> str:
        """The base URL (no trailing slash) of the running server."""
        if self._server is None:
            raise RuntimeError("the fault server is not running")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> str:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.faults = self
        self._server = server
        # A short poll interval: `shutdown` waits for the loop to notice, 0.5 s by default.
        self._thread = threading.Thread(
            target=server.serve_forever, args=(0.05,), name="fault-server", daemon=True
        )
        self._thread.start()
        return self.base

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = self._thread = None

    # --- used by the handler ---------------------------------------------------------------------------

    def _attempt(self, path: str) -> int:
        """Count a request of `path`; its attempt number, from 1."""
        with self._lock:
            record = self.records.setdefault(path, PathRecord())
            record.attempts += 1
            return record.attempts

    def _answered(self, path: str, answer: str) -> int:
        """Record an answer to `path`; its index in the path's answers, for `_amend`."""
        with self._lock:
            answers = self.records[path].answers
            answers.append(answer)
            return len(answers) - 1

    def _amend(self, path: str, index: int, suffix: str) -> None:
        with self._lock:
            self.records[path].answers[index] += suffix

    def _file(self, path: str) -> Path | None:
        """The file that answers `path`, or None (outside the root, or missing)."""
        relative = posixpath.normpath(unquote(path)).lstrip("/")
        if relative.startswith(".."):
            return None
        candidate = self.root / relative if relative not in ("", ".") else self.root
        if candidate.is_dir():
            candidate = candidate / "index.html"
        return candidate if candidate.is_file() else None


class _Server(BurstServer):
    """The threaded server of one `FaultServer` (its records say what was asked and answered)."""

    faults: FaultServer


class _Handler(KeepAliveMixIn, BaseHTTPRequestHandler):
    """Answers GET from the directory, applying the path's fault."""

    server: _Server
    _faults: FaultServer
    _path: str
    _noted: int

    def do_GET(self) -> None:
        """Serve the path, or its fault."""
        self._faults = self.server.faults
        self._path = urlsplit(self.path).path or "/"
        self._answer(self._faults._attempt(self._path))

    def _note(self, answer: str) -> None:
        """Record the answer before its body goes out: a client that has the response finds it recorded."""
        self._noted = self._faults._answered(self._path, answer)

    def _answer(self, attempt: int) -> None:
        """Send the answer the path's fault calls for."""
        faults, path = self._faults, self._path
        file = faults._file(path)
        if file is None:
            return self._send(404, b"<html><body><p>Not found</p></body></html>")
        if file.name == "index.html" and not path.endswith("/") and not path.endswith("index.html"):
            return self._redirect(path + "/")
        body, config = file.read_bytes(), faults.config
        fault = faults.fault(path)
        content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if fault in (Fault.TRANSIENT_503, Fault.RESET) and attempt <= config.transient_failures:
            return self._transient(fault, body)
        if fault == Fault.PERMANENT_500:
            return self._send(500, b"<html><body><p>Internal error</p></body></html>")
        if fault == Fault.SLOW:
            return self._drip(body, content_type, config)
        if fault == Fault.OVERSIZED:
            return self._oversized(body, content_type, config, announced=_variant(path, config))
        if fault == Fault.CHARSET:
            return self._wrong_charset(body, content_type, latin_body=_variant(path, config))
        return self._send(200, body, content_type)

    # --- answers: each notes itself, then sends ----------------------------------------------------------

    def _headers(self, status: int, content_type: str, length: int | None, extra: dict[str, str]) -> None:
        self.send_response(status)
        if content_type.startswith("text/") and "charset" not in content_type:
            content_type += "; charset=utf-8"
        self.send_header("Content-Type", content_type)
        if length is not None:
            self.send_header("Content-Length", str(length))
        for name, value in extra.items():
            self.send_header(name, value)
        self.end_headers()

    def _send(self, status: int, body: bytes, content_type: str = "text/html", note: str = "") -> None:
        self._note(note or str(status))
        extra = {"Retry-After": "1"} if status == 503 else {}
        self._headers(status, content_type, len(body), extra)
        self.wfile.write(body)

    def _transient(self, fault: Fault, body: bytes) -> None:
        """A failure that a retry gets past: a 503, or a connection reset mid-body."""
        if fault == Fault.TRANSIENT_503:
            return self._send(503, b"<html><body><p>Try again</p></body></html>")
        return self._reset(body)

    def _redirect(self, location: str) -> None:
        self._note("301")
        self._headers(301, "text/html", 0, {"Location": location})

    def _reset(self, body: bytes) -> None:
        """Announce the whole body, send half of it, then reset the connection (SO_LINGER 0 sends RST)."""
        self._note("reset")
        self._headers(200, "text/html", len(body), {})
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def _drip(self, body: bytes, content_type: str, config: FaultConfig) -> None:
        """The whole page in `drip_chunks` pieces, a pause before each, over `drip_seconds` in all."""
        self._note("200 slow")
        self._headers(200, content_type, len(body), {})
        size = max(1, math.ceil(len(body) / config.drip_chunks))
        pause = config.drip_seconds / max(1, math.ceil(len(body) / size))
        for start in range(0, len(body), size):
            time.sleep(pause)
            if not self._write(body[start : start + size]):
                return

    def _oversized(self, body: bytes, content_type: str, config: FaultConfig, announced: bool) -> None:
        """The page with filler paragraphs before ``</body>`` until it is larger than `oversize_bytes`."""
        cut = body.rfind(b"</body>")
        head, tail = (body[:cut], body[cut:]) if cut >= 0 else (body, b"")
        block = _PADDING_BLOCK.encode()
        blocks = max(1, math.ceil((config.oversize_bytes - len(body) + 1) / len(block)))
        self._note("200 oversized" + ("" if announced else " unannounced"))
        if announced:
            self._headers(200, content_type, len(body) + blocks * len(block), {})
        else:  # no length: the body ends when the connection does
            self._headers(200, content_type, None, {"Connection": "close"})
            self.close_connection = True
        for chunk in (head, *(block for _ in range(blocks)), tail):
            if not self._write(chunk):
                return

    def _wrong_charset(self, body: bytes, content_type: str, latin_body: bool) -> None:
        """windows-1252 bytes declared utf-8 (`latin_body`), or utf-8 bytes declared windows-1252."""
        if latin_body:
            data = body.decode("utf-8").encode("cp1252", errors="xmlcharrefreplace")
            return self._send(200, data, f"{content_type}; charset=utf-8", "200 charset cp1252-as-utf-8")
        return self._send(200, body, f"{content_type}; charset=windows-1252", "200 charset utf-8-as-cp1252")

    def _write(self, data: bytes) -> bool:
        """Write and flush; False (and the answer amended) when the client has hung up, as a crawler
        cancelling an oversized body does."""
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:
            self._faults._amend(self._path, self._noted, ", client left")
            self.close_connection = True
            return False
        return True
