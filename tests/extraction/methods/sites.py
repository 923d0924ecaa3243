"""Real page sets for the site-level method tests: whizzy posts (one WordPress template) and aeb by host."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlparse

import pytest

from extraction.evaluate.datasets import find_html, read_html
from extraction.evaluate.metric import PageScore, score_page
from extraction.methods.base import Method, SitePage
from extraction.result import ExtractionResult

# Posts live at YYYY/MM/DD/slug/index.html; archives, tags and the home page do not.
_POST = re.compile(r"^\d{4}/\d\d/\d\d/[^/]+/index\.html$")
WHIZZY_URL = "http://whizzy.test/"


def whizzy_posts(shared_dir: Path) -> dict[str, SitePage]:
    """Every whizzy post by path: the pages of one template, as a crawl's cluster would hold them."""
    root = shared_dir / "sites" / "whizzy"
    if not root.is_dir():
        pytest.skip(f"whizzy pages not found at {root}")
    paths = sorted(path.relative_to(root).as_posix() for path in root.rglob("index.html"))
    return {
        path: SitePage((root / path).read_bytes(), WHIZZY_URL + path.removesuffix("index.html"))
        for path in paths
        if _POST.match(path)
    }


def whizzy_truth(shared_dir: Path) -> dict[str, str]:
    """The main text of the posts that have ground truth, by path."""
    path = shared_dir / "sites" / "ground_truth" / "whizzy.jsonl"
    if not path.is_file():
        pytest.skip(f"whizzy ground truth not found at {path}")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {row["file"]: row["main_text"] for row in rows}


class Extraction(NamedTuple):
    """A method's result on a page, and its score against the page's ground truth."""

    result: ExtractionResult
    score: PageScore


def whizzy_extractions(shared_dir: Path, method: Method[Any], which: slice) -> list[Extraction]:
    """`method` learns every whizzy post (one template), then extracts the posts with ground truth that
    `which` picks, in the ground truth's order."""
    posts = whizzy_posts(shared_dir)
    truth = whizzy_truth(shared_dir)
    method.learn(list(posts.values()))
    extractions = []
    for path in list(truth)[which]:
        result = method.extract(posts[path].html)
        extractions.append(Extraction(result, score_page(truth[path], result.text)))
    return extractions


def aeb_by_host(aeb_dir: Path) -> dict[str, list[tuple[str, SitePage]]]:
    """The aeb pages grouped by host (most hosts have one page, some two), each with its page ID."""
    truth = json.loads((aeb_dir / "ground-truth.json").read_text(encoding="utf-8"))
    hosts: dict[str, list[tuple[str, SitePage]]] = defaultdict(list)
    for page_id, entry in sorted(truth.items()):
        page = SitePage(read_html(find_html(aeb_dir, page_id)), entry.get("url"))
        hosts[urlparse(entry.get("url") or "").netloc].append((page_id, page))
    return hosts
