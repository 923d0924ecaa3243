"""The contract every extraction method keeps, checked the same way by the contract tests: a clear
`ExtractionError`, or a result whose blocks all have text and a reason, and that says why when it keeps
nothing."""

from __future__ import annotations

import random

from extraction import (
    DocumentTooLargeError,
    EmptyDocumentError,
    ExtractionError,
    ExtractionResult,
    NotHTMLError,
)
from extraction.methods.base import Method
from extraction.methods.cetr import Cetr
from extraction.methods.chunkweight import ChunkWeight
from extraction.methods.cleancrawl import CleanCrawl
from extraction.methods.domlocate import DomLocate
from extraction.methods.keypattern import KeyPattern
from extraction.methods.registry import METHODS

# Seeds 000, 001, 002 and 004's single-page methods on cleancrawl's own segmentation.
SEGMENT_METHODS: tuple[type[Method], ...] = (KeyPattern, DomLocate, ChunkWeight, Cetr)
# The GetBlocks, visual and site-level methods: every other registered paper method.
OTHER_METHODS = tuple(cls for cls in METHODS.values() if cls not in (CleanCrawl, *SEGMENT_METHODS))
PROSE = "This paragraph is long enough to count as prose, with commas, full stops and enough words. " * 4


def outcome(method: Method, html: str | bytes) -> ExtractionResult | ExtractionError:
    """Run the method and check the contract of what it returns."""
    try:
        result = method.extract(html, "https://example.test/page")
    except ExtractionError as error:
        assert str(error)
        return error
    if not result.content_blocks:
        assert result.reason, "an empty result must say why it is empty"
    for position, block in enumerate(result.blocks):
        assert block.position == position
        assert block.text.strip() and block.reason
        assert "cleancrawl-mark" not in block.path
    assert result.text == "\n".join(block.text for block in result.content_blocks)
    return result


def result_of(method: Method, html: str | bytes) -> ExtractionResult:
    """The method's result, which the input must give (not an error)."""
    got = outcome(method, html)
    assert isinstance(got, ExtractionResult), f"expected a result, got {got!r}"
    return got


def check_bad_documents_are_refused(method: Method, max_document_bytes: int) -> None:
    """Blank input, binary bytes and a document past the method's `max_document_bytes` each give their
    error."""
    assert isinstance(outcome(method, b"  \n "), EmptyDocumentError)
    assert isinstance(outcome(method, random.Random(7).randbytes(4096) + b"\x00"), NotHTMLError)
    assert isinstance(outcome(method, b"<p>" + b"x" * (max_document_bytes + 1)), DocumentTooLargeError)


def result_without_text(method: Method) -> ExtractionResult:
    """The method's result on a page with an image and white space only."""
    return result_of(method, '<html><body><img src="a.png"><div> </div></body></html>')
