"""`benchmarks.crawl --methods`: which methods it crawls with, and the table it prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.crawl import Figures, SiteRow, main, render
from benchmarks.sites import TestSite
from extraction.evaluate.metric import Summary
from extraction.methods.registry import UnknownMethodError


def test_an_unknown_method_stops_the_benchmark_before_any_crawl(tmp_path: Path) -> None:
    with pytest.raises(UnknownMethodError, match="unknown method 'readability'"):
        main(["--shared", str(tmp_path), "--methods", "cetr,readability"])


def test_one_aligned_row_per_method() -> None:
    site = TestSite("whizzy", "blog", Path("whizzy"), "/", Path("whizzy.jsonl"), "test")
    score = Summary(pages=72, f1=0.9, precision=0.9, recall=0.9)
    runs = [Figures(name, 250, 20.0, 100.0, 0.05, 0.4, score) for name in ("cleancrawl", "contentextractor")]
    lines = render([SiteRow(site, runs)]).splitlines()
    assert [line.split()[1] for line in lines[2:]] == ["cleancrawl", "contentextractor"]
    assert len({len(line) for line in lines[2:]}) == 1  # the longest method name fits its column
