"""Page items for the storage tests, built the way a crawl builds them: `extract` on real pages."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from extraction import ExtractionResult, Rule, extract, text_hash
from extraction.site_models import SiteModelConfig
from records import BlockRecord, PageRecord, site_of
from records.pages import block_keys

FETCHED_AT = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def to_item(result: ExtractionResult, url: str, raw_html_bytes: int, cluster: str = "template") -> PageRecord:
    """A `PageRecord` from an extraction result, with the fields the clustering and noise pipelines add."""
    shape_max_chars = SiteModelConfig().shape_max_chars
    keys = block_keys(result, shape_max_chars)
    item = PageRecord.of(result, url, site_of(url), 200, raw_html_bytes, FETCHED_AT, keys)
    item.cluster = cluster
    item.content_hash = text_hash(result.text)
    return item


def page_item(path: Path, url: str, cluster: str = "template") -> PageRecord:
    """Extract the page at `path` as if fetched from `url`."""
    body = path.read_bytes()
    return to_item(extract(body, url=url), url, len(body), cluster)


def whizzy_items(shared_dir: Path, limit: int) -> list[PageRecord]:
    """Up to `limit` pages of the whizzy site (sorted paths), served from http://127.0.0.1:8000/."""
    root = shared_dir / "sites" / "whizzy"
    paths = sorted(root.rglob("*.html"))[:limit]
    return [page_item(path, "http://127.0.0.1:8000/" + path.relative_to(root).as_posix()) for path in paths]


def make_item(
    url: str, blocks: Sequence[tuple[str, str]], title: str = "A page", cluster: str = "template"
) -> PageRecord:
    """A hand-written page: `blocks` are (text, label) pairs in page order; noise keeps its text, to show
    that storage drops it."""
    records = [
        BlockRecord(
            position=position,
            hash=text_hash(text),
            label=label,
            rule=Rule.CONTENT_AREA if label == "content" else Rule.NOISE_SCORE,
            path=f"/html/body/div/p[{position + 1}]",
            kind="paragraph",
            text=text,
        )
        for position, (text, label) in enumerate(blocks)
    ]
    visible = "\n".join(text for text, _ in blocks)
    return PageRecord(
        url=url,
        site=site_of(url),
        status=200,
        fetched_at=FETCHED_AT,
        title=title,
        encoding="utf-8",
        raw_html_bytes=10 * len(visible.encode("utf-8")),
        visible_text_bytes=len(visible.encode("utf-8")),
        blocks=records,
        cluster=cluster,
    )


def fixture_items(fixtures_dir: Path) -> list[PageRecord]:
    """The four trimmed real pages of tests/fixtures, on four sites."""
    return [
        page_item(path, f"https://{path.stem.replace('_', '-')}.test/page")
        for path in sorted(fixtures_dir.glob("*.html"))
    ]
