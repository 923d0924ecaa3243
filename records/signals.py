"""Signals the crawl's components send one another beside Scrapy's own (`scrapy.signals`).

A signal is an object, as Scrapy's are; handlers connect with ``crawler.signals.connect(handler, signal)``.
"""

# Sent by the storage pipeline (`pipelines.store.StoragePipeline`) after it tried to write a batch, stored
# or not: ``records``, the batch's `PageRecord` and `UrlRecord` items. Each record's `lease` is done: a
# fleet (`crawler.fleet_components`) holds a request until its outcome is written, so that a process that
# dies with pages in its unwritten batch gives their requests back to the queue.
batch_written = object()

# Sent by the storage pipeline when the spider closes, before its last re-clean: a handler returns the
# `records.closing.ClosingShare` of this process. A fleet (`crawler.fleet_components`) returns its own, so
# that its processes share the work; with no handler the process closes alone.
closing_share = object()
