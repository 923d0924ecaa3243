"""The public entry point: `extract(html) -> ExtractionResult` (decode, parse, clean, segment, score)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extraction.config import ExtractionConfig
from extraction.features import compute_features
from extraction.prepare import join_reasons, prepare
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
    cut_short = result.reason
    page = segment(body, config)
    result.blocks = page.blocks
    result.hrefs = page.hrefs
    # A parser that stopped early (nesting past its depth limit) lost the rest of the page: say so.
    result.reason = join_reasons(_label(page, result.title, config), cut_short)
    if site_model is not None:
        site_model.apply(result.blocks, result.title)
    return result


def _label(page: Page, title: str, config: ExtractionConfig) -> str:
    """Score and label the blocks of a segmented page; return why nothing was kept, or ""."""
    if not page.blocks:
        return "the page has no visible text"
    compute_features(page.blocks, config)
    area = locate_content(page, config)
    if area is not None:
        join_neighbours(page, area, config)
    label_blocks(page, area, title, config)
    drop_stranded_short_blocks(page.blocks, config)
    if area is None:
        return "no block qualifies as content"
    if page.truncated:
        return f"only the first {config.max_blocks} blocks were read"
    if not any(block.is_content for block in page.blocks):
        # A content area was found but every block in it was set aside (the page title, link lists).
        return "no block of the content area was kept"
    return ""
