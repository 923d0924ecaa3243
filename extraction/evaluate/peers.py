"""The extractors under comparison: cleancrawl's own `extract` and the peer libraries of the `bench` extra.

Every extractor takes the page as decoded text plus its URL and returns plain text. Peer libraries are
imported only when asked for, so the evaluator works with none of them installed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType
from typing import Any

import lxml.html

from extraction import extract
from extraction.errors import ExtractionError
from extraction.segment import LINE_BREAKING_TAGS

OURS = "cleancrawl"
INSTALL_HINT = "pip install -e '.[bench]'"


class PeerUnavailableError(Exception):
    """A peer's library is not installed."""


@dataclass(slots=True, frozen=True)
class Extractor:
    """A named extraction function and the exceptions that count as an empty prediction, not a crash."""

    name: str
    run: Callable[[str, str | None], str]
    tolerated: tuple[type[Exception], ...] = (Exception,)


def cleancrawl() -> Extractor:
    """Our extractor; only ExtractionError (input it refuses) counts as empty, other errors are bugs."""

    def run(html: str, url: str | None) -> str:
        return extract(html, url=url).text

    return Extractor(OURS, run, (ExtractionError,))


def load_peer(name: str) -> Extractor:
    """Import peer `name` now, outside any timing; PeerUnavailableError when it is not installed."""
    try:
        factory = PEERS[name]
    except KeyError:
        raise ValueError(f"unknown peer {name!r}; choose from {', '.join(PEERS)}") from None
    return factory()


def _import(module: str, distribution: str) -> ModuleType:
    """Import an optional peer module, naming the extra that provides it when it is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        message = f"{distribution} is not installed ({error}); install the peers with {INSTALL_HINT}"
        raise PeerUnavailableError(message) from None


def _trafilatura(fast: bool, comments: bool = False) -> Extractor:
    """trafilatura with tables kept and comments left out (the article benchmarks' convention) or, with
    `comments`, kept as its own default does (a forum thread's replies are its content); `fast` skips its
    fallback extractors."""
    module = _import("trafilatura", "trafilatura")

    def run(html: str, url: str | None) -> str:
        text = module.extract(html, url=url, include_comments=comments, include_tables=True, fast=fast)
        return str(text or "")

    name = "trafilatura-comments" if comments else "trafilatura-fast" if fast else "trafilatura"
    return Extractor(name, run)


def _readability() -> Extractor:
    """readability-lxml's summary HTML, flattened to text with a line per block element."""
    module = _import("readability", "readability-lxml")

    def run(html: str, url: str | None) -> str:
        return html_to_text(str(module.Document(html).summary()))

    return Extractor("readability", run)


def _justext() -> Extractor:
    """jusText's non-boilerplate paragraphs with the English stoplist, one per line.

    It gets the decoded text rather than bytes: the datasets keep each page's original `<meta charset>`,
    which can disagree with the UTF-8 the bytes are actually in, and jusText would trust the meta tag.
    """
    module = _import("justext", "jusText")
    stoplist = module.get_stoplist("English")

    def run(html: str, url: str | None) -> str:
        paragraphs: list[Any] = module.justext(html, stoplist)
        return "\n".join(str(p.text) for p in paragraphs if not p.is_boilerplate)

    return Extractor("justext", run)


def _resiliparse() -> Extractor:
    """Resiliparse's plain-text extraction with its main-content heuristics on."""
    module = _import("resiliparse.extract.html2text", "resiliparse")

    def run(html: str, url: str | None) -> str:
        return str(module.extract_plain_text(html, main_content=True))

    return Extractor("resiliparse", run)


def html_to_text(markup: str) -> str:
    """Visible text of an HTML fragment, one line per block element, whitespace folded within lines."""
    if not markup.strip():
        return ""
    root = lxml.html.fromstring(markup)
    for element in root.iter():
        # Without a break the words of two blocks would run together ("end.</p><p>Next" -> "end.Next"),
        # which merges two tokens and costs two shingles each side.
        if isinstance(element.tag, str) and element.tag in LINE_BREAKING_TAGS:
            element.text = "\n" + (element.text or "")
            element.tail = "\n" + (element.tail or "")
    # The stubs type itertext() as str | bytes; a tree parsed from str only ever yields str.
    text = "".join(part for part in root.itertext() if isinstance(part, str))
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


PEERS: Mapping[str, Callable[[], Extractor]] = MappingProxyType(
    {
        "trafilatura": lambda: _trafilatura(fast=False),
        "trafilatura-fast": lambda: _trafilatura(fast=True),
        "trafilatura-comments": lambda: _trafilatura(fast=False, comments=True),
        "readability": _readability,
        "justext": _justext,
        "resiliparse": _resiliparse,
    }
)
