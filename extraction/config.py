"""Every threshold and weight of the extraction library, in one frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ExtractionConfig:
    """Parameters of `extract`; defaults follow the seed papers where they give one.

    Seed 002 (noise features and content weight): the noise score F = sum of alpha_i f_i with
    alpha_i = 0.2 and threshold 0.5; the content weight NLTD + NATD + beta * PMD with beta = 0.7 and
    a penalty of 0.6 when five or more noise words appear. Seed 001: a node qualifies as content when
    its link-text density stays under `max_link_density`; siblings on the same level join the content
    when they qualify too (`sibling_score_ratio`).
    """

    # Input limits: bound the cost of one page (a crawl must never stall on a single response).
    max_document_bytes: int = 64 * 1024 * 1024
    max_blocks: int = 20_000
    max_block_chars: int = 100_000
    # A hidden element holding this share of the text a reader sees (scripts and styles left out) is
    # revealed by a script (a paywall, an anti-flicker snippet), so it is kept: half, the article itself.
    keep_hidden_share: float = 0.5
    keep_hidden_min_chars: int = 500

    # Seed 002, noise score of a raw chunk.
    noise_alpha: float = 0.2
    noise_threshold: float = 0.5
    # Seed 002, content weight of a block.
    content_beta: float = 0.7
    noise_word_count: int = 5
    noise_word_penalty: float = 0.6
    noise_word_max_chars: int = 400

    # Block votes for their ancestors (readability's paragraph score: length points, commas).
    vote_chars_per_point: int = 100
    vote_max_length_points: float = 3.0
    vote_max_punctuation: int = 10
    vote_punctuation: float = 0.5
    list_vote_factor: float = 0.5

    # Block qualification (seed 001 steps 3 to 5).
    max_link_density: float = 0.5
    max_prose_link_density: float = 0.75
    long_block_chars: int = 100
    short_block_chars: int = 40
    sibling_score_ratio: float = 0.2
    ancestor_decay: float = 0.5
    ancestor_levels: int = 3
    class_hint_weight: float = 0.3
    # A template-named node holding this share of the area's good text is a layout wrapper.
    wrapper_good_share: float = 0.5
    widen_good_ratio: float = 0.5
    widen_min_gain: float = 0.2
    spread_share: float = 0.3
    hub_max_prose_chars: int = 600
    duplicate_min_chars: int = 60
    # Content blocks shorter than this between noise on both sides are chrome (jusText's context step).
    stranded_max_chars: int = 40

    # Output.
    include_captions: bool = False

    # The method a crawl extracts with (`extraction.methods.registry.METHODS`: "cleancrawl", the default,
    # or a seed paper's); a site-level method learns, per cluster, from at most `method_learn_pages` of
    # its pages (their HTML is held in memory until then).
    method: str = "cleancrawl"
    method_learn_pages: int = 32

    # Site models (`extraction.site_models`): what pages of one template share is template, not content.
    # Signature: shingles of this many consecutive block paths, each cut to its first
    # `site_signature_depth` steps (the layout; deeper steps are the article's own structure, named by
    # its section ids); a page joins the most similar cluster when the Jaccard similarity of the
    # signatures reaches the threshold, else starts a new one.
    site_shingle_size: int = 3
    site_signature_depth: int = 6
    site_cluster_threshold: float = 0.5
    # A cluster's model revises labels only once it has seen this many pages (fewer say nothing).
    site_min_pages: int = 5
    # A block (same text, or same path and text up to digits and dates) is template when it appears on
    # at least this share of the cluster's pages, and never on fewer than `site_frequent_min_pages`.
    site_frequent_share: float = 0.5
    site_frequent_min_pages: int = 2
    # Digits and dates are masked in blocks up to this long; a longer block is its own shape.
    site_shape_max_chars: int = 200
    # Lin & Ho's entropy (`site_models.entropy`), for content blocks outside the content region: their
    # terms' entropy over the cluster's pages is estimated on its first `site_entropy_pages` pages (a
    # sample keeps the cost of tokenising a large site bounded); the page's threshold is raised in these
    # steps until the informative terms stop growing (an added step brings under
    # `site_entropy_flat_share` of them), never below the floor, so a page whose blocks all look alike
    # keeps its prose. A block at or above the threshold is redundant. Off by default: on the Python docs
    # it dropped one block, main content (a lone link line of the index), and on whizzy none, while the
    # frequency and slot rules already reach F1 0.999 on both; a site whose side lists change text from
    # page to page may want it.
    site_drop_redundant: bool = False
    site_entropy_pages: int = 50
    site_entropy_step: float = 0.1
    site_entropy_flat_share: float = 0.02
    site_entropy_floor: float = 0.5
    # Template slots (seed 004's style tree reduced to block places, `site_models.slots`): the content
    # region is the deepest layout path holding this share of the cluster's single-page content text.
    site_region_share: float = 0.8
    # A block the single page set aside but that is new on this page and sits in the content region, in
    # a slot whose texts are new on at least this share of pages, is content (a short post, a caption).
    site_restore_importance: float = 0.8
    # A content block outside the region, in a slot whose texts are new on under this share of pages
    # (a category line, a byline), is template.
    site_template_importance: float = 0.3
    # The page's headline (the heading that repeats its title) is content in a crawl when its slot holds
    # a new heading on at least this share of pages; single-page extraction sets it aside (articleBody).
    site_keep_headline: bool = True
    site_headline_importance: float = 0.9

    # The seed papers' methods (`extraction.methods`): single-page methods (seeds 000, 001, 002, 004 CETR).
    # Seed 000 (`keypattern`): the less meaningful tags (space-separated) unwrapped before the child
    # sequences are read (the paper names <a>, <b>, <span>; scripts and comments are gone already);
    # repetitions no longer than `keypattern_max_pattern_length` (the paper bounds them by half the
    # sequence only: this keeps a list of thousands of items linear); a block with fewer important tags
    # than the threshold is noise (the paper gives no value; 1 scored best on wcxb-dev, as most paragraphs
    # outside a repeated run are one <p>).
    keypattern_less_meaningful_tags: str = (
        "a b i u s em strong span font small big abbr cite code mark sub sup time nobr wbr"
    )
    keypattern_max_pattern_length: int = 32
    keypattern_threshold: int = 1
    # Seed 001 (`domlocate`): tags unrelated to the content (space-separated), removed with their text
    # (the paper: <form>, <marquee>, beside the scripts, styles and metas every method drops); a node
    # qualifies as the content node when its anchor text is at most this share of its text, it has at
    # least this many punctuation marks per character of text that is not anchor text, and at least this
    # much text (the paper names the three quantities but not their values: these scored best on wcxb-dev).
    domlocate_unrelated_tags: str = "form marquee"
    domlocate_max_link_density: float = 0.2
    domlocate_min_punctuation_density: float = 0.01
    domlocate_min_text_chars: int = 250
    # Seed 002 (`chunkweight`): the tags that form raw chunks (tag windows, space-separated); the paper's
    # "content node judgment parameters" NLTD 0.4, NATD 0.5, PMD 0.7, read as the bounds a window must meet
    # to be the content node (NLTD at most, NATD and PMD at least); the longest window scanned for noise
    # words (seed 002 scans every window; cleancrawl's own blocks stop at `noise_word_max_chars`).
    chunkweight_chunk_tags: str = "table div ul tr p"
    chunkweight_max_nltd: float = 0.4
    chunkweight_min_natd: float = 0.5
    chunkweight_min_pmd: float = 0.7
    chunkweight_noise_word_max_chars: int = 64 * 1024 * 1024
    # Seed 004 (`cetr`, Weninger et al.): the model, "tm" (threshold), "km" (k-means) or "2d" (k-means over
    # the smoothed tag ratio and its derivative, the paper's best); source lines wrapped at this many
    # characters (minified pages); Gaussian smoothing; TM's threshold tau = lambda * standard deviation;
    # alpha, the lines ahead averaged for the derivative; k clusters, k-means iterations at most.
    cetr_model: str = "2d"
    cetr_line_chars: int = 65
    cetr_smoothing_sigma: float = 1.0
    cetr_smoothing_radius: int = 3
    cetr_threshold_lambda: float = 1.0
    cetr_derivative_lines: int = 3
    cetr_clusters: int = 3
    cetr_max_iterations: int = 100

    # The seed papers' methods (`extraction.methods`): visual and site-level methods (seeds 001, 003, 004).
    # GetBlocks (seeds 001 and 004, Debnath et al.): the ordered partition tag set, TABLE first. The seeds
    # name TABLE, TR, P, HR, UL, "..." and each table cell; we add the other lists, DIV (the layout box that
    # took TABLE's place), headings, PRE and BLOCKQUOTE. Block-level tags not named here do not split a block.
    getblocks_tags: str = "table tr td th p hr ul ol dl div h1 h2 h3 h4 h5 h6 pre blockquote"
    # ContentExtractor (seed 004 section 2.5): two blocks are similar when the cosine of their binary feature
    # vectors reaches this; a block is content when its inverse block document frequency 1/n (n: pages of
    # the site holding a similar block, this one included) reaches the threshold: 1.0 = on this page only.
    contentextractor_similarity: float = 0.9
    contentextractor_ibdf_threshold: float = 1.0
    # K-FE (seed 003, Debnath et al.): k-means over the blocks' text probabilities, best cluster kept.
    kfe_clusters: int = 3
    kfe_max_iterations: int = 100
    # InfoDiscoverer (seed 004 section 2.1, Lin & Ho): content blocks are cut at these tags (the paper's
    # TABLE), then, where a block is ambiguous (it mixes parts "close to 1", at least the redundant bound,
    # with parts under it), at the GetBlocks tags; the entropy threshold rises in steps until the informative
    # terms stop growing (a step adds under the flat share of the terms covered so far), never to the bound.
    infodiscoverer_tags: str = "table"
    infodiscoverer_entropy_step: float = 0.1
    infodiscoverer_flat_share: float = 0.02
    infodiscoverer_redundant_entropy: float = 0.9
    # k-MIB (seed 004 section 2.2, WISDOM): at most k informative blocks, each a node of the information
    # coverage tree whose children share its aggregated information evenly (SII at least the threshold).
    # The seed gives neither value: k = 1 and ST = 0.7 scored best on aeb and whizzy (k = 3: 0.04 lower).
    # TOC blocks (anchors whose text the linked page of the site contains, API) join when enabled.
    kmib_k: int = 1
    kmib_sii_threshold: float = 0.7
    kmib_toc_blocks: bool = False
    # Site style tree (seed 004 section 2.3, Yi, Liu & Li): the display attributes of a presentation style,
    # the attenuation gamma of composite importance and the noise threshold (an element node is noise when
    # it and all its descendants score under it). `class` is left out: per-page modifiers in it
    # (category-linux, postid-0) split the template's nodes into one per page.
    styletree_attributes: str = "style width height bgcolor background align valign border"
    styletree_attenuation: float = 0.9
    styletree_noise_threshold: float = 0.3
    # EVBE and EIFCE (seed 003): CSS from inline styles and the page's own <style> sheets, within bounds
    # (sheet size, rules kept, elements styled, depth down to which sheet selectors are matched);
    # the viewport width widths resolve against; a node whose presentation differs from its parent's in more
    # than `evbe_max_visual_distance` properties starts a block; candidate blocks need this much text and at
    # most this link density; the importance value f smooths its denominator by `evbe_importance_smoothing`.
    evbe_max_stylesheet_chars: int = 256 * 1024
    evbe_max_css_rules: int = 5_000
    evbe_max_elements: int = 20_000
    evbe_max_match_depth: int = 256
    evbe_viewport_width: float = 1024.0
    evbe_max_visual_distance: int = 1
    evbe_min_candidate_chars: int = 100
    evbe_max_candidate_link_density: float = 0.5
    evbe_importance_smoothing: float = 0.1
