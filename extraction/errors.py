"""Errors raised by `extract` for input that is not an HTML page it can read."""


class ExtractionError(Exception):
    """Base class of every error `extract` raises on bad input."""


class EmptyDocumentError(ExtractionError):
    """The input is empty or only whitespace."""


class NotHTMLError(ExtractionError):
    """The input is binary (an image, an archive, a PDF, ...) rather than text."""


class DocumentTooLargeError(ExtractionError):
    """The input is larger than `ExtractionConfig.max_document_bytes`."""
