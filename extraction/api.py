"""The public entry point: `extract(html) -> ExtractionResult` (decode, parse, clean, segment, score)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from extraction.config import ExtractionConfig
from extraction.features import compute_features
from extraction.prepare import prepare, result_reason, truncated
from extraction.result import ExtractionResult
from extraction.revise import drop_stranded_short_blocks, join_neighbours
from extraction.scoring import label_blocks, locate_content
from extraction.segment import Page, segment

if TYPE_CHECKING:
    from extraction.site_models import SiteModel

_DEFAULT_CONFIG = ExtractionConfig()


def extract(
    html: str | bytes,
    url: str | None = None,
    config: ExtractionConfig | None = None,
    encoding: str | None = None,
    site_model: SiteModel | None = None,
) -> ExtractionResult:
    """Segment one page into blocks and label each informative or noise.

    `encoding` is the charset hint of the HTTP response, used when the bytes carry no BOM and are not
    valid UTF-8. `site_model`, the model of the page's cluster, revises the labels once it is ready; it
    does not learn from the page (the caller decides what it observes). Raises an `ExtractionError`
    subclass for empty, binary or oversized input.
    """
    config = config or _DEFAULT_CONFIG
    prepared = prepare(html, url, config, encoding)
    result, body = prepared.result, prepared.body
    if body is None:
        return result
    label_prepared(result, body, config)
    if site_model is not None:
        site_model.apply(result.blocks, result.title)
    return result


def label_prepared(result: ExtractionResult, body: etree._Element, config: ExtractionConfig) -> None:
    """Segment a prepared page's cleaned body and label its blocks into `result` (what `extract` does after
    `extraction.prepare`)."""
    page = segment(body, config)
    result.blocks = page.blocks
    result.hrefs = page.hrefs
    result.href_blocks = page.href_blocks
    result.href_texts = page.href_texts
    # A parser that stopped early (nesting past its depth limit) left its note in the reason: it stays.
    nothing_kept = _label(page, result.title, config)
    result.reason = result_reason(
        page.blocks, nothing_kept, truncated(page.truncated, config.max_blocks), result.reason
    )


def _label(page: Page, title: str, config: ExtractionConfig) -> str:
    """Score and label the blocks of a segmented page; return what to say if none is content."""
    if not page.blocks:
        return ""
    compute_features(page.blocks, config)
    area = locate_content(page, config, title)
    if area is not None:
        join_neighbours(page, area, config)
    label_blocks(page, area, title, config)
    drop_stranded_short_blocks(page.blocks, config)
    if area is None:
        return "no block qualifies as content"
    # A content area was found but every block in it was set aside (the page title, link lists).
    return "no block of the content area was kept"
