"""nginx as the benchmarks' static server: serves the files, logs each request, stops cleanly."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from benchmarks import nginx
from benchmarks.nginx import (
    INSTALL_HINT,
    NginxNotInstalledError,
    nginx_available,
    parse_access_log,
    render_config,
    serve_nginx,
)

requires_nginx = pytest.mark.skipif(not nginx_available(), reason=INSTALL_HINT)


@pytest.fixture
def docroot(tmp_path: Path) -> Path:
    root = tmp_path / "www"
    (root / "a").mkdir(parents=True)
    (root / "index.html").write_text("<html><body><p>home – café</p></body></html>", "utf-8")
    (root / "a" / "index.html").write_text("<html><body><p>page a</p></body></html>", "utf-8")
    (root / "style.css").write_text("body{margin:0}", "utf-8")
    return root


def _get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("Content-Type", "")


@requires_nginx
def test_serves_the_files_and_logs_every_request(docroot: Path, tmp_path: Path) -> None:
    log = tmp_path / "logs" / "access.log"
    with serve_nginx(docroot, access_log=log) as base:
        assert base.startswith("http://127.0.0.1:")
        status, body, content_type = _get(base + "/")
        assert (status, body) == (200, (docroot / "index.html").read_bytes())
        assert content_type == "text/html; charset=utf-8"
        assert _get(base + "/a")[:2] == (200, (docroot / "a" / "index.html").read_bytes())  # via 301 to /a/
        assert _get(base + "/a/")[0] == 200
        assert _get(base + "/style.css")[2].startswith("text/css")
        assert _get(base + "/missing/")[0] == 404
    counts = parse_access_log(log)
    assert counts.per_path == {"/": 1, "/a": 1, "/a/": 2, "/style.css": 1, "/missing/": 1}
    assert counts.per_status == {200: 4, 301: 1, 404: 1}
    assert counts.per_path_status["/a", 301] == 1
    assert counts.duplicates() == {"/a/": 2}
    assert counts.readmitted() == {"/a/": 2}
    assert counts.requests == 6
    assert counts.bytes_sent >= 2 * (docroot / "a" / "index.html").stat().st_size


@requires_nginx
def test_stops_when_the_context_ends(docroot: Path) -> None:
    with serve_nginx(docroot) as base:
        port = urlsplit(base).port
        assert _get(base + "/")[0] == 200
    assert port is not None
    with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), timeout=2):
        pass


@requires_nginx
def test_many_concurrent_clients(docroot: Path) -> None:
    with serve_nginx(docroot) as base, ThreadPoolExecutor(32) as pool:
        statuses = list(pool.map(lambda i: _get(f"{base}/a/?i={i}")[0], range(640)))
    assert statuses == [200] * 640


@requires_nginx
def test_two_servers_at_once(docroot: Path) -> None:
    with serve_nginx(docroot) as first, serve_nginx(docroot) as second:
        assert first != second
        assert _get(first + "/")[1] == _get(second + "/")[1]


def test_a_missing_nginx_is_one_clear_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(nginx, "_EXTRA_PATH", ())
    with pytest.raises(NginxNotInstalledError) as raised, serve_nginx(tmp_path):
        pass
    assert str(raised.value) == "nginx is not installed (apt-get install nginx)"


def test_the_configuration_keeps_every_runtime_file_in_the_prefix(tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    config = render_config(tmp_path / "www", prefix, 8123, access_log=tmp_path / "access.log")
    assert "daemon off;" in config
    assert "listen 127.0.0.1:8123" in config
    assert f"pid {prefix / 'nginx.pid'};" in config
    assert f"error_log {prefix / 'error.log'}" in config
    assert config.count(str(prefix)) == 7  # pid, error log and five temp paths
    assert f"access_log {tmp_path / 'access.log'} requests;" in config
    assert "/etc/" not in config and "/var/" not in config
    assert "access_log off;" in render_config(tmp_path, prefix, 8123)


def test_parse_access_log_skips_cut_lines(tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_text("200 10 GET /a b\n200 5 GET /x\n404 0\n503 0 GET /x\n", "utf-8")
    counts = parse_access_log(log)
    assert counts.per_path == {"/a b": 1, "/x": 2}
    assert counts.per_status == {200: 2, 503: 1}
    assert counts.readmitted() == {}
