"""Serve a directory with a real nginx on 127.0.0.1, so that the server is never the crawl's bottleneck.

`serve_nginx(root)` writes its own ``nginx.conf`` into a temporary prefix (pid file, error log, temp paths
all there), starts ``nginx -p PREFIX -c CONF`` in the foreground (``daemon off``) as a child process on a
free port, waits until it answers and stops it when the context ends. It needs no root and touches no
system configuration. With `access_log`, nginx writes one line per request (status, bytes, method, path)
that `parse_access_log` turns into counts, so a benchmark can tell how often each path was fetched.

nginx is a tool of the benchmarks, not a dependency of the project: without it, `NginxNotInstalledError`
says how to install it.
"""

from __future__ import annotations

import grp
import http.client
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.localserver import serve_directory

INSTALL_HINT = "nginx is not installed (apt-get install nginx)"
# Debian puts nginx in /usr/sbin, which is not on every user's PATH.
_EXTRA_PATH = ("/usr/sbin", "/usr/local/sbin", "/usr/local/nginx/sbin")
_START_TIMEOUT = 10.0
READY_PATH = "/__cleancrawl_ready__"  # the start-up probe's path: answered 204 and kept out of the log
# One line per request; the path comes last, as it is the only field that may hold spaces (escaped by nginx).
_LOG_FORMAT = "$status $body_bytes_sent $request_method $request_uri"
_MIME_TYPES = {
    "text/html": "html htm",
    "text/css": "css",
    "text/plain": "txt",
    "application/javascript": "js",
    "application/json": "json",
    "image/svg+xml": "svg",
    "image/png": "png",
    "image/jpeg": "jpg jpeg",
    "application/xml": "xml",
}


class NginxNotInstalledError(RuntimeError):
    """No nginx binary on this machine."""


class NginxStartError(RuntimeError):
    """nginx exited or did not answer in time; the message holds the end of its error log."""


def nginx_binary() -> str:
    """The path of the nginx binary, or `NginxNotInstalledError` with the one line that installs it."""
    search = os.pathsep.join([os.environ.get("PATH", ""), *_EXTRA_PATH])
    found = shutil.which("nginx", path=search)
    if found is None:
        raise NginxNotInstalledError(INSTALL_HINT)
    return found


def nginx_available() -> bool:
    """Whether nginx is installed."""
    try:
        nginx_binary()
    except NginxNotInstalledError:
        return False
    return True


def render_config(
    root: Path, prefix: Path, port: int, access_log: Path | None = None, workers: int | str = 1
) -> str:
    """The nginx.conf that serves `root` on 127.0.0.1:`port`, every runtime file under `prefix`."""
    types = "".join(f"        {mime} {extensions};\n" for mime, extensions in _MIME_TYPES.items())
    temp_paths = "".join(
        f"    {name}_temp_path {prefix / (name + '_temp')};\n"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    logging = f"access_log {access_log} requests;" if access_log else "access_log off;"
    return f"""# Written by benchmarks/nginx.py: a throwaway static server for one benchmark run.
daemon off;
{_user_directive()}worker_processes {workers};
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;
events {{
    worker_connections 4096;
}}
http {{
    types {{
{types}    }}
    default_type application/octet-stream;
    charset utf-8;
{temp_paths}    log_format requests '{_LOG_FORMAT}';
    {logging}
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    # A crawler keeps its connections and sends thousands of requests on each.
    keepalive_timeout 65;
    keepalive_requests 100000;
    open_file_cache max=10000 inactive=60s;
    server {{
        listen 127.0.0.1:{port} backlog=1024;
        server_name localhost;
        root {root};
        index index.html;
        # Relative Location headers for directory redirects (/a -> /a/), whatever the port.
        absolute_redirect off;
        location / {{
            try_files $uri $uri/ =404;
        }}
        location = {READY_PATH} {{
            access_log off;
            return 204;
        }}
    }}
}}
"""


def _user_directive() -> str:
    # As root, nginx runs its workers as "nobody", who may not read files under a private temp folder.
    if os.geteuid() != 0:
        return ""
    return f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};\n"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (nginx binds it a moment later; `serve_nginx` retries a clash)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve_nginx(root: Path, access_log: Path | None = None, workers: int | str = 1) -> Iterator[str]:
    """Serve `root` with nginx on 127.0.0.1, a free port; yields the base URL (no trailing slash).

    `workers` is nginx's ``worker_processes`` (1 serves tens of thousands of small files a second;
    "auto" takes one per core). With `access_log`, every request is appended there as
    ``STATUS BYTES METHOD PATH`` (see `parse_access_log`).
    """
    binary = nginx_binary()
    root = root.resolve()
    if access_log is not None:
        access_log = access_log.resolve()
        access_log.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cleancrawl-nginx-") as temp:
        prefix = Path(temp)
        process, port = _start(binary, root, prefix, access_log, workers)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            _stop(process)


def _start(
    binary: str, root: Path, prefix: Path, access_log: Path | None, workers: int | str
) -> tuple[subprocess.Popen[bytes], int]:
    """Start nginx on a free port; a port taken between the probe and nginx's bind is tried again."""
    for attempt in range(3):
        port = free_port()
        config = prefix / "nginx.conf"
        config.write_text(render_config(root, prefix, port, access_log, workers), "utf-8")
        command = [binary, "-p", str(prefix), "-c", str(config), "-e", str(prefix / "error.log")]
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        try:
            _wait_until_ready(process, port, prefix)
        except NginxStartError as error:
            _stop(process)
            if "Address already in use" in str(error) and attempt < 2:
                continue
            raise
        return process, port
    raise AssertionError("unreachable")


def _wait_until_ready(process: subprocess.Popen[bytes], port: int, prefix: Path) -> None:
    """Poll until nginx answers an HTTP request; raise with its error log if it exits or takes too long."""
    deadline = time.monotonic() + _START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise NginxStartError(f"nginx exited with {process.returncode}: {_error_tail(prefix)}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("HEAD", READY_PATH)
            connection.getresponse().read()
            connection.close()
            return
        except OSError:
            time.sleep(0.02)
    raise NginxStartError(f"nginx did not answer within {_START_TIMEOUT:.0f} s: {_error_tail(prefix)}")


def _error_tail(prefix: Path) -> str:
    log = prefix / "error.log"
    return log.read_text("utf-8", errors="replace")[-2000:].strip() if log.exists() else "(no error log)"


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Fast shutdown (SIGTERM to the master stops its workers too); kill if it lingers."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass(slots=True)
class AccessCounts:
    """What an access log says: requests per path, per status, and per (path, status)."""

    per_path: Counter[str] = field(default_factory=Counter)
    per_status: Counter[int] = field(default_factory=Counter)
    per_path_status: Counter[tuple[str, int]] = field(default_factory=Counter)
    bytes_sent: int = 0

    @property
    def requests(self) -> int:
        """All requests logged."""
        return sum(self.per_status.values())

    def duplicates(self) -> dict[str, int]:
        """Paths fetched more than once, with their counts."""
        return {path: count for path, count in self.per_path.items() if count > 1}

    def readmitted(self, status: int = 200) -> dict[str, int]:
        """Paths answered `status` more than once: fetches a crawler could have avoided."""
        return {path: n for (path, code), n in self.per_path_status.items() if code == status and n > 1}


def parse_access_log(path: Path) -> AccessCounts:
    """Count the lines of an access log written by `serve_nginx` (``STATUS BYTES METHOD PATH``)."""
    counts = AccessCounts()
    with path.open(encoding="utf-8", errors="replace") as log:
        for line in log:
            fields = line.rstrip("\n").split(" ", 3)
            if len(fields) != 4:
                continue  # a line cut by a crash; nothing to count
            status, size, _, request_path = fields
            counts.per_path[request_path] += 1
            counts.per_status[int(status)] += 1
            counts.per_path_status[request_path, int(status)] += 1
            counts.bytes_sent += int(size)
    return counts


def serve_site(root: Path) -> AbstractContextManager[str]:
    """Serve `root` on 127.0.0.1: nginx when installed (never the bottleneck), else `http.server`."""
    return serve_nginx(root, workers="auto") if nginx_available() else serve_directory(root)
