"""Scrapy settings of the cleancrawl crawler.

Settings are the interface of a Scrapy project: every one the project relies on lives here, grouped and
documented, and any of them can be overridden for one run with ``scrapy crawl SPIDER -s NAME=value``.
Reference: https://docs.scrapy.org/en/latest/topics/settings.html
"""

# --- Project --------------------------------------------------------------------------------------------
BOT_NAME = "cleancrawl"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"
# Project commands (`scrapy savings`, ...) live in crawler/commands/, one module per command.
COMMANDS_MODULE = "crawler.commands"

# --- Politeness -----------------------------------------------------------------------------------------
# Identify the crawler and where to read about it.
USER_AGENT = "cleancrawl/0.1 (+https://github.com/cleancrawl/cleancrawl)"
ROBOTSTXT_OBEY = True
# A focused crawl visits few hosts deeply: keep the load on each host small.
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 2
DOWNLOAD_DELAY = 0.5

# AutoThrottle adapts the delay to each host's latency, starting cautiously and never above MAX_DELAY.
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
# Average number of requests in flight per host that AutoThrottle aims for.
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
AUTOTHROTTLE_DEBUG = False

# --- Downloads ------------------------------------------------------------------------------------------
DOWNLOAD_TIMEOUT = 30
RETRY_TIMES = 2
# HTML pages rarely exceed a few megabytes; refuse runaway responses.
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024

# The crawl's scope is host *and port* (crawler/scope.py); Scrapy's offsite filter compares host names only.
DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": None,
    "crawler.middlewares.ScopeOffsiteMiddleware": 50,
}

# Meta refresh is followed by the `site` spider itself: extraction reads the target during the page's one
# parse (ExtractionResult.refresh_url), so Scrapy's MetaRefreshMiddleware would only parse the page again.
# HTTP redirects stay with Scrapy's RedirectMiddleware (REDIRECT_MAX_TIMES also caps refresh chains).
METAREFRESH_ENABLED = False

# --- Pipelines ------------------------------------------------------------------------------------------
# Segmentation runs in the spider (one parse per page); then template signature, a site-level method's
# learning, noise, storage.
ITEM_PIPELINES = {
    "pipelines.cluster.ClusterPipeline": 300,
    "pipelines.method.MethodPipeline": 350,
    "pipelines.noise.NoisePipeline": 400,
    "pipelines.store.StoragePipeline": 800,
}
# ClusterPipeline: on/off. The signature and similarity threshold are EXTRACTION_SITE_* settings below.
CLUSTER_ENABLED = True
# MethodPipeline: on only with a site-level EXTRACTION_METHOD (contentextractor, infodiscoverer, kmib,
# styletree). Each cluster's method learns its first EXTRACTION_METHOD_LEARN_PAGES pages (held in memory),
# at EXTRACTION_SITE_MIN_PAGES pages and each time the cluster's page count doubles; from then on every
# page of the cluster is labelled by the learned method. Earlier pages keep the unlearned method's labels.
# NoisePipeline: on/off (off, noise blocks keep their text up to storage).
NOISE_ENABLED = True
# Cross-page site models (NoisePipeline revises labels, StoragePipeline re-cleans stored pages when a
# cluster matures and at the end of the crawl). EXTRACTION_SITE_MIN_PAGES: pages before a model decides.
# They are part of the cleancrawl method: with another EXTRACTION_METHOD they are off.
SITE_MODELS_ENABLED = True
# StoragePipeline: SQLAlchemy URL (sqlite:///PATH or postgresql+psycopg://USER@HOST/DB) and the number of
# pages written per transaction.
DATABASE_URL = "sqlite:///cleancrawl.db"
STORAGE_BATCH_SIZE = 50

# --- Extraction -----------------------------------------------------------------------------------------
# Any field of extraction/config.py (ExtractionConfig) is a setting EXTRACTION_<FIELD>, e.g.
# `-s EXTRACTION_MAX_LINK_DENSITY=0.4`; pipelines/config.py converts the values and rejects unknown names.
# EXTRACTION_METHOD picks the extraction method: cleancrawl (the default) or a seed paper's
# (extraction/methods/registry.py: keypattern, domlocate, chunkweight, cetr, featureextractor, kfe,
# contentextractor, infodiscoverer, kmib, styletree, evbe); an unknown name stops the crawl at start with
# the list of methods. EXTRACTION_METHOD_LEARN_PAGES (32) bounds the pages of each cluster a site-level
# method learns from (their HTML is held until learned).
# Figure and image captions are not part of the stored text.
EXTRACTION_INCLUDE_CAPTIONS = False
# Settings of some sites' own: {site: {EXTRACTION_*: value}}, a site being "host:port" or "host" (every
# port), e.g. {"docs.example.org": {"EXTRACTION_SITE_FREQUENT_SHARE": 0.8}} (on the command line, as JSON).
# They apply on top of the settings above to the spider's extraction and every pipeline; the method
# (EXTRACTION_METHOD, EXTRACTION_METHOD_LEARN_PAGES) is the crawl's and cannot be set per site.
EXTRACTION_SITE_OVERRIDES: dict[str, dict[str, object]] = {}

# --- Progress and stats ---------------------------------------------------------------------------------
# crawler/extensions.py: a progress line every PROGRESS_INTERVAL_PAGES kept pages (0: off), and the final
# stats written as JSON to STATS_JSON_PATH when it is set.
EXTENSIONS = {
    "crawler.extensions.ProgressLog": 500,
    "crawler.extensions.StatsJson": 510,
}
PROGRESS_INTERVAL_PAGES = 50
STATS_JSON_PATH = ""

# --- Output ---------------------------------------------------------------------------------------------
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"

# --- Engine ---------------------------------------------------------------------------------------------
# The asyncio reactor (Scrapy's default since 2.13, stated here so the crawl never depends on the default).
# REQUEST_FINGERPRINTER_IMPLEMENTATION is not set: it is obsolete, the "2.7" fingerprinter is the only one.
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
