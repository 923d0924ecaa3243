"""The interface every method of the seed papers implements, and the page preparation they share.

A method turns one page into labelled blocks (an `ExtractionResult`), like `extraction.extract`. Methods of
the site level (seed 001's ContentExtractor, seed 004's InfoDiscoverer, k-MIB, site style tree) first
`learn` from several pages of one site or cluster; a single-page method ignores `learn`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from extraction.config import ExtractionConfig
from extraction.result import ExtractionResult


@dataclass(frozen=True, slots=True)
class SitePage:
    """One page of a site handed to `Method.learn`: its HTML, URL and HTTP charset hint (as `extract`)."""

    html: str | bytes
    url: str | None = None
    encoding: str | None = None


class Method(ABC):
    """One segmentation and noise-removal method, configured by `ExtractionConfig`."""

    name: ClassVar[str]
    # Where the method comes from, e.g. "seed 002: raw chunks, noise score and content weight".
    paper: ClassVar[str]
    # True when the method needs several pages of one site (`learn`) to label a page.
    site_level: ClassVar[bool] = False

    def __init__(self, config: ExtractionConfig | None = None) -> None:
        self.config = config or ExtractionConfig()

    def learn(self, pages: Sequence[SitePage]) -> None:  # noqa: B027 - single-page methods learn nothing
        """Learn from pages of one site or cluster (site-level methods; a later call adds to what was
        learned, a page met again counts once); others ignore it."""

    @abstractmethod
    def extract(
        self, html: str | bytes, url: str | None = None, encoding: str | None = None
    ) -> ExtractionResult:
        """Segment one page into blocks and label each informative or noise."""
