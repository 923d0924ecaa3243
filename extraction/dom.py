"""Parse HTML with lxml and clean the tree: scripts, styles, hidden and non-content elements go."""

from __future__ import annotations

import re
from typing import NamedTuple

from lxml import etree

from extraction.config import ExtractionConfig

# Elements whose content is never text a reader sees (seeds 001 and 002, preprocessing step).
_REMOVED_TAGS = (
    "script",
    "style",
    "template",
    "svg",
    "math",
    "canvas",
    "iframe",
    "object",
    "embed",
    "applet",
    "audio",
    "video",
    "map",
    "head",
    "link",
    "meta",
    "base",
    "dialog",
    # Never rendered, wherever it is (UA stylesheet: display none); libxml2 moves a <title> that follows
    # stray text into the body, where it would otherwise read as a line of the page. The page title is
    # read before cleaning.
    "title",
)
# React's streaming server rendering sends finished parts of the page as `<div hidden id="S:n">` and a
# script moves them into place on load: their text is the page a reader sees, so `hidden` does not count.
_STREAMED_SEGMENT = re.compile(r"S:\d+")
# Attributes that may hide their element; selecting attributes is twice as fast as testing every element,
# and the style test runs in Python, cheaper than XPath string functions. `/descendant::*` visits elements
# only, where `//` would also visit every text node.
_HIDING_ATTRIBUTES = etree.XPath("/descendant::*/@style|/descendant::*/@hidden|/descendant::*/@aria-hidden")
_TEXT_LENGTH = etree.XPath("string-length(normalize-space(.))")
# Hidden elements are renamed to this tag, then stripped with the removed tags.
_HIDDEN_MARK = "cleancrawl-hidden"
_DEFAULT_CONFIG = ExtractionConfig()
# The first match in document order; `[1]` on the descendant axis lets libxml2 stop there.
_TITLE = etree.XPath("string(/descendant::title[1])")
_OG_TITLE = etree.XPath("string(/descendant::meta[@property='og:title']/@content)")
_BODY = etree.XPath("/descendant::body[1]")


class ParsedHtml(NamedTuple):
    """The parsed tree (None when nothing parses) and why the parser stopped early ("" if it did not)."""

    root: etree._Element | None
    cut_short: str = ""


def parse_html(text: str | bytes) -> ParsedHtml:
    """Parse a page into an lxml tree, recovering from malformed markup.

    `huge_tree` lifts libxml2's default limits of 256 nested elements and 10 MB per text node: past either,
    the parser silently stops and the rest of the page (often all of it) is lost. The input size is already
    bounded by `ExtractionConfig.max_document_bytes`. Past the remaining depth limit (2048) the parser
    still stops; `cut_short` then says so, so that the result can give a reason.
    """
    # Bytes are UTF-8 (see `decode.parser_input`); the explicit encoding overrides the page's declaration.
    parser = etree.HTMLParser(
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        recover=True,
        huge_tree=True,
        # No table of `id` attributes: nothing looks elements up by id, and filling one costs time on each.
        collect_ids=False,
        encoding="utf-8" if isinstance(text, bytes) else None,
    )
    try:
        root = etree.fromstring(text, parser)
    except (etree.LxmlError, ValueError):
        return ParsedHtml(None)
    return ParsedHtml(root, _resource_limit(parser))


def _resource_limit(parser: etree.HTMLParser) -> str:
    for error in parser.error_log:
        if error.type_name != "ERR_RESOURCE_LIMIT":
            continue
        if "depth" in error.message.lower():
            return "elements nest deeper than the parser's limit; the page was read only up to there"
        return f"the parser stopped early ({error.message.strip()})"
    return ""


def page_title(root: etree._Element) -> str:
    """The page title from `<title>`, or `og:title` when there is none."""
    title = " ".join(str(_TITLE(root)).split())
    return title or " ".join(str(_OG_TITLE(root)).split())


def clean_tree(root: etree._Element, config: ExtractionConfig = _DEFAULT_CONFIG) -> etree._Element | None:
    """Remove non-content and hidden elements in place; return the body, or None if there is none."""
    # Passes in C that keep each removed element's tail text. Setting .text/.tail from Python instead
    # raised ValueError when the text held a control character the HTML parser had let through, and
    # dropped whitespace-only tails, gluing the words on either side of a hidden element together.
    # Scripts and styles go first: the share of the page a hidden element holds is a share of the text a
    # reader sees, which a page's inline scripts and JSON (often most of its bytes) would swamp.
    etree.strip_elements(root, *_REMOVED_TAGS, with_tail=False)
    if _mark_hidden(root, config):
        etree.strip_elements(root, _HIDDEN_MARK, with_tail=False)
    bodies = _elements(_BODY(root))
    return bodies[0] if bodies else root


def _mark_hidden(root: etree._Element, config: ExtractionConfig) -> bool:
    """Rename the hidden elements to the hidden mark; True when there was one."""
    # Paywall and anti-flicker scripts hide the whole article until they run; a hidden element that holds
    # a large share of the page's text is content a reader will see, not a closed menu or dialog.
    page_text = -1.0
    marked = False
    attributes = _HIDING_ATTRIBUTES(root)
    for value in attributes if isinstance(attributes, list) else ():
        if not isinstance(value, etree._ElementUnicodeResult):
            continue
        element = value.getparent()
        if (
            element is None
            or element.getparent() is None
            or not _hides(str(value.attrname), str(value), element)
        ):
            continue
        text = float(_TEXT_LENGTH(element))  # type: ignore[arg-type]
        if text >= config.keep_hidden_min_chars:
            page_text = float(_TEXT_LENGTH(root)) if page_text < 0 else page_text  # type: ignore[arg-type]
            if text >= config.keep_hidden_share * page_text:
                continue
        element.tag = _HIDDEN_MARK
        marked = True
    return marked


def _hides(attribute: str, value: str, element: etree._Element) -> bool:
    if attribute == "hidden":
        return not _STREAMED_SEGMENT.fullmatch(element.get("id", ""))
    if attribute == "aria-hidden":
        return value == "true"
    style = value.replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


def _elements(result: object) -> list[etree._Element]:
    """The elements of an XPath result (lxml types a result as any XPath value: list, str, float, bool)."""
    if not isinstance(result, list):
        return []
    return [item for item in result if isinstance(item, etree._Element)]
