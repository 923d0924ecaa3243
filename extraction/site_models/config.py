"""Every threshold of the site models (`extraction.site_models`), in one frozen dataclass.

What the pages of one template share is template, not content. In a crawl each field is the setting
``EXTRACTION_SITE_<FIELD>`` (``EXTRACTION_SITE_MIN_PAGES`` sets `min_pages`), per site if need be.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SiteModelConfig:
    """Parameters of clustering pages by template and of a cluster's `SiteModel`."""

    shingle_size: int = 1
    """Signature (`site_models.signature`): shingles of this many consecutive layout paths (each block path
    cut to its first `signature_depth` steps, the page's content cut at its container's children); a page
    joins the most similar cluster when the Jaccard similarity of the signatures reaches
    `cluster_threshold`, else starts a new one. One path a shingle: a theme's side menu that unfolds the
    current page's branch changes the order of its paths from page to page, not their set."""
    signature_depth: int = 6
    cluster_threshold: float = 0.5
    min_pages: int = 5
    """A cluster's model revises labels only once it has seen this many pages (fewer say nothing)."""
    borrow_threshold: float = 0.3
    """When the crawl ends, a cluster that has too few pages for a model of its own is revised by the model
    of its site's most similar cluster that has one, when the Jaccard similarity of their representatives
    reaches this (0 switches it off). A page whose single-page labels differ enough from its siblings' to
    found a cluster (an intro kept apart, its side notes set aside) shares their template all the same: on
    the test sites, such pages scored 0.83 to 0.94 against 0.97 to 0.997 for the others."""
    frequent_share: float = 0.5
    """A block (same text, or same path and text up to digits and dates) is template when it appears on at
    least this share of the cluster's pages, and never on fewer than `frequent_min_pages`."""
    frequent_min_pages: int = 2
    shape_max_chars: int = 200
    """Digits and dates are masked in blocks up to this long; a longer block is its own shape."""
    drop_redundant: bool = False
    """Lin & Ho's entropy (`site_models.entropy`), for content blocks outside the content region: their terms'
    entropy over the cluster's pages is estimated on its first `entropy_pages` pages (a sample keeps the cost
    of tokenising a large site bounded); the page's threshold is raised in steps of `entropy_step` until the
    informative terms stop growing (an added step brings under `entropy_flat_share` of them), never below
    `entropy_floor`, so a page whose blocks all look alike keeps its prose. A block at or above the threshold
    is redundant. Off by default: on the Python docs it dropped one block, main content (a lone link line of
    the index), and on whizzy none, while the frequency and slot rules already reach F1 0.999 on both; a site
    whose side lists change text from page to page may want it."""
    entropy_pages: int = 50
    entropy_step: float = 0.1
    entropy_flat_share: float = 0.02
    entropy_floor: float = 0.5
    region_share: float = 0.8
    """Template slots (seed 004's style tree reduced to block places, `site_models.slots`): the content region
    is the deepest layout path holding this share of the cluster's single-page content text."""
    restore_importance: float = 0.8
    """A block the single page set aside but that is new on this page and sits in the content region, in a
    slot whose texts are new on at least this share of pages, is content (a short post, a caption)."""
    template_importance: float = 0.3
    """A content block outside the region, in a slot whose texts are new on under this share of pages (a
    category line, a byline), is template."""
    keep_headline: bool = True
    """The page's headline (the heading that repeats its title) is content in a crawl when its slot holds a
    new heading on at least `headline_importance` of pages; single-page extraction sets it aside
    (articleBody)."""
    headline_importance: float = 0.9
