"""Loading a dataset built in tmp_path from three real aeb pages (read from the shared data at test time)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from extraction.evaluate.datasets import DatasetError, load_dataset

PAGE_COUNT = 3


def make_dataset(aeb: Path, target: Path, gzipped: bool) -> list[str]:
    """Copy the first three aeb pages into `target` as `.html` or `.html.gz`; return their IDs."""
    truth = json.loads((aeb / "ground-truth.json").read_text(encoding="utf-8"))
    ids = sorted(truth)[:PAGE_COUNT]
    (target / "html").mkdir(parents=True)
    for page_id in ids:
        data = gzip.decompress((aeb / "html" / f"{page_id}.html.gz").read_bytes())
        name = f"{page_id}.html.gz" if gzipped else f"{page_id}.html"
        (target / "html" / name).write_bytes(gzip.compress(data) if gzipped else data)
    subset = {page_id: truth[page_id] for page_id in ids}
    (target / "ground-truth.json").write_text(json.dumps(subset), encoding="utf-8")
    return ids


def add_annotations(target: Path, ids: list[str]) -> None:
    """Add meta.json (two page types), snippets.json and a quality flag on the last page."""
    types = ["listing", "article", "article"]
    meta = {page_id: {"site": "example", "page_type": kind} for page_id, kind in zip(ids, types, strict=True)}
    (target / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    snippets = {ids[0]: {"with": ["a"], "without": ["Subscribe"]}}
    (target / "snippets.json").write_text(json.dumps(snippets), encoding="utf-8")
    (target / "quality_flags.json").write_text(json.dumps({ids[-1]: {"note": "test"}}), encoding="utf-8")


def test_plain_and_gzipped_pages_load_the_same(aeb_dir: Path, tmp_path: Path) -> None:
    ids = make_dataset(aeb_dir, tmp_path / "plain", gzipped=False)
    make_dataset(aeb_dir, tmp_path / "gz", gzipped=True)
    plain = load_dataset(tmp_path / "plain")
    gz = load_dataset(tmp_path / "gz")
    assert [page.page_id for page in plain.pages] == ids
    assert plain.pages == gz.pages
    for page in plain.pages:
        assert "<" in page.html and page.truth and page.url and page.url.startswith("http")
    assert not plain.has_page_types and not plain.has_snippets and plain.flagged_excluded == 0


def test_annotations_flags_and_limit(aeb_dir: Path, tmp_path: Path) -> None:
    ids = make_dataset(aeb_dir, tmp_path, gzipped=True)
    add_annotations(tmp_path, ids)
    everything = load_dataset(tmp_path)
    assert len(everything.pages) == PAGE_COUNT and everything.flagged_excluded == 0
    assert [page.page_type for page in everything.pages] == ["listing", "article", "article"]
    assert everything.pages[0].snippets_with == ("a",) and everything.pages[1].snippets_without == ()
    assert everything.has_page_types and everything.has_snippets

    kept = load_dataset(tmp_path, exclude_flagged=True)
    assert [page.page_id for page in kept.pages] == ids[:-1] and kept.flagged_excluded == 1
    limited = load_dataset(tmp_path, exclude_flagged=True, limit=1)
    assert [page.page_id for page in limited.pages] == ids[:1] and limited.flagged_excluded == 1


def test_missing_page_file_is_a_dataset_error(aeb_dir: Path, tmp_path: Path) -> None:
    ids = make_dataset(aeb_dir, tmp_path, gzipped=False)
    (tmp_path / "html" / f"{ids[1]}.html").unlink()
    with pytest.raises(DatasetError, match=ids[1]):
        load_dataset(tmp_path)


def test_missing_ground_truth_is_a_dataset_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"ground-truth\.json"):
        load_dataset(tmp_path)


def test_a_pages_site_is_meta_jsons_else_its_urls_host(aeb_dir: Path, tmp_path: Path) -> None:
    ids = make_dataset(aeb_dir, tmp_path, gzipped=True)
    hosts = [page.site for page in load_dataset(tmp_path).pages]
    assert all(host and "/" not in host for host in hosts)
    assert hosts == [urlsplit(page.url or "").hostname for page in load_dataset(tmp_path).pages]
    add_annotations(tmp_path, ids)
    assert {page.site for page in load_dataset(tmp_path).pages} == {"example"}
