"""cleancrawl's own settings and their defaults: the one place they are set.

The add-on (`crawler.addon.CleancrawlAddon`) installs them at Scrapy's "addon" priority, below a project's
``settings.py`` and ``-s NAME=value``, as Scrapy's own ``default_settings.py`` does for its settings;
components read them without a fallback of their own. Extraction settings (``EXTRACTION_*``) are not
listed here: every field of the library's config dataclasses is one, with the dataclass's default
(`pipelines.config`).
"""

# --- Clustering (pipelines.cluster) ---------------------------------------------------------------------
# Group each site's pages by template; the signature and threshold are EXTRACTION_SITE_* settings.
CLUSTER_ENABLED = True

# --- Noise (pipelines.noise) ----------------------------------------------------------------------------
# Settle each block's label and count what is kept; off, every page keeps the spider's labels and noise
# text reaches storage.
NOISE_ENABLED = True
# Cross-page site models: revise labels by cluster and re-clean stored pages when a cluster matures and
# at the end of the crawl. Part of the cleancrawl method: off with another EXTRACTION_METHOD.
SITE_MODELS_ENABLED = True

# --- Storage (pipelines.store) --------------------------------------------------------------------------
# SQLAlchemy URL of the store: sqlite:///PATH or postgresql+psycopg://USER@HOST/DB; empty: nothing stored.
DATABASE_URL = "sqlite:///cleancrawl.db"
# Hold the store's crawl lock while crawling: a second crawl on the same store (cron, a schedule, by hand)
# stops at start instead of running alongside. Off for crawler processes meant to share a store.
CRAWL_LOCK = True
# Pages written per transaction: a crash loses at most the batch being filled.
STORAGE_BATCH_SIZE = 50
# Blocks a store process remembers by hash (dictionary ids, and blocks stored inline with their pages): a
# block met again after it was forgotten is stored inline once more. On a 50,000-page generated site,
# 65,536 against 200,000: peak RSS 302 MB against 340 MB, a store 1.1% larger.
STORAGE_KNOWN_BLOCKS = 65_536
# SQLite: when a crawl has written (new or changed) at least this share of the store's pages, the store is
# rewritten tight as the crawl ends (full-text index merged, VACUUM): rows rewritten by re-cleaning leave
# room that only a rewrite gives back. 0: after every crawl that wrote a page; above 1: never.
STORAGE_COMPACT_SHARE = 0.1
# A second store holding every page's visible text whole, with the same full-text index: the yardstick of
# `scrapy savings --baseline` (pipelines.baseline). Empty: off.
BASELINE_DATABASE_URL = ""

# --- Recrawling (pipelines.revisit, pipelines.storage.crawl_state) --------------------------------------
# A page is due again one interval after its fetch; the interval of a new page, and its bounds. Seconds or
# a number with a unit (45m, 6h, 1d, 2w).
RECRAWL_INTERVAL = "1d"
RECRAWL_MIN_INTERVAL = "1h"
RECRAWL_MAX_INTERVAL = "30d"
# Nutch's AdaptiveFetchSchedule: after a fetch the interval grows by INC_RATE when the page did not change,
# and shrinks by DEC_RATE when it did.
RECRAWL_INC_RATE = 0.4
RECRAWL_DEC_RATE = 0.2
# estimate (the page's change rate, estimated from its history, sets an interval at which it is fresh
# RECRAWL_TARGET_FRESHNESS of the time; the rates above until it is seen to change), adaptive (the rates
# above only) or fixed (every interval stays RECRAWL_INTERVAL).
RECRAWL_POLICY = "estimate"
RECRAWL_TARGET_FRESHNESS = 0.95
# What a change is: content (the page's clean text changed) or html (its body changed at all, as Nutch).
RECRAWL_CHANGE = "content"
# The crawl's present, as an ISO 8601 time, for a simulated clock (tests, the recrawl benchmark); empty:
# the real time.
RECRAWL_NOW = ""

# --- A fleet: several processes on one frontier (crawler.fleet_components) ---------------------------
# Redis (redis://host:port/db): processes started with the same command share scrapy-redis' request queue
# and duplicate filter, the URLs met, the pages stored and the max_pages budget. Empty: one process.
REDIS_URL = ""
# The crawl's key prefix in Redis; empty: made from the spider, its seeds and DATABASE_URL.
FLEET_KEY = ""
# Seconds a process may hold a request it took from the queue: past it (the process died), the request
# goes back to the queue. Above DOWNLOAD_TIMEOUT times (RETRY_TIMES + 1).
FLEET_LEASE_TIMEOUT = 900.0
# Each site's DOWNLOAD_DELAY and CONCURRENT_REQUESTS_PER_DOMAIN held by the whole fleet, not per process.
FLEET_POLITENESS = True

# --- Downloads (crawler.middlewares) --------------------------------------------------------------------
# A 429 or 503 answer with Retry-After pauses its site's requests for what it asks, at most this many
# seconds (then Scrapy's retry goes on as usual); 0: off, retried at once.
RETRY_AFTER_MAX = 60.0

# --- Links (crawler.spiders.site) ----------------------------------------------------------------------
# New links scheduled from one page, at most (0: no limit): a page of half a million links does not
# fill the frontier; the links past it are counted (links_capped), and met again on other pages.
CRAWL_MAX_LINKS_PER_PAGE = 1_000

# --- Extraction (crawler.spiders.site, crawler.workers) -------------------------------------------------
# Worker processes that extract pages while the crawl process downloads and stores (crawler.workers);
# 0: extract in the crawl process. Until a worker has started, and after one dies, pages are extracted in
# the crawl process.
CRAWL_EXTRACTION_WORKERS = 1

# --- Focused crawling (crawler.focus), with -a topic=... -------------------------------------------------
# A link's priority: how much of the topic its anchor text and URL, its block (or the list around it) and its
# page's title name, by these weights; times FOCUS_TEMPLATE_FACTOR when its block is noise (menus, "latest
# posts", footers) beside content that links too.
FOCUS_ANCHOR_WEIGHT = 1.0
FOCUS_BLOCK_WEIGHT = 0.1
FOCUS_PAGE_WEIGHT = 0.1
FOCUS_TEMPLATE_FACTOR = 0.9
# False: the block is left out (its relevance and label), for comparison.
FOCUS_BLOCK_SIGNAL = True
# A page this relevant or more counts as relevant: the saturation test reads those.
FOCUS_MIN_RELEVANCE = 0.3
# Stop when the last FOCUS_SATURATION_PAGES relevant pages brought less than FOCUS_SATURATION_NEW_TERMS
# new words each on average (0 pages: never).
FOCUS_SATURATION_PAGES = 0
FOCUS_SATURATION_NEW_TERMS = 0.05
# A topic given by example pages (-a topic_file= a file of URLs) has the terms most of them share, this many.
FOCUS_EXAMPLE_TERMS = 40

# --- Trap guards (crawler.traps) ------------------------------------------------------------------------
# Per site, links past these counts are not followed (0: no limit): URLs scheduled; URLs of one path with
# different query strings (session ids, sort orders); URLs of one path pattern, digits masked (calendars,
# endless numbered pages); and a path in which one segment occurs more than this many times.
TRAP_MAX_PAGES_PER_SITE = 100_000
TRAP_MAX_QUERY_VARIANTS = 100
TRAP_MAX_PATTERN_URLS = 10_000
TRAP_MAX_SEGMENT_REPEATS = 3

# --- Progress and stats (crawler.extensions) ------------------------------------------------------------
# A progress line every this many kept pages and once at the end (0: off).
PROGRESS_INTERVAL_PAGES = 50
# Write the final stats as JSON to this file when the spider closes (empty: off).
STATS_JSON_PATH = ""

# --- Scrapy's item concurrency ----------------------------------------------------------------------------
# Scrapy's own setting, at the add-on's priority: the outputs of one callback (a page's links, then its
# item) processed at once. The pipelines do their work synchronously, so parallelism within one response
# buys nothing, while Scrapy starts this many worker tasks for every response (scrapy/scrapy#5182): at
# Scrapy's default of 100, 117,000 tasks for the 1,169 pages of the PostgreSQL docs.
CONCURRENT_ITEMS = 4
