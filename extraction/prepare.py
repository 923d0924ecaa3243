"""The steps every extraction method starts with: decode, parse, read the page's title and links, clean."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from extraction.config import ExtractionConfig
from extraction.decode import parser_input
from extraction.dom import check_attributes, clean_tree, page_title, parse_html
from extraction.errors import DocumentTooLargeError
from extraction.links import base_url, canonical_target, refresh_target
from extraction.result import Block, ExtractionResult

NO_TEXT = "the page has no visible text"


@dataclass(slots=True)
class PreparedPage:
    """A decoded, parsed and cleaned page: the body to segment (None when there is none) and the result
    to fill in (title, encoding, links; `reason` already set when the page has no body)."""

    body: etree._Element | None
    result: ExtractionResult


def prepare(
    html: str | bytes, url: str | None, config: ExtractionConfig, encoding: str | None = None
) -> PreparedPage:
    """Decode, parse and clean one page as every method starts (raises an `ExtractionError` subclass)."""
    if len(html) > config.max_document_bytes:
        raise DocumentTooLargeError(
            f"the document has {len(html)} bytes, over the limit of {config.max_document_bytes}"
        )
    document = parser_input(html, encoding)
    check_attributes(document.document, config.max_attributes)
    root, cut_short = parse_html(document.document)
    if root is None:
        unparsed = ExtractionResult(
            url, "", [], document.encoding, reason="the document could not be parsed as HTML"
        )
        unparsed.decode_replacements = document.replacements
        return PreparedPage(None, unparsed)
    result = ExtractionResult(url, page_title(root), [], document.encoding, reason=cut_short)
    result.decode_replacements = document.replacements
    result.base_url = base_url(root, url)
    result.refresh_url = refresh_target(root, result.base_url)
    result.canonical_url = canonical_target(root, result.base_url)
    body = clean_tree(root, config)
    if body is None:
        result.reason = join_reasons("the document has no body", cut_short)
    return PreparedPage(body, result)


def join_reasons(*reasons: str) -> str:
    """The non-empty reasons joined by "; "."""
    return "; ".join(reason for reason in reasons if reason)


def result_reason(blocks: Sequence[Block], nothing_kept: str, *notes: str) -> str:
    """Why a method's result is empty or partial, the same way for every method: the page had no visible
    text, or `nothing_kept` (the method's own words) when no block is content; then the `notes` (what cut
    the page short: the block limit, the parser's depth limit)."""
    if not blocks:
        first = NO_TEXT
    elif not any(block.is_content for block in blocks):
        first = nothing_kept
    else:
        first = ""
    return join_reasons(first, *notes)


def truncated(cut_short: bool, limit: int, unit: str = "blocks") -> str:
    """The note of a page whose blocks stopped at `limit` (empty when they did not)."""
    return f"only the first {limit} {unit} were read" if cut_short else ""
