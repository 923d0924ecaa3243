"""The interface every method of the seed papers implements, and the page preparation they share.

A method turns one page into labelled blocks (an `ExtractionResult`), like `extraction.extract`. Methods of
the site level (seed 001's ContentExtractor, seed 004's InfoDiscoverer, k-MIB, site style tree) first
`learn` from several pages of one site or cluster; a single-page method ignores `learn`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, cast, get_args, get_origin

from lxml import etree

from extraction.config import ExtractionConfig
from extraction.prepare import PreparedPage, prepare
from extraction.result import ExtractionResult, Rule


@dataclass(frozen=True, slots=True)
class SitePage:
    """One page of a site handed to `Method.learn`: its HTML, URL and HTTP charset hint (as `extract`)."""

    html: str | bytes
    url: str | None = None
    encoding: str | None = None


@dataclass(frozen=True, slots=True)
class Params:
    """A method's own parameters: a frozen dataclass per method (or per technique several methods share).

    `prefix` names them in a crawl's settings: field `model` of a params class whose prefix is "cetr" is
    the setting ``EXTRACTION_CETR_MODEL``. A field that is itself `Params` (a technique the method builds
    on, such as GetBlocks) keeps its own prefix.
    """

    prefix: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class NoParams(Params):
    """The parameters of a method that has none of its own (its thresholds are `ExtractionConfig`'s)."""


ParamsT = TypeVar("ParamsT", bound=Params)


class Method(ABC, Generic[ParamsT]):
    """One segmentation and noise-removal method: `ExtractionConfig` for the steps every method shares
    (decoding, cleaning, segmentation limits), its own `Params` for the rest."""

    # The method's name among `METHODS` (how a crawl or the evaluator selects it), given with the class:
    # `class Cetr(Method[CetrParams], name="cetr")`.
    name: ClassVar[str]
    # Where the method comes from, e.g. "seed 002: raw chunks, noise score and content weight".
    paper: ClassVar[str]
    # True when the method needs several pages of one site (`learn`) to label a page.
    site_level: ClassVar[bool] = False
    # The class of the method's parameters (instances of it are what `params` holds): the one the class
    # names, `class Cetr(Method[CetrParams])` (`__init_subclass__`); a method that names none has none.
    params_type: ClassVar[type[Params]] = NoParams
    # True when the method names the rule of each decision itself (`Rule`); a paper method's blocks are
    # marked `Rule.METHOD`, their reason saying which of its steps decided.
    names_rules: ClassVar[bool] = False

    def __init_subclass__(cls, name: str = "", **kwargs: Any) -> None:
        """Set the method's `name` (a class shared by methods has none) and read `params_type` off the
        class's base: `Method[CetrParams]`, or a generic subclass of Method given its params the same way."""
        super().__init_subclass__(**kwargs)
        if name:
            cls.name = name
        for base in cls.__dict__.get("__orig_bases__", ()):
            origin, args = get_origin(base), get_args(base)
            if isinstance(origin, type) and issubclass(origin, Method) and args and isinstance(args[0], type):
                cls.params_type = args[0]

    def __init__(self, config: ExtractionConfig | None = None, params: ParamsT | None = None) -> None:
        self.config = config or ExtractionConfig()
        if params is not None and not isinstance(params, self.params_type):
            raise TypeError(f"{self.name} takes {self.params_type.__name__}, not {type(params).__name__}")
        self.params: ParamsT = params if params is not None else cast(ParamsT, self.params_type())
        self.setup()

    def setup(self) -> None:
        """Build what the method keeps between pages from its params (a site-level method's memory of the
        pages it learned); most keep nothing."""

    def learn(self, pages: Sequence[SitePage]) -> None:
        """Learn from pages of one site or cluster (site-level methods; a later call adds to what was
        learned, a page met again counts once); others ignore it."""

    def extract(
        self, html: str | bytes, url: str | None = None, encoding: str | None = None
    ) -> ExtractionResult:
        """Segment one page into blocks and label each informative or noise.

        Every method starts as `extraction.extract` does (`extraction.prepare`: decode, parse, read the
        title and links, clean); raises an `ExtractionError` subclass for input that is not a page.
        """
        prepared = prepare(html, url, self.config, encoding)
        if prepared.body is None:
            return prepared.result
        result = self.label_page(SitePage(html, url, encoding), prepared, prepared.body)
        if not self.names_rules:
            for block in result.blocks:
                block.rule = Rule.METHOD
        return result

    @abstractmethod
    def label_page(self, source: SitePage, prepared: PreparedPage, body: etree._Element) -> ExtractionResult:
        """The method's own steps on a prepared page: segment its cleaned `body` into blocks and label
        them, into `prepared.result`; `source` is the input as given (for a method that reads more than the
        cleaned body: its style sheets, its identity among the pages it learned)."""
