"""cleancrawl's own method: `extraction.extract` behind the `Method` interface."""

from __future__ import annotations

from extraction.api import extract
from extraction.methods.base import Method
from extraction.result import ExtractionResult


class CleanCrawl(Method):
    """The default: seed 001's content location and seed 002's features, revised with neighbours."""

    name = "cleancrawl"
    paper = "cleancrawl default: seed 001 steps 3-5 with seed 002 features and jusText-style revision"

    def extract(
        self, html: str | bytes, url: str | None = None, encoding: str | None = None
    ) -> ExtractionResult:
        """`extraction.extract` with this method's config."""
        return extract(html, url=url, config=self.config, encoding=encoding)
