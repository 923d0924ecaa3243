"""The crawl context: one per crawler, shared by the spider and every pipeline; one engine, migrated once."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.utils.test import get_crawler
from sqlalchemy import inspect

from crawler.spiders.site import SiteSpider
from pipelines.cluster import ClusterPipeline
from pipelines.context import CrawlContext
from pipelines.noise import NoisePipeline
from pipelines.store import StoragePipeline
from tests.addon import addon_crawler
from tests.crawl_runner import run_crawl
from tests.servers import page, serve_routes


def test_the_spider_and_every_pipeline_share_one_context(tmp_path: Path) -> None:
    crawler = addon_crawler({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    context = CrawlContext.of(crawler)
    assert CrawlContext.of(crawler) is context
    cluster, noise = ClusterPipeline.from_crawler(crawler), NoisePipeline.from_crawler(crawler)
    store = StoragePipeline.from_crawler(crawler)
    assert cluster.context is context
    assert noise.site_models is context.models is not None
    assert store.config is context.config
    spider = SiteSpider.from_crawler(crawler, seeds="http://a.example/")
    spider._opened()
    assert spider.config is context.config
    context.close()


def test_the_store_is_opened_and_migrated_once(tmp_path: Path) -> None:
    context = CrawlContext(CrawlContext.of(addon_crawler()).config, f"sqlite:///{tmp_path / 'db.sqlite'}")
    sessions = context.sessions
    assert sessions is not None and context.sessions is sessions
    with sessions() as session:
        assert "pages" in inspect(session.connection()).get_table_names()
    context.close()


def test_without_a_database_there_is_no_store() -> None:
    assert CrawlContext.of(addon_crawler({"DATABASE_URL": ""})).sessions is None


def test_components_without_the_add_on_say_what_is_missing() -> None:
    with pytest.raises(RuntimeError, match=r"add 'crawler\.addon\.CleancrawlAddon' to ADDONS"):
        CrawlContext.of(get_crawler(SiteSpider))


def test_a_crawl_opens_its_store_once(tmp_path: Path) -> None:
    routes = {
        "/": page("<html><body><p>Home page text, long enough.</p><a href='/a'>A</a></body></html>"),
        "/a": page("<html><body><p>Page A has a paragraph of its own text.</p></body></html>"),
    }
    with serve_routes(routes) as server:
        run = run_crawl(tmp_path, server.base + "/")
    assert run.returncode == 0, run.log
    assert run.log.count("schema up to date") == 1
    assert run.stat("cleancrawl/pages_stored") == 2
