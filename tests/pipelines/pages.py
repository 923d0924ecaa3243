"""Page records built the way the spider builds them, from real pages of the test sites."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse

from crawler.spiders.site import page_record
from crawler.worker_process import extracted
from extraction.methods.registry import DEFAULT_METHOD, get_method
from extraction.site_models import SiteModelConfig
from records import PageRecord, site_of

PYTHON_DOCS = Path("/usr/share/doc/python3.11/html")
WHIZZY_POSTS = (
    "2014/02/04/raspberry-pi-powered-heating-controller-part-4/index.html",
    "2009/05/08/absolute-beginners-guide-to-google-maps-javascript/index.html",
)


def whizzy_post_files(shared_dir: Path, count: int) -> list[str]:
    """The first `count` posts of the whizzy ground truth (files under sites/whizzy)."""
    truth = shared_dir / "sites" / "ground_truth" / "whizzy.jsonl"
    if not truth.is_file():
        pytest.skip(f"whizzy ground truth not found at {truth}")
    lines = truth.read_text(encoding="utf-8").splitlines()[:count]
    return [json.loads(line)["file"] for line in lines]


def item_from_file(path: Path, url: str) -> PageRecord:
    """Extract a served file as the spider would and return its item."""
    if not path.is_file():
        pytest.skip(f"{path} is missing")
    headers = {"Content-Type": "text/html"}
    response = HtmlResponse(url, body=path.read_bytes(), headers=headers, request=Request(url))
    shape_max_chars = SiteModelConfig().shape_max_chars
    page = extracted(get_method(DEFAULT_METHOD), response.body, url, None, shape_max_chars, True)
    return page_record(response, url, site_of(url), page)


def whizzy_item(shared_dir: Path, relative: str) -> PageRecord:
    """A whizzy page as served at http://127.0.0.1:8000/<its directory>/."""
    url = "http://127.0.0.1:8000/" + relative.removesuffix("index.html")
    return item_from_file(shared_dir / "sites" / "whizzy" / relative, url)
