"""Every threshold and weight of single-page extraction, in one frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ExtractionConfig:
    """Parameters of `extract` and of the page preparation every method shares; defaults follow the seed
    papers where they give one. The site models have their own (`site_models.SiteModelConfig`), and so has
    each of the seed papers' methods (its `Params`).

    Seed 002 (noise features and content weight): the noise score F = sum of alpha_i f_i with
    alpha_i = 0.2 and threshold 0.5; the content weight NLTD + NATD + beta * PMD with beta = 0.7 and
    a penalty of 0.6 when five or more noise words appear. Seed 001: a node qualifies as content when
    its link-text density stays under `max_link_density`; siblings on the same level join the content
    when they qualify too (`sibling_score_ratio`).
    """

    # Input limits: bound the cost of one page (a crawl must never stall on a single response).
    max_document_bytes: int = 64 * 1024 * 1024
    max_attributes: int = 1_000
    """A page with a start tag of more attributes is refused (`TooManyAttributesError`): libxml2 takes time
    quadratic in one element's attributes (0.5 s for 20,000, 14 s for 100,000); real pages have up to 140."""
    max_blocks: int = 20_000
    max_block_chars: int = 100_000
    anchor_texts: bool = False
    """Keep each link's anchor text (`ExtractionResult.link_blocks`): a focused crawl weighs links by it; off,
    extraction does not pay for it."""
    max_name_chars: int = 16_384
    """An element's id and class are read up to this many characters each, and a node's path (its ancestors'
    tags, ids and classes) keeps its first `max_path_chars`: the paths of a page hold at most `max_blocks`
    times that, whatever its depth or class attributes. Real pages stay under half of each (a theme's 7,400
    characters of body classes, paths of 8,200)."""
    max_path_chars: int = 16_384
    keep_hidden_share: float = 0.5
    """The page's largest hidden element, when it would hold this share of the text a reader sees once shown
    (scripts, styles and the other hidden elements left out), is revealed by a script (a paywall, an
    anti-flicker snippet, a product loaded late), so it is kept: half, the article itself."""
    keep_hidden_min_chars: int = 500

    # Seed 002: the noise score of a raw chunk, F = sum of alpha_i f_i, is noise over the threshold.
    noise_alpha: float = 0.2
    noise_threshold: float = 0.5
    # Seed 002: the content weight of a block, NLTD + NATD + beta * PMD.
    content_beta: float = 0.7
    noise_word_count: int = 5
    """A block of this many noise words ("share", "login", "copyright") or more loses `noise_word_penalty`."""
    noise_word_penalty: float = 0.6
    noise_word_max_chars: int = 400
    """Only blocks up to this long are searched for noise words: in a long text they are prose."""

    # Block votes for their ancestors (readability's paragraph score: length points, commas).
    vote_chars_per_point: int = 100
    vote_max_length_points: float = 3.0
    vote_max_punctuation: int = 10
    """Commas and other punctuation score up to this many, `vote_punctuation` each."""
    vote_punctuation: float = 0.5
    list_vote_factor: float = 0.5
    """List items and table cells vote at this share: a list is as often a menu as content."""

    # Block qualification (seed 001 steps 3 to 5).
    max_link_density: float = 0.5
    """A block whose link-text share is over this is a link block: it does not vote, and is noise unless it is
    long prose (`long_block_chars`, `max_prose_link_density`)."""
    max_prose_link_density: float = 0.75
    long_block_chars: int = 100
    short_block_chars: int = 40
    """A shorter block neither votes nor counts as the good text of its ancestors."""
    sibling_score_ratio: float = 0.2
    """A sibling of the content node scoring at least this share of the best node's score joins it."""
    ancestor_decay: float = 0.5
    ancestor_levels: int = 3
    """A block's vote goes to its container and this many ancestors, times `ancestor_decay` a level."""
    class_hint_weight: float = 0.3
    layout_text_share: float = 0.8
    """A template-named node holding this share of the page's text and of its prose is the layout, not a
    template part: its name neither discounts the votes inside it nor sets its blocks aside (a page nested in
    a menu entry by an unclosed tag, `<body class="no-sidebar">`)."""
    wrapper_good_share: float = 0.5
    """A template-named node holding this share of the area's good text is a layout wrapper."""
    headline_region_min_chars: int = 400
    headline_region_min_share: float = 0.05
    """A content node apart from the page's headline (the `<h1>` that repeats the title) gives way to the
    best node of the headline's part of the page when that part holds at least this much good text and
    its best node this share of the content node's score (a consent dialog or a footnote list outweighs a
    product's or a service's own text)."""
    headline_word_share: float = 0.6
    """When no `<h1>` repeats the page title whole, the first `<h1>` with at least this share of its words in
    the title is the headline the content is sought near (a shop's title reorders the product's name and adds
    its colour, size or maker: "Classic II Moon Silver | 44MM" under "Classic II ... in Moon Silver")."""
    widen_good_ratio: float = 0.5
    widen_min_gain: float = 0.2
    """The content node widens to its parent while the parent adds at least `widen_good_ratio` good text of
    all it adds, and at least this share of the good text already held."""
    widen_min_prose_chars: int = 1000
    """... or, when at least `widen_prose_ratio` of all the parent adds is good text, this many characters of
    it: a manual's longest section can hold most of the page (git-config's variables, 220,000 characters),
    and the sections around it, prose almost only, are too small a share to be taken otherwise. A byline or
    a caption, prose too, is far shorter."""
    widen_prose_ratio: float = 0.85
    """Past a parent that adds too little to be taken, an ancestor is taken when at least this share of all
    it adds is good text (and enough of it)."""
    spread_share: float = 0.3
    """A content node holding under this share of the page's good text is not where the content lives: the
    page's `<main>` (or body) is taken instead."""
    excerpt_run_min: int = 3
    """Blocks cut off with an ellipsis, this many or more at one tag path (and half its blocks or more), are
    teaser excerpts of other pages: they neither vote nor count as the page's prose when its content is
    located."""
    hub_max_prose_chars: int = 600
    """A page with less good text than this is a hub (a listing): its links vote too."""
    record_list_max_area_chars: int = 1500
    """A content area with less good text than this may give way to a list of records beside it: a listing's
    intro line or a legal notice outweighs cards whose short blocks and links do not vote."""
    record_list_factor: float = 3.0
    """... when the list holds this many times the area's text."""
    min_records: int = 4
    record_min_chars: int = 60
    """A list of records is at least `min_records` sibling nodes of one record key (tag and first class)
    holding this much text each on average (menu entries hold less)."""
    duplicate_min_chars: int = 60
    """A content text at least this long found again in another container is a responsive copy."""
    stranded_max_chars: int = 40
    """Content blocks shorter than this between noise on both sides are chrome (jusText's context step)."""

    # Output.
    include_captions: bool = False
