"""Real pages for the site-model tests: whizzy posts and pages, and Python documentation pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extraction import ExtractionResult, extract
from tests.extraction.site_models.pages import (
    DEBIAN_HANDBOOK,
    GIT_DOCS,
    HEATING_POST,
    LXML_DOCS,
    POSTGRESQL_DOCS,
    PYTHON_DOCS,
    TITLE_ONLY_POST,
)


@pytest.fixture(scope="session")
def whizzy_dir(shared_dir: Path) -> Path:
    path = shared_dir / "sites" / "whizzy"
    if not path.is_dir():
        pytest.skip(f"whizzy pages not found at {path}")
    return path


@pytest.fixture(scope="session")
def whizzy_pages(whizzy_dir: Path) -> dict[str, ExtractionResult]:
    """Every whizzy page (posts, archives, home, redirect stubs), extracted once per session."""
    return {
        str(path.relative_to(whizzy_dir)): extract(path.read_bytes())
        for path in sorted(whizzy_dir.rglob("index.html"))
    }


@pytest.fixture(scope="session")
def whizzy_truth(shared_dir: Path) -> list[dict[str, str]]:
    """The ground truth of the 72 whizzy posts."""
    path = shared_dir / "sites" / "ground_truth" / "whizzy.jsonl"
    if not path.is_file():
        pytest.skip(f"whizzy ground truth not found at {path}")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="session")
def whizzy_posts(
    whizzy_pages: dict[str, ExtractionResult], whizzy_truth: list[dict[str, str]]
) -> dict[str, ExtractionResult]:
    """Twenty posts of the ground truth, the title-only and the heating-controller posts among them."""
    first = [TITLE_ONLY_POST, HEATING_POST]
    files = first + [row["file"] for row in whizzy_truth if row["file"] not in first]
    return {name: whizzy_pages[name] for name in files[:20]}


@pytest.fixture(scope="session")
def python_docs() -> list[ExtractionResult]:
    """Ten library pages of the Python 3.11 documentation."""
    if not PYTHON_DOCS.is_dir():
        pytest.skip(f"Python docs not installed at {PYTHON_DOCS}")
    paths = sorted((PYTHON_DOCS / "library").glob("*.html"))[:10]
    return [extract(path.read_bytes()) for path in paths]


@pytest.fixture(scope="session")
def forum_threads(shared_dir: Path) -> list[ExtractionResult]:
    """Pages of the oemforum archive (a Drupal forum: each reply titled "Re: <topic>") as a crawl clusters
    them: twenty threads and five topic lists, then the thread `node/4908.html`."""
    path = shared_dir / "sites" / "oemforum"
    if not path.is_dir():
        pytest.skip(f"oemforum pages not found at {path}")
    threads, lists = sorted((path / "node").glob("*.html"))[:20], sorted((path / "forum").glob("*.html"))[:5]
    return [extract(page.read_bytes()) for page in [*threads, *lists, path / "node" / "4908.html"]]


@pytest.fixture(scope="session")
def postgresql_manual() -> list[ExtractionResult]:
    """Sixty pages of the PostgreSQL 15 manual (DocBook: chapters, sections and reference pages on one thin
    template)."""
    if not POSTGRESQL_DOCS.is_dir():
        pytest.skip(f"{POSTGRESQL_DOCS} is missing (make docs-data installs postgresql-doc-15)")
    return [extract(path.read_bytes()) for path in sorted(POSTGRESQL_DOCS.glob("*.html"))[:60]]


@pytest.fixture(scope="session")
def handbook_sections() -> list[ExtractionResult]:
    """Thirty section pages of the Debian Administrator's Handbook (DocBook, Publican), then its section on
    user and group databases, whose side notes (`div.sidebar`) are part of its text."""
    if not DEBIAN_HANDBOOK.is_dir():
        pytest.skip(f"{DEBIAN_HANDBOOK} is missing (make docs-data installs debian-handbook)")
    sections = sorted(DEBIAN_HANDBOOK.glob("sect.*.html"))[:30]
    paths = [*sections, DEBIAN_HANDBOOK / "sect.user-group-databases.html"]
    return [extract(path.read_bytes()) for path in paths]


@pytest.fixture(scope="session")
def git_manual_pages() -> list[ExtractionResult]:
    """Thirty of git's manual pages (AsciiDoc: each page's header holds its headline and its NAME section,
    the one line that says what the command does, beside the content that the sections below hold), then
    `git-add.html`."""
    if not GIT_DOCS.is_dir():
        pytest.skip(f"{GIT_DOCS} is missing (make docs-data installs git-doc)")
    pages = [path for path in sorted(GIT_DOCS.glob("git-*.html")) if path.name != "git-add.html"][:30]
    return [extract(path.read_bytes()) for path in [*pages, GIT_DOCS / "git-add.html"]]


@pytest.fixture(scope="session")
def lxml_manual() -> list[ExtractionResult]:
    """The pages of lxml's manual (docutils, one template whose side menu lists every page by its title),
    its tutorial last."""
    if not LXML_DOCS.is_dir():
        pytest.skip(f"{LXML_DOCS} is missing (make docs-data installs python-lxml-doc)")
    tutorial = LXML_DOCS / "tutorial.html"
    pages = [path for path in sorted(LXML_DOCS.glob("*.html")) if path != tutorial]
    return [extract(path.read_bytes()) for path in [*pages, tutorial]]
