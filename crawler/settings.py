"""Scrapy settings of the cleancrawl project: Scrapy's own settings as this crawler uses them.

cleancrawl's own settings and components come with its add-on (``ADDONS`` below): their defaults are in
`crawler.default_settings`, and ``docs/crawling.md`` documents every one. Any setting can be overridden for
one run with ``scrapy crawl SPIDER -s NAME=value``.
Reference: https://docs.scrapy.org/en/latest/topics/settings.html
"""

# --- Project --------------------------------------------------------------------------------------------
BOT_NAME = "cleancrawl"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"
# Project commands (`scrapy savings`, ...) live in crawler/commands/, one module per command.
COMMANDS_MODULE = "crawler.commands"
# cleancrawl's pipelines, extensions, offsite middleware and their settings' defaults (crawler/addon.py).
ADDONS = {"crawler.addon.CleancrawlAddon": 0}

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
# HTML pages rarely exceed a few megabytes (the largest of 1,539 real pages in aeb and wcxb-dev: 5.3 MB);
# refuse runaway responses. The cap bounds one page's cost: extraction of an 8 MiB page peaks some 120 MB
# above the process (230 MB at 16 MiB), and a body past it is buffered up to the cap before it is refused.
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
DOWNLOAD_MAXSIZE = 8 * 1024 * 1024

# --- Output ---------------------------------------------------------------------------------------------
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"

# --- Engine ---------------------------------------------------------------------------------------------
# The asyncio reactor (Scrapy's default since 2.13, stated here so the crawl never depends on the default).
# REQUEST_FINGERPRINTER_IMPLEMENTATION is not set: it is obsolete, the "2.7" fingerprinter is the only one.
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
# Scrapy re-reads a callback's source (inspect.getsource) to warn about generators that return a value; a
# file being replaced under a running crawl (a deploy) then fails the page. The spider returns none.
WARN_ON_GENERATOR_RETURN_VALUE = False
