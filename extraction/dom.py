"""Parse HTML with lxml and clean the tree: scripts, styles, hidden and non-content elements go."""

from __future__ import annotations

from typing import NamedTuple

from lxml import etree

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
)
_HIDDEN = etree.XPath(
    "//*[@hidden or @aria-hidden='true' or @type='hidden'"
    " or contains(translate(@style, 'DISPLAYNONE ', 'displaynone'), 'display:none')"
    " or contains(translate(@style, 'VISIBLITYHDN ', 'visiblityhdn'), 'visibility:hidden')]"
)
_TITLE = etree.XPath("string(//head/title | //title)")
_OG_TITLE = etree.XPath("string(//meta[@property='og:title']/@content)")
_BODY = etree.XPath("//body")


class ParsedHtml(NamedTuple):
    """The parsed tree (None when nothing parses) and why the parser stopped early ("" if it did not)."""

    root: etree._Element | None
    cut_short: str = ""


def parse_html(text: str) -> ParsedHtml:
    """Parse a page into an lxml tree, recovering from malformed markup.

    `huge_tree` lifts libxml2's default limits of 256 nested elements and 10 MB per text node: past either,
    the parser silently stops and the rest of the page (often all of it) is lost. The input size is already
    bounded by `ExtractionConfig.max_document_bytes`. Past the remaining depth limit (2048) the parser
    still stops; `cut_short` then says so, so that the result can give a reason.
    """
    parser = etree.HTMLParser(
        remove_comments=True, remove_pis=True, no_network=True, recover=True, huge_tree=True
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


def clean_tree(root: etree._Element) -> etree._Element | None:
    """Remove non-content and hidden elements in place; return the body, or None if there is none."""
    etree.strip_elements(root, *_REMOVED_TAGS, with_tail=False)
    for element in _elements(_HIDDEN(root)):
        if element.getparent() is not None:
            _drop_keep_tail(element)
    bodies = _elements(_BODY(root))
    return bodies[0] if bodies else root


def _elements(result: object) -> list[etree._Element]:
    """The elements of an XPath result (lxml types a result as any XPath value: list, str, float, bool)."""
    if not isinstance(result, list):
        return []
    return [item for item in result if isinstance(item, etree._Element)]


def _drop_keep_tail(element: etree._Element) -> None:
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail and tail.strip():
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)
