"""The Scrapy project of cleancrawl: settings, spiders and project commands."""
