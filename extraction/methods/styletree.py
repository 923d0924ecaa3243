"""The site style tree method (seed 004 section 2.3, Yi, Liu & Li 2003): noise is laid out alike site-wide.

`learn` merges the pages' DOM trees into a site style tree (`extraction.site_models.styletree`); a page is
mapped onto it and its tag nodes that fall on noisy element nodes (composite importance under the
threshold, for the node and all its descendants) are noise, everything else is kept, as the paper cleans
a page by removing its noisy parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from extraction.methods.base import Method, Params, SitePage
from extraction.methods.marks import block_marks, mark
from extraction.methods.sitepages import finish, label, learned_pages, page_key
from extraction.prepare import PreparedPage
from extraction.result import ExtractionResult
from extraction.segment import segment
from extraction.site_models.styletree import StyleTree


@dataclass(frozen=True, slots=True)
class StyleTreeParams(Params):
    """The site style tree's parameters (settings ``EXTRACTION_STYLETREE_*``).

    `attributes` are the display attributes of a presentation style; `class` is left out: per-page
    modifiers in it (category-linux, postid-0) split the template's nodes into one per page. `attenuation`
    is the gamma of composite importance; an element node is noise when it and all its descendants score
    under `noise_threshold`.
    """

    prefix = "styletree"
    attributes: str = "style width height bgcolor background align valign border"
    attenuation: float = 0.9
    noise_threshold: float = 0.3


class SiteStyleTree(Method[StyleTreeParams], name="styletree"):
    """Site style tree (Yi, Liu & Li): blocks under noisy element nodes of the site's style tree are noise.

    With fewer than two learned pages no node can be told noisy, and the whole page is kept (the reason
    says so).
    """

    paper = "seed 004 section 2.3, Yi, Liu & Li 2003: site style tree, entropy-based node importance"
    site_level = True

    def setup(self) -> None:
        """An empty style tree over the attributes the params name."""
        self.tree = StyleTree(tuple(self.params.attributes.lower().split()))
        self.keys: set[str] = set()

    def learn(self, pages: Sequence[SitePage]) -> None:
        """Merge each page's cleaned DOM tree into the site style tree (a page seen twice counts once)."""
        for page in learned_pages(pages, self.config):
            if page.key not in self.keys:
                self.keys.add(page.key)
                self.tree.add(page.body)

    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """Label the blocks under the page's noisy tag nodes noise, the others content."""
        others = len(self.keys - {page_key(source.html)})
        found = []
        if others:
            params = self.params
            found = self.tree.noise_elements(body, params.attenuation, params.noise_threshold)
        for number, (element, _) in enumerate(found):
            mark(element, number)
        page = segment(body, self.config)
        for block, number in zip(page.blocks, block_marks(page), strict=True):
            if number < 0:
                label(block, True, 1.0, "not under a noisy element node of the site style tree")
            else:
                importance = found[number][1]
                reason = f"under a noisy element node (composite importance {importance:.2f})"
                label(block, False, importance, reason)
        why = "" if others else "no other page of the site was learned: no node can be told noisy"
        return finish(prepared, page, why)
