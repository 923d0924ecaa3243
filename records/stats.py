"""Every Scrapy stat of cleancrawl's own, by name: the spider, pipelines and extensions count with these.

Pages: ``pages_crawled`` (responses the spider handled), ``pages_kept`` (passed on to storage),
``pages_extracted_in_workers`` (extracted by a worker process, ``CRAWL_EXTRACTION_WORKERS``),
``pages_skipped/<reason>`` (not stored, and why). Blocks and bytes of the kept pages: ``blocks_content``,
``blocks_noise``, ``bytes_html`` (raw response bodies), ``bytes_visible`` (all visible text),
``bytes_content`` (the informative text that is stored). Links: ``links_scheduled``, ``links_offsite``,
``links_non_html`` (skipped by extension), ``links_capped`` (past ``CRAWL_MAX_LINKS_PER_PAGE``),
``links_reprioritised`` (a focused crawl's queued URLs asked for again with a higher priority);
``refresh_stubs``: meta-refresh pages followed, not stored; ``decode_replacements``: bytes of pages that
their charset could not decode, replaced by U+FFFD.
Site models: ``site_model_seconds``, the time they took inline (re-cleaning aside).

Storage (committed pages): ``pages_stored``, ``pages_new`` (stored for the first time), ``pages_aliased``
(not stored: a stored page of their path, another query string, holds the same clean text),
``pages_store_failed``, ``bytes_raw`` (their HTML bytes), ``bytes_stored`` (their clean text, UTF-8 bytes).
Re-cleaning: ``reclean_pages``, ``reclean_pages_changed``, ``reclean_blocks_relabelled``,
``reclean_seconds``, ``reclean_models_rebuilt`` (clusters whose model was rebuilt from the store rather
than reused from the crawl), ``reclean_failed`` (re-cleanings that failed after their retries).

Recrawling (the crawl state): ``recrawl_changed`` (pages fetched again whose informative content
changed), ``recrawl_unchanged`` (fetched again and unchanged: a 304, or the same clean text),
``recrawl_gone`` (answered 404 or 410), ``recrawl_due`` (URLs the crawl started with from the crawl state:
queued before, or due again), ``urls_queued`` (URLs met for the first time), ``page_versions`` (pages given
a new version in their history), ``urls_trapped/<guard>`` (links a trap guard refused).

A site-level extraction method (``method/*``): ``learnings`` (learning passes), ``pages_learned``,
``pages_relabelled`` (extracted again with a learned method), ``pages_unlearned`` (first pages of a
cluster, the spider's labels kept), ``seconds`` (time spent learning and extracting there).
"""

from __future__ import annotations

from typing import Any, Protocol

PREFIX = "cleancrawl/"

PAGES_CRAWLED = PREFIX + "pages_crawled"
PAGES_KEPT = PREFIX + "pages_kept"
PAGES_EXTRACTED_IN_WORKERS = PREFIX + "pages_extracted_in_workers"
SKIPPED_PREFIX = PREFIX + "pages_skipped/"
BLOCKS_CONTENT = PREFIX + "blocks_content"
BLOCKS_NOISE = PREFIX + "blocks_noise"
BYTES_HTML = PREFIX + "bytes_html"
BYTES_VISIBLE = PREFIX + "bytes_visible"
BYTES_CONTENT = PREFIX + "bytes_content"
LINKS_SCHEDULED = PREFIX + "links_scheduled"
LINKS_OFFSITE = PREFIX + "links_offsite"
LINKS_NON_HTML = PREFIX + "links_non_html"
LINKS_CAPPED = PREFIX + "links_capped"
LINKS_REPRIORITISED = PREFIX + "links_reprioritised"
DECODE_REPLACEMENTS = PREFIX + "decode_replacements"
REFRESH_STUBS = PREFIX + "refresh_stubs"
SITE_MODEL_SECONDS = PREFIX + "site_model_seconds"

PAGES_STORED = PREFIX + "pages_stored"
PAGES_NEW = PREFIX + "pages_new"
PAGES_ALIASED = PREFIX + "pages_aliased"
PAGES_STORE_FAILED = PREFIX + "pages_store_failed"
BYTES_RAW = PREFIX + "bytes_raw"
BYTES_STORED = PREFIX + "bytes_stored"
RECLEAN_PAGES = PREFIX + "reclean_pages"
RECLEAN_PAGES_CHANGED = PREFIX + "reclean_pages_changed"
RECLEAN_BLOCKS = PREFIX + "reclean_blocks_relabelled"
RECLEAN_SECONDS = PREFIX + "reclean_seconds"
RECLEAN_REBUILT = PREFIX + "reclean_models_rebuilt"
RECLEAN_BORROWED = PREFIX + "reclean_models_borrowed"
RECLEAN_FAILED = PREFIX + "reclean_failed"
CLUSTERS_SETTLED_PAGES = PREFIX + "clusters_settled_pages"

RECRAWL_CHANGED = PREFIX + "recrawl_changed"
RECRAWL_UNCHANGED = PREFIX + "recrawl_unchanged"
RECRAWL_GONE = PREFIX + "recrawl_gone"
RECRAWL_DUE = PREFIX + "recrawl_due"
URLS_QUEUED = PREFIX + "urls_queued"
TRAPPED_PREFIX = PREFIX + "urls_trapped/"
PAGE_VERSIONS = PREFIX + "page_versions"

METHOD_PREFIX = PREFIX + "method/"
METHOD_LEARNINGS = METHOD_PREFIX + "learnings"
METHOD_PAGES_LEARNED = METHOD_PREFIX + "pages_learned"
METHOD_PAGES_RELABELLED = METHOD_PREFIX + "pages_relabelled"
METHOD_PAGES_UNLEARNED = METHOD_PREFIX + "pages_unlearned"
METHOD_SECONDS = METHOD_PREFIX + "seconds"


class Stats(Protocol):
    """What this module needs of a stats collector (Scrapy's `StatsCollector` is one)."""

    def get_value(self, key: str, default: Any = None) -> Any:
        """The value of a stat, or `default`."""

    def set_value(self, key: str, value: Any) -> None:
        """Set a stat."""


def skipped(reason: str) -> str:
    """The stat counting pages skipped for `reason` (a short snake_case word: ``http_404``, ``not_html``)."""
    return SKIPPED_PREFIX + reason


def trapped(guard: str) -> str:
    """The stat counting links a trap guard refused (`crawler.traps`: ``query_variants``, ...)."""
    return TRAPPED_PREFIX + guard


def add_seconds(collector: Stats, key: str, seconds: float) -> None:
    """Add `seconds` to a float stat (`inc_value` is typed for counts)."""
    collector.set_value(key, collector.get_value(key, 0.0) + seconds)
