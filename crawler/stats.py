"""Names of the crawl's own Scrapy stats, shared by the spider, the pipelines and the progress log.

Pages: ``pages_crawled`` (responses the spider handled), ``pages_kept`` (passed on to storage),
``pages_skipped/<reason>`` (not stored, and why). Blocks and bytes of the kept pages: ``blocks_content``,
``blocks_noise``, ``bytes_html`` (raw response bodies), ``bytes_visible`` (all visible text),
``bytes_content`` (the informative text that is stored). Links: ``links_scheduled``, ``links_offsite``,
``links_non_html`` (skipped by extension); ``refresh_stubs``: meta-refresh pages followed, not stored.
``site_model_seconds``: time the site models took inline (re-cleaning is `StoragePipeline`'s, in
``reclean_seconds``).
"""

from __future__ import annotations

from scrapy.statscollectors import StatsCollector

PREFIX = "cleancrawl/"
PAGES_CRAWLED = PREFIX + "pages_crawled"
PAGES_KEPT = PREFIX + "pages_kept"
SKIPPED_PREFIX = PREFIX + "pages_skipped/"
BLOCKS_CONTENT = PREFIX + "blocks_content"
BLOCKS_NOISE = PREFIX + "blocks_noise"
BYTES_HTML = PREFIX + "bytes_html"
BYTES_VISIBLE = PREFIX + "bytes_visible"
BYTES_CONTENT = PREFIX + "bytes_content"
# Seconds the site models took inline (observing and revising pages), re-cleaning aside.
SITE_MODEL_SECONDS = PREFIX + "site_model_seconds"
LINKS_SCHEDULED = PREFIX + "links_scheduled"
LINKS_OFFSITE = PREFIX + "links_offsite"
LINKS_NON_HTML = PREFIX + "links_non_html"
REFRESH_STUBS = PREFIX + "refresh_stubs"


def skipped(reason: str) -> str:
    """The stat counting pages skipped for `reason` (a short snake_case word: ``http_404``, ``not_html``)."""
    return SKIPPED_PREFIX + reason


def add_seconds(collector: StatsCollector, key: str, seconds: float) -> None:
    """Add `seconds` to a float stat (`inc_value` is typed for counts)."""
    collector.set_value(key, collector.get_value(key, 0.0) + seconds)
