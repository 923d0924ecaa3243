"""Two crawls of one site into one store at once, without a shared frontier (issue 15 rows 3, 4 and 12).

Each process fetches the whole site. Both must end with exit code 0 and no ERROR in their logs, and every
page must be stored once with one process's clean text: races on SQLite's write lock and on PostgreSQL's
unique URL are waited for or retried, never logged as failures.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from benchmarks.evolving import ChangeClass, EvolvingConfig, EvolvingSite, serve_evolving
from pipelines.storage import make_engine
from tests.crawl_runner import REPO_ROOT, crawl_command, run_crawl
from tests.pipelines.databases import postgres_schema

ARTICLES = 60
STATIC = EvolvingConfig(classes=(ChangeClass("static", 1.0, None),), growth=0, removal=0)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new store: a SQLite file, or a PostgreSQL schema of the test's own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.sqlite'}"
    else:
        yield from postgres_schema()


def _rows(database_url: str) -> list[tuple[str, str]]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT url, text FROM clean_pages ORDER BY url"))
            return [(str(url).split("/", 3)[3], str(value)) for url, value in rows]
    finally:
        engine.dispose()


def test_two_crawls_of_one_store_at_once_store_every_page_once(tmp_path: Path, store: str) -> None:
    site = EvolvingSite(6, ARTICLES, config=STATIC)
    settings = {"DATABASE_URL": store, "CRAWL_LOCK": "False", "RECRAWL_NOW": site.now.isoformat()}
    with serve_evolving(site) as base:
        processes, logs = [], []
        for index in range(2):
            folder = tmp_path / f"process-{index}"
            folder.mkdir()
            command, _ = crawl_command(folder, f"{base}/", settings=settings)
            logs.append(folder / "log.txt")
            with logs[-1].open("wb") as log:
                processes.append(
                    subprocess.Popen(command, cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT)
                )
        codes = [process.wait(timeout=300) for process in processes]
        alone = tmp_path / "alone"
        alone.mkdir()
        reference = run_crawl(alone, f"{base}/", settings={"RECRAWL_NOW": site.now.isoformat()})
    texts = [log.read_text("utf-8", "replace") for log in logs]
    assert codes == [0, 0], "\n".join(log[-3000:] for log in texts)
    assert [line for log in texts for line in log.splitlines() if " ERROR: " in line] == []
    rows = _rows(store)
    urls = [url for url, _ in rows]
    assert len(urls) == len(set(urls))
    live = {*site.paths_at(site.now), *site.listing_paths_at(site.now), "/about/"}
    assert {f"/{url}" for url in urls} == live
    assert reference.returncode == 0
    theirs = dict(_rows(f"sqlite:///{alone / 'db.sqlite'}"))
    articles = [url for url in theirs if url[:2] == "20"]
    assert len(articles) == ARTICLES
    ours = dict(rows)
    assert [url for url in articles if ours[url] != theirs[url]] == []
