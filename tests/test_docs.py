"""The documentation names everything a user can set, choose, read or run (after sqlite-utils' test_docs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from crawler import default_settings
from crawler.spiders import site
from extraction import errors
from extraction.methods.registry import METHODS
from pipelines.config import setting_names
from records import stats

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = REPO_ROOT / "docs"


def _text(name: str) -> str:
    return (DOCS / name).read_text("utf-8")


def _documented(name: str, page: str) -> bool:
    return f"`{name}`" in _text(page)


@pytest.mark.parametrize("name", [name for name in dir(default_settings) if name.isupper()])
def test_every_crawl_setting_is_documented(name: str) -> None:
    assert _documented(name, "settings.md")


@pytest.mark.parametrize("name", setting_names())
def test_every_extraction_setting_is_documented(name: str) -> None:
    assert _documented(name, "settings.md")


@pytest.mark.parametrize("name", list(METHODS))
def test_every_method_is_documented(name: str) -> None:
    assert _documented(name, "methods.md")


@pytest.mark.parametrize(
    "key", [value for name, value in vars(stats).items() if name.isupper() and name != "PREFIX"]
)
def test_every_stat_is_documented(key: str) -> None:
    placeholders = {stats.SKIPPED_PREFIX: "/<reason>", stats.TRAPPED_PREFIX: "/<guard>"}
    documented = key.removesuffix("/") + placeholders.get(key, "")
    if key == stats.METHOD_PREFIX:
        documented = stats.METHOD_LEARNINGS
    assert _documented(documented, "crawling.md")


def test_every_skip_reason_the_spider_counts_is_documented() -> None:
    source = (REPO_ROOT / "crawler" / "spiders" / "site.py").read_text("utf-8")
    reasons = set(re.findall(r'self\._skip\(\s*"(\w+)"', source))
    reasons |= {reason for _, reason in (*site._ERROR_REASONS, *site._IGNORED_REASONS)}
    kinds = [error for error in vars(errors).values() if isinstance(error, type) and hasattr(error, "kind")]
    reasons |= {error.kind for error in kinds}
    assert len(reasons) > 10
    assert {reason for reason in reasons if not _documented(reason, "crawling.md")} == set()


@pytest.mark.parametrize("path", sorted((REPO_ROOT / "crawler" / "commands").glob("[!_]*.py")))
def test_every_command_is_documented(path: Path) -> None:
    assert f"scrapy {path.stem}" in _text("crawling.md")


def test_every_make_target_is_documented() -> None:
    makefile = (REPO_ROOT / "Makefile").read_text("utf-8")
    targets = re.search(r"^\.PHONY: (.+)$", makefile, re.MULTILINE)
    assert targets
    documented = (REPO_ROOT / "README.md").read_text("utf-8") + "".join(
        path.read_text("utf-8") for path in DOCS.glob("*.md")
    )
    assert [target for target in targets.group(1).split() if f"make {target}" not in documented] == []


@pytest.mark.parametrize("page", [REPO_ROOT / "README.md", *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name)
def test_links_between_pages_resolve(page: Path) -> None:
    links = re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", page.read_text("utf-8"))
    assert [link for link in links if not (page.parent / link).is_file()] == []
