"""Errors raised by `extract` for input that is not an HTML page it can read."""


class ExtractionError(Exception):
    """Base class of every error `extract` raises on bad input; `kind` names the error in one word (a
    crawl counts skipped pages by it)."""

    kind = "extraction_error"


class EmptyDocumentError(ExtractionError):
    """The input is empty or only whitespace."""

    kind = "empty_body"


class NotHTMLError(ExtractionError):
    """The input is binary (an image, an archive, a PDF, ...) rather than text."""

    kind = "binary_body"


class DocumentTooLargeError(ExtractionError):
    """The input is larger than `ExtractionConfig.max_document_bytes`."""

    kind = "too_large"


class TooManyAttributesError(ExtractionError):
    """A start tag has more attributes than `ExtractionConfig.max_attributes` (libxml2 would take time
    quadratic in them)."""

    kind = "too_many_attributes"
