"""The public entry point: `extract(html) -> ExtractionResult` (decode, parse, clean, segment, score)."""

from __future__ import annotations

from extraction.config import ExtractionConfig
from extraction.decode import decode_html
from extraction.dom import clean_tree, page_title, parse_html
from extraction.errors import DocumentTooLargeError
from extraction.features import compute_features
from extraction.result import ExtractionResult
from extraction.revise import join_neighbours
from extraction.scoring import label_blocks, locate_content
from extraction.segment import segment

_DEFAULT_CONFIG = ExtractionConfig()
_UTF8_BOM = b"\xef\xbb\xbf"


def extract(
    html: str | bytes,
    url: str | None = None,
    config: ExtractionConfig | None = None,
    encoding: str | None = None,
) -> ExtractionResult:
    """Segment one page into blocks and label each informative or noise.

    `encoding` is the charset hint of the HTTP response, used when the bytes carry no BOM and are not
    valid UTF-8. Raises an `ExtractionError` subclass for empty, binary or oversized input.
    """
    config = config or _DEFAULT_CONFIG
    if len(html) > config.max_document_bytes:
        raise DocumentTooLargeError(
            f"the document has {len(html)} bytes, over the limit of {config.max_document_bytes}"
        )
    text, used_encoding = decode_html(html, encoding)
    utf8_bytes = isinstance(html, bytes) and used_encoding == "utf-8" and not html.startswith(_UTF8_BOM)
    root, cut_short = parse_html(html if utf8_bytes else text)
    if root is None:
        return ExtractionResult(url, "", [], used_encoding, reason="the document could not be parsed as HTML")
    title = page_title(root)
    body = clean_tree(root, config)
    if body is None:
        return ExtractionResult(
            url, title, [], used_encoding, reason=_join("the document has no body", cut_short)
        )
    page = segment(body, config)
    if not page.blocks:
        reason = _join("the page has no visible text", cut_short)
        return ExtractionResult(url, title, [], used_encoding, reason=reason)
    compute_features(page.blocks, config)
    area = locate_content(page, config)
    if area is not None:
        join_neighbours(page, area, config)
    label_blocks(page, area, title, config)
    result = ExtractionResult(url, title, page.blocks, used_encoding)
    if area is None:
        result.reason = "no block qualifies as content"
    elif page.truncated:
        result.reason = f"only the first {config.max_blocks} blocks were read"
    elif not result.content_blocks:
        # A content area was found but every block in it was set aside (the page title, link lists).
        result.reason = "no block of the content area was kept"
    # A parser that stopped early (nesting past its depth limit) lost the rest of the page: say so.
    result.reason = _join(result.reason, cut_short)
    return result


def _join(*reasons: str) -> str:
    return "; ".join(reason for reason in reasons if reason)
