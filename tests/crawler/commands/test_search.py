"""`scrapy search`, run as a user runs it, on a store filled by `store_pages`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pipelines.storage import make_engine, migrate, session_factory, store_pages
from tests.pipelines.items import make_item

REPO_ROOT = Path(__file__).resolve().parents[3]


def search(database_url: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "scrapy", "search", *arguments, "-s", f"DATABASE_URL={database_url}"]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False)


def filled(database_url: str) -> str:
    engine = make_engine(database_url)
    migrate(engine)
    pages = [
        make_item(
            "https://bakery.test/rye",
            [("Menu | Contact", "noise"), ("Rye bread with caraway seeds.", "content")],
        ),
        make_item(
            "https://bakery.test/cake",
            [("Menu | Contact", "noise"), ("A cake with no rye at all.", "content")],
        ),
        make_item("https://pastry.test/rye", [("Rye croissants, rye again.", "content")]),
    ]
    with session_factory(engine).begin() as session:
        store_pages(session, pages)
    engine.dispose()
    return database_url


def test_hits_are_ranked_with_their_best_block(database_url: str) -> None:
    proc = search(filled(database_url), "rye bread")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split()[0] == "1." and lines[0].split()[2] == "https://bakery.test/rye"
    assert lines[1].strip() == "[Rye] [bread] with caraway seeds."
    assert len(lines) == 2  # the other pages lack "bread"


def test_a_site_and_a_limit_narrow_the_hits(database_url: str) -> None:
    url = filled(database_url)
    assert search(url, "rye", "-a", "limit=1").stdout.count("https://") == 1
    by_site = search(url, "rye", "-a", "site=pastry.test").stdout
    assert "https://pastry.test/rye" in by_site and "bakery.test" not in by_site


def test_template_words_find_nothing(database_url: str) -> None:
    proc = search(filled(database_url), "menu contact")
    assert proc.returncode == 0
    assert proc.stdout.strip() == "No stored page holds every word of 'menu contact'."


def test_bad_arguments_are_one_line_and_an_error(database_url: str, tmp_path: Path) -> None:
    url = filled(database_url)
    for arguments, message in [
        ((), "search takes one argument"),
        (("rye", "-a", "limit=0"), "limit must be a whole number above 0"),
        (("rye", "-a", "colour=red"), "unknown argument 'colour'"),
    ]:
        proc = search(url, *arguments)
        assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
        assert proc.stderr.strip().splitlines() == [f"scrapy search: {proc.stderr.split(': ', 1)[1].strip()}"]
    missing = search(f"sqlite:///{tmp_path / 'none.db'}", "rye")
    assert missing.returncode == 2 and "no such database" in missing.stderr
    assert not (tmp_path / "none.db").exists()
    bad = search("not a url", "rye")
    assert bad.returncode == 2 and bad.stderr.strip().splitlines() == [
        "scrapy search: bad database URL 'not a url' (ArgumentError: Could not parse SQLAlchemy URL from "
        "given URL string); expected sqlite:///PATH or postgresql+psycopg://USER@HOST:PORT/DB"
    ]
