"""`scrapy crawl` refuses a bad configuration and a store another crawl holds with one line, before any
request."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipelines.lock import CrawlLock
from pipelines.storage import make_engine

REPO_ROOT = Path(__file__).resolve().parents[3]


def crawl(*settings: str, options: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", "seeds=http://127.0.0.1:9/", *options]
    for setting in settings:
        command += ["-s", setting]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)


def _last_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The one line the command printed (nothing else: Scrapy has not logged its start-up yet)."""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def test_a_bad_setting_is_one_line(tmp_path: Path) -> None:
    store = f"DATABASE_URL=sqlite:///{tmp_path / 'store.db'}"
    for setting, message in [
        ("RECRAWL_INTERVAL=soon", "RECRAWL_INTERVAL: 'soon' is not a duration"),
        ("RECRAWL_POLICY=sometimes", "RECRAWL_POLICY must be one of estimate, adaptive, fixed"),
        ("RECRAWL_TARGET_FRESHNESS=1", "RECRAWL_TARGET_FRESHNESS must be above 0 and below 1"),
        ("EXTRACTION_METHOD=readability", "unknown method 'readability'"),
        ("RECRAWL_NOW=yesterday", "Invalid isoformat string"),
        # Issue 15 row 5: these crawled nothing and exited 0, or were silently ignored.
        ("EXTRACTION_MAX_BLOCKS=-1", "EXTRACTION_MAX_BLOCKS=-1 is out of range: it must be at least 1"),
        ("EXTRACTION_MAX_DOCUMENT_BYTES=0", "EXTRACTION_MAX_DOCUMENT_BYTES=0 is out of range"),
        ("EXTRACTION_SITE_CLUSTER_THRESHOLD=5", "it must be from 0 to 1"),
        ("extraction_max_blocks=10", "unknown setting extraction_max_blocks: setting names are upper case"),
        ("storage_batch_size=10", "did you mean STORAGE_BATCH_SIZE?"),
        ("STORAGE_BATCH_SIZE=0", "STORAGE_BATCH_SIZE=0 is out of range: it must be at least 1"),
        ("CRAWL_LOCK=maybe", "CRAWL_LOCK='maybe' is not a boolean"),
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


def test_a_store_that_cannot_be_opened_is_one_line(tmp_path: Path) -> None:
    # Issue 15 row 10: 130-220 lines of traceback, with the crawl lock on and off.
    for lock in ("True", "False"):
        for url, message in [
            ("sqlite-ish:///x.db", "DATABASE_URL: bad database URL 'sqlite-ish:///x.db'"),
            ("not a url", "DATABASE_URL: bad database URL 'not a url'"),
            (f"sqlite:///{tmp_path}/missing/dir/store.db", f"no such directory: {tmp_path}/missing/dir"),
            ("postgresql+psycopg://postgres@127.0.0.1:9/test", "DATABASE_URL: cannot open postgresql"),
        ]:
            proc = crawl(f"DATABASE_URL={url}", f"CRAWL_LOCK={lock}")
            assert proc.returncode == 2, proc.stderr[-2000:]
            assert _last_line(proc).startswith("scrapy crawl: ") and message in _last_line(proc)
    baseline = crawl(f"DATABASE_URL=sqlite:///{tmp_path / 'store.db'}", "BASELINE_DATABASE_URL=nonsense")
    assert baseline.returncode == 2 and "BASELINE_DATABASE_URL: bad database URL" in _last_line(baseline)


def test_bad_arguments_are_one_line_and_the_traceback_only_with_debug() -> None:
    for options, message in [
        (("-a", "max_pages"), "Invalid -a value, use -a NAME=VALUE"),
        (("-s", "DOWNLOAD_DELAY"), "Invalid -s value, use -s NAME=VALUE"),
        (("other",), "running 'scrapy crawl' with more than one spider is not supported"),
    ]:
        proc = crawl(options=options)
        assert proc.returncode == 2
        assert proc.stderr.strip().splitlines() == [f"scrapy crawl: {message}"]
    debug = crawl("DATABASE_URL=not a url", options=("--loglevel", "DEBUG"))
    assert debug.returncode == 2 and "Traceback" in debug.stderr
    assert debug.stderr.strip().splitlines()[-1].startswith("scrapy crawl: DATABASE_URL: bad database URL")
