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
    # A hidden element holding this share of the page's text is revealed by a script, so it is kept.
    keep_hidden_share: float = 0.3
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
    # Lin & Ho's entropy threshold: raised in these steps until the informative terms stop growing
    # (an added step brings under `site_entropy_flat_share` of them); never below the floor, so a page
    # whose blocks all look alike keeps its prose.
    site_entropy_step: float = 0.1
    site_entropy_flat_share: float = 0.02
    site_entropy_floor: float = 0.5

    # The seed papers' methods (`extraction.methods`): single-page methods (seeds 000, 001, 002, 004 CETR).

    # The seed papers' methods (`extraction.methods`): visual and site-level methods (seeds 001, 003, 004).
