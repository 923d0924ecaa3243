"""Load an evaluation dataset (layout of /work/shared/datasets/README.md) fully into memory.

Layout: `html/ID.html` or `html/ID.html.gz` and `ground-truth.json` = `{ID: {"articleBody", "url"}}`;
optional `meta.json` (`{ID: {"page_type", "site", ...}}`), `snippets.json` (`{ID: {"with", "without"}}`)
and `quality_flags.json` (`{ID: ...}`, pages whose ground truth cannot be trusted). A page's site is
meta.json's `site`, else its URL's host: site-level methods learn from the other pages of the same site.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


class DatasetError(Exception):
    """The dataset directory does not follow the expected layout."""


@dataclass(slots=True, frozen=True)
class Page:
    """One page, its HTML decoded as text, its ground truth and optional annotations."""

    page_id: str
    html: str
    truth: str
    url: str | None = None
    page_type: str | None = None
    site: str | None = None
    snippets_with: tuple[str, ...] = ()
    snippets_without: tuple[str, ...] = ()


@dataclass(slots=True, frozen=True)
class Dataset:
    """The pages to evaluate, in ID order, and what was left out."""

    path: Path
    pages: tuple[Page, ...]
    flagged_excluded: int = 0
    has_page_types: bool = False
    has_snippets: bool = False


def load_dataset(path: Path, exclude_flagged: bool = False, limit: int | None = None) -> Dataset:
    """Read ground truth, annotations and every page's HTML; `limit` keeps the first N IDs after exclusion."""
    truth = _read_json(path / "ground-truth.json", required=True)
    meta = _read_json(path / "meta.json")
    snippets = _read_json(path / "snippets.json")
    flagged = set(_read_json(path / "quality_flags.json")) if exclude_flagged else set()
    ids = sorted(truth)
    kept = [page_id for page_id in ids if page_id not in flagged]
    excluded = len(ids) - len(kept)
    if limit is not None:
        kept = kept[:limit]
    pages = tuple(_load_page(path, pid, truth[pid], meta.get(pid, {}), snippets.get(pid, {})) for pid in kept)
    return Dataset(
        path=path,
        pages=pages,
        flagged_excluded=excluded,
        has_page_types=any(page.page_type for page in pages),
        has_snippets=bool(snippets),
    )


def read_html(path: Path) -> str:
    """Page text from `.html` or `.html.gz`, always decoded as UTF-8 (the datasets store UTF-8 whatever the
    page's own `<meta charset>` says); undecodable bytes become U+FFFD rather than aborting the run."""
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def find_html(directory: Path, page_id: str) -> Path:
    """The page file of `page_id`: plain `.html` first, then `.html.gz`."""
    for suffix in (".html", ".html.gz"):
        candidate = directory / "html" / f"{page_id}{suffix}"
        if candidate.is_file():
            return candidate
    raise DatasetError(f"no html/{page_id}.html or html/{page_id}.html.gz in {directory}")


def _load_page(
    directory: Path, page_id: str, truth: dict[str, Any], meta: dict[str, Any], snippets: dict[str, Any]
) -> Page:
    """Build one Page from its file and its entries in the JSON files."""
    return Page(
        page_id=page_id,
        html=read_html(find_html(directory, page_id)),
        truth=str(truth.get("articleBody") or ""),
        url=truth.get("url") or None,
        page_type=meta.get("page_type") or None,
        site=meta.get("site") or _host(truth.get("url")),
        snippets_with=tuple(snippets.get("with") or ()),
        snippets_without=tuple(snippets.get("without") or ()),
    )


def _host(url: str | None) -> str | None:
    """The host of a URL, or None when there is no URL or it has none (or is malformed)."""
    try:
        return urlsplit(url).hostname if url else None
    except ValueError:
        return None


def _read_json(path: Path, required: bool = False) -> dict[str, Any]:
    """A JSON object keyed by page ID; an absent optional file reads as empty."""
    if not path.is_file():
        if required:
            raise DatasetError(f"missing {path}")
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise DatasetError(f"{path} is not valid JSON: {error}") from error
    if not isinstance(data, dict):
        raise DatasetError(f"{path} must hold a JSON object keyed by page ID")
    return data
