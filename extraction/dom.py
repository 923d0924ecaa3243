"""Parse HTML with lxml and clean the tree: scripts, styles, hidden and non-content elements go."""

from __future__ import annotations

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


def parse_html(text: str) -> etree._Element | None:
    """Parse a page into an lxml tree, recovering from malformed markup; None when nothing parses."""
    parser = etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True, recover=True)
    try:
        root = etree.fromstring(text, parser)
    except (etree.ParserError, ValueError):
        return None
    return root


def page_title(root: etree._Element) -> str:
    """The page title from `<title>`, or `og:title` when there is none."""
    title = " ".join(str(_TITLE(root)).split())
    return title or " ".join(str(_OG_TITLE(root)).split())


def clean_tree(root: etree._Element) -> etree._Element | None:
    """Remove non-content and hidden elements in place; return the body, or None if there is none."""
    etree.strip_elements(root, *_REMOVED_TAGS, with_tail=False)
    for element in _HIDDEN(root):
        if element.getparent() is not None:
            _drop_keep_tail(element)
    bodies = _BODY(root)
    return bodies[0] if bodies else root


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
