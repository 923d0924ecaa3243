"""cleancrawl's spiders (``SPIDER_MODULES``)."""
