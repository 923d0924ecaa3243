"""cleancrawl's extraction library: segment a page into blocks and keep the informative ones."""

from extraction import result as _result
from extraction.api import extract
from extraction.config import ExtractionConfig
from extraction.errors import DocumentTooLargeError, EmptyDocumentError, ExtractionError, NotHTMLError
from extraction.hashing import text_hash
from extraction.result import RULE_TEXT, Block, BlockFeatures, BlockKind, ExtractionResult, Label, Rule

# True when the per-page modules run as mypyc-compiled code (see setup.py), False for pure Python.
COMPILED = not _result.__file__.endswith(".py")
# The same, said for logs and reports.
BUILD = "compiled with mypyc" if COMPILED else "pure Python (not compiled: about a fifth slower)"

__all__ = [
    "BUILD",
    "COMPILED",
    "RULE_TEXT",
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
    "Rule",
    "extract",
    "text_hash",
]
