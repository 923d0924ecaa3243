"""Extracting one page for the crawl: in the crawl process, or inside an extraction worker process
(`crawler.workers`), which imports this module, the library and `records`, nothing else (no Twisted, no
Scrapy).

Beside the result, a page's extraction gives what the crawl process would compute next from the result
alone, the blocks' site-model keys and the page's resolved links: in a worker, that work leaves the
reactor's thread too.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, NamedTuple

from extraction import ExtractionConfig, ExtractionResult
from extraction.methods.base import Method, Params
from extraction.methods.registry import get_method
from extraction.site_models import BlockKey
from records.pages import block_keys


class Extracted(NamedTuple):
    """A page's extraction, the site-model keys of its blocks (`shape_max_chars` of its site) and, when the
    crawl follows them, its links, absolute and normalised (`ExtractionResult.links`; else empty)."""

    result: ExtractionResult
    keys: list[BlockKey]
    links: list[str]


def extracted(
    method: Method[Any], body: bytes, url: str, encoding: str | None, shape_max_chars: int, follow: bool
) -> Extracted:
    """Extract one page with `method`, its links resolved only if `follow` (a page at the depth limit, or
    in a focused crawl, which ranks them itself, needs none); `ExtractionError` for input that is not a
    page."""
    result = method.extract(body, url=url, encoding=encoding)
    return Extracted(result, block_keys(result, shape_max_chars), result.links if follow else [])


# How often a worker checks that the crawl process is still there.
_PARENT_CHECK_SECONDS = 1.0
# A worker's method, set once by `start`, and one instance of it per config met (sites with overrides).
_method_name = ""
_params: Params | None = None
_methods: dict[ExtractionConfig, Method[Any]] = {}


def start(method: str, params: Params | None, crawl_pid: int) -> None:
    """The pool's initializer: which method this worker extracts with; the worker ends when the crawl
    process `crawl_pid` does."""
    global _method_name, _params
    _method_name, _params = method, params
    threading.Thread(target=_end_with, args=(crawl_pid,), name="end-with-crawl", daemon=True).start()


def _end_with(crawl_pid: int) -> None:
    """Exit once the crawl process is gone (killed, crashed). A pool's worker waits on a queue it holds both
    ends of itself, so it never sees its parent die, and would wait for good, holding its memory."""
    while os.getppid() == crawl_pid:
        time.sleep(_PARENT_CHECK_SECONDS)
    os._exit(0)


def ready() -> bool:
    """A task that tells the pool the worker has started (its imports done)."""
    return True


def extract(
    config: ExtractionConfig, body: bytes, url: str, encoding: str | None, shape_max_chars: int, follow: bool
) -> Extracted:
    """One page as `extracted` gives it with the crawl's method and `config`; `ExtractionError` travels
    back to the crawl process as it is."""
    method = _methods.get(config)
    if method is None:
        method = _methods[config] = get_method(_method_name, config, _params)
    return extracted(method, body, url, encoding, shape_max_chars, follow)
