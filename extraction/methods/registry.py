"""Every method by name: `get_method("cetr")` is how a crawl, the evaluator and a user select one."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from extraction.config import ExtractionConfig
from extraction.methods.base import Method, Params
from extraction.methods.cetr import Cetr
from extraction.methods.chunkweight import ChunkWeight
from extraction.methods.cleancrawl import CleanCrawl
from extraction.methods.contentextractor import ContentExtractor
from extraction.methods.domlocate import DomLocate
from extraction.methods.evbe import Evbe
from extraction.methods.infodiscoverer import InfoDiscoverer
from extraction.methods.keypattern import KeyPattern
from extraction.methods.kfe import FeatureExtractor, KFeatureExtractor
from extraction.methods.kmib import KMib
from extraction.methods.styletree import SiteStyleTree

DEFAULT_METHOD = CleanCrawl.name
# One entry per method class; the order is the order of the evaluator's comparison table.
METHODS: MappingProxyType[str, type[Method[Any]]] = MappingProxyType(
    {
        method.name: method
        for method in (
            CleanCrawl,
            KeyPattern,
            DomLocate,
            ChunkWeight,
            Cetr,
            FeatureExtractor,
            KFeatureExtractor,
            ContentExtractor,
            InfoDiscoverer,
            KMib,
            SiteStyleTree,
            Evbe,
        )
    }
)


class UnknownMethodError(ValueError):
    """A method name that is not in `METHODS`."""


def method_class(name: str) -> type[Method[Any]]:
    """The class of the method called `name`."""
    try:
        return METHODS[name]
    except KeyError:
        raise UnknownMethodError(f"unknown method {name!r}; choose from {', '.join(METHODS)}") from None


def get_method(
    name: str, config: ExtractionConfig | None = None, params: Params | None = None
) -> Method[Any]:
    """A new instance of the method called `name` with its parameters (its defaults when None); site-level
    methods keep what they `learn`."""
    return method_class(name)(config, params)
