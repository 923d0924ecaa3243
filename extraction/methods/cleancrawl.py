"""cleancrawl's own method: `extraction.extract` behind the `Method` interface."""

from __future__ import annotations

from lxml import etree

from extraction.api import label_prepared
from extraction.methods.base import Method, SitePage
from extraction.prepare import PreparedPage
from extraction.result import ExtractionResult


class CleanCrawl(Method, name="cleancrawl"):
    """The default: seed 001's content location and seed 002's features, revised with neighbours."""

    names_rules = True
    paper = "cleancrawl default: seed 001 steps 3-5 with seed 002 features and jusText-style revision"

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """`extraction.extract`'s steps with this method's config."""
        label_prepared(prepared.result, body, self.config)
        return prepared.result
