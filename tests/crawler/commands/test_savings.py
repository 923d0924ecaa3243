"""`scrapy savings`, run as a user runs it: in the project directory, on a store filled by `store_pages`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from pipelines.storage import make_engine, migrate, session_factory, store_pages
from pipelines.storage.baseline import BaselineStore
from pipelines.storage.models import store_size
from pipelines.storage.sizes import savings_by_site
from tests.pipelines.items import fixture_items, whizzy_items

REPO_ROOT = Path(__file__).resolve().parents[3]


def savings(database_url: str, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scrapy", "savings", "-s", f"DATABASE_URL={database_url}", *options]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)


def fill(database_url: str, fixtures_dir: Path, shared_dir: Path) -> None:
    engine = make_engine(database_url)
    migrate(engine)
    with session_factory(engine).begin() as session:
        store_pages(session, fixture_items(fixtures_dir) + whizzy_items(shared_dir, 30))
    engine.dispose()


def figure(line: str) -> int:
    return int(re.search(r"([\d,]+) bytes", line).group(1).replace(",", ""))  # type: ignore[union-attr]


def test_savings_prints_a_row_per_site_and_a_total(
    database_url: str, fixtures_dir: Path, shared_dir: Path
) -> None:
    fill(database_url, fixtures_dir, shared_dir)
    proc = savings(database_url)
    assert proc.returncode == 0, proc.stderr
    engine = make_engine(database_url)
    with session_factory(engine)() as session:
        rows = savings_by_site(session)  # as the command measured the store
        parts = dict(session.execute(select(store_size.c.part, store_size.c.bytes)).all())
    engine.dispose()
    lines = proc.stdout.splitlines()
    table = lines[lines.index(next(line for line in lines if line.startswith("site "))) :]
    for row, line in zip(rows, table[2:], strict=False):
        cells = line.split()
        assert cells[:6] == [
            row.site,
            f"{row.pages:,}",
            f"{row.raw_html_bytes:,}",
            f"{row.visible_text_bytes:,}",
            f"{row.clean_text_bytes:,}",
            f"{row.stored_bytes:,}",
        ]
        assert cells[6] == f"{100 * row.stored_bytes / row.raw_html_bytes:.1f}%"
    total = next(line for line in lines if line.startswith("total")).split()
    assert total[1] == f"{sum(row.pages for row in rows):,}"
    assert parts and sum(parts.values()) > 0


def test_the_parts_add_up_to_the_file_on_disk(tmp_path: Path, fixtures_dir: Path, shared_dir: Path) -> None:
    database = tmp_path / "store.db"
    fill(f"sqlite:///{database}", fixtures_dir, shared_dir)
    proc = savings(f"sqlite:///{database}")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    on_disk = figure(next(line for line in lines if line.strip().startswith("on disk")))
    summed = figure(next(line for line in lines if line.strip().startswith("sum of the parts")))
    files = [database, database.with_name(database.name + "-wal")]
    assert on_disk == sum(path.stat().st_size for path in files if path.exists())  # what ls -l shows
    assert abs(on_disk - summed) <= 0.05 * on_disk
    assert "an empty store" in proc.stdout


def test_savings_against_a_baseline_and_as_a_plot(
    tmp_path: Path, fixtures_dir: Path, shared_dir: Path
) -> None:
    database, baseline = tmp_path / "store.db", tmp_path / "baseline.db"
    fill(f"sqlite:///{database}", fixtures_dir, shared_dir)
    store = BaselineStore(f"sqlite:///{baseline}")
    items = fixture_items(fixtures_dir) + whizzy_items(shared_dir, 30)
    store.write([(item.url, "\n".join(block.text for block in item.blocks)) for item in items])
    store.close()
    plot = tmp_path / "savings.svg"
    proc = savings(f"sqlite:///{database}", "--baseline", f"sqlite:///{baseline}", "--plot", str(plot))
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"cleancrawl's store is [\d.]+% of the baseline store", proc.stdout)
    svg = plot.read_text()
    assert svg.startswith("<svg") and "127.0.0.1:8000" in svg and "baseline store" in svg


def test_savings_on_a_database_without_a_crawl_says_so(database_url: str) -> None:
    migrate(database_url)
    proc = savings(database_url)
    assert proc.returncode == 0, proc.stderr
    assert "No pages stored yet." in proc.stdout


def test_a_missing_store_is_one_line_and_an_error(tmp_path: Path) -> None:
    proc = savings(f"sqlite:///{tmp_path / 'none.db'}")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert "no such database" in proc.stderr
    assert not (tmp_path / "none.db").exists()


def test_bad_urls_and_paths_are_one_line_and_an_error(tmp_path: Path) -> None:
    # Issue 15 rows 9 and 10: a mistyped store is not created; a bad URL was a traceback.
    for url, message in [
        (f"sqlite:///{tmp_path / 'mistyped.db'}", f"no such database: {tmp_path / 'mistyped.db'}"),
        ("sqlite-ish:///x.db", "bad database URL 'sqlite-ish:///x.db'"),
        ("not a url", "bad database URL 'not a url'"),
        ("postgresql+psycopg://postgres@127.0.0.1:9/test", "cannot open postgresql"),
    ]:
        proc = savings(url)
        assert proc.returncode == 2
        assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]  # one line
        assert proc.stderr.startswith("scrapy savings: ") and message in proc.stderr
    assert not (tmp_path / "mistyped.db").exists()
    for options, message in [
        (("--plot",), "argument --plot: expected one argument"),
        (("extra",), "no arguments"),
    ]:
        proc = savings(f"sqlite:///{tmp_path / 'x.db'}", *options)
        assert proc.returncode == 2 and proc.stderr.startswith("scrapy savings: ") and message in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1


def test_an_unwritable_plot_is_one_line(tmp_path: Path, fixtures_dir: Path, shared_dir: Path) -> None:
    database = tmp_path / "store.db"
    fill(f"sqlite:///{database}", fixtures_dir, shared_dir)
    proc = savings(f"sqlite:///{database}", "--plot", str(tmp_path / "missing" / "plot.svg"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        f"scrapy savings: cannot write the plot to {tmp_path / 'missing' / 'plot.svg'}: "
        f"no such directory: {tmp_path / 'missing'}"
    )
