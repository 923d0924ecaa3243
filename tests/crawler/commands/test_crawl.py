"""`scrapy crawl` refuses a bad configuration and a store another crawl holds with one line, before any
request."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipelines.lock import CrawlLock
from pipelines.storage import make_engine

REPO_ROOT = Path(__file__).resolve().parents[3]


def crawl(*settings: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", "seeds=http://127.0.0.1:9/"]
    for setting in settings:
        command += ["-s", setting]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)


def _last_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.stderr.strip().splitlines()[-1]


def test_a_bad_setting_is_one_line(tmp_path: Path) -> None:
    store = f"DATABASE_URL=sqlite:///{tmp_path / 'store.db'}"
    for setting, message in [
        ("RECRAWL_INTERVAL=soon", "RECRAWL_INTERVAL: 'soon' is not a duration"),
        ("RECRAWL_POLICY=sometimes", "RECRAWL_POLICY must be adaptive or fixed"),
        ("EXTRACTION_METHOD=readability", "unknown method 'readability'"),
        ("RECRAWL_NOW=yesterday", "Invalid isoformat string"),
    ]:
        proc = crawl(store, setting)
        assert proc.returncode == 2, proc.stderr
        assert _last_line(proc).startswith("scrapy crawl: ") and message in _last_line(proc)


def test_a_store_another_crawl_holds_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "store.db"
    engine = make_engine(f"sqlite:///{database}")
    lock = CrawlLock.acquire(engine)
    try:
        proc = crawl(f"DATABASE_URL=sqlite:///{database}")
    finally:
        lock.release()
        engine.dispose()
    assert proc.returncode == 2
    assert f"another crawl is running on {database}: pid " in _last_line(proc)
