"""`scrapy savings`, run as a user runs it: in the project directory, on a store filled by `store_pages`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipelines.storage import make_engine, migrate, savings_by_site, session_factory, store_pages
from tests.pipelines.items import fixture_items

REPO_ROOT = Path(__file__).resolve().parents[3]


def savings(database_url: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scrapy", "savings", "-s", f"DATABASE_URL={database_url}"]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_savings_prints_a_row_per_site_and_a_total(database_url: str, fixtures_dir: Path) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    sessions = session_factory(engine)
    with sessions.begin() as session:
        store_pages(session, fixture_items(fixtures_dir))
    with sessions() as session:
        rows = savings_by_site(session)
    engine.dispose()
    proc = savings(database_url)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split()[:4] == ["site", "pages", "raw", "HTML"]
    for row, line in zip(rows, lines[2:-2], strict=True):
        assert line.split()[:5] == [
            row.site,
            str(row.pages),
            f"{row.raw_html_bytes:,}",
            f"{row.visible_text_bytes:,}",
            f"{row.stored_bytes:,}",
        ]
        assert line.split()[5] == f"{100 * row.stored_bytes / row.raw_html_bytes:.1f}%"
    total = lines[-1].split()
    assert total[:2] == ["total", str(sum(row.pages for row in rows))]
    assert total[4] == f"{sum(row.stored_bytes for row in rows):,}"


def test_savings_on_a_database_without_a_crawl_says_so(database_url: str) -> None:
    proc = savings(database_url)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("No pages stored yet")
