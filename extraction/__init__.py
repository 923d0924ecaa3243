"""cleancrawl's extraction library: segment a page into blocks and keep the informative ones."""

from extraction.api import extract
from extraction.config import ExtractionConfig
from extraction.errors import DocumentTooLargeError, EmptyDocumentError, ExtractionError, NotHTMLError
from extraction.hashing import text_hash
from extraction.result import Block, BlockFeatures, BlockKind, ExtractionResult, Label

__all__ = [
    "Block",
    "BlockFeatures",
    "BlockKind",
    "DocumentTooLargeError",
    "EmptyDocumentError",
    "ExtractionConfig",
    "ExtractionError",
    "ExtractionResult",
    "Label",
    "NotHTMLError",
    "extract",
    "text_hash",
]
