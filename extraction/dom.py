"""Parse HTML with lxml and clean the tree: scripts, styles, hidden and non-content elements go."""

from __future__ import annotations

import re
from typing import NamedTuple

from lxml import etree

from extraction.config import ExtractionConfig
from extraction.errors import TooManyAttributesError
from extraction.segment import BLOCK_TAGS

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
# A button holding what no button holds; renamed to this tag, then unwrapped (its content stays).
_SWALLOWING_BUTTONS = etree.XPath("//button[descendant::main or descendant::article or descendant::h1]")
_UNWRAPPED_MARK = "cleancrawl-unwrapped"
_DEFAULT_CONFIG = ExtractionConfig()
# The first match in document order; `[1]` on the descendant axis lets libxml2 stop there.
_TITLE = etree.XPath("string(/descendant::title[1])")
_OG_TITLE = etree.XPath("string(/descendant::meta[@property='og:title']/@content)")
_BODY = etree.XPath("/descendant::body[1]")


# The markup as HTML5 (and libxml2 since 2.14) splits it, for `check_attributes`: a start tag is its name,
# then attributes, each after optional white space or slashes: a name (its first character may be "="),
# then "=" and a value, quoted or not. A quote is special only where a value starts, so a ">" in a quoted
# value does not end the tag. The text of a raw-text element (script, style, ...) runs to its end tag, that
# of a comment to "-->", and `plaintext` to the end of the page. No capturing groups: in a possessive
# repetition they trip an error of the re module.
_SPACE = r"\t\n\f\r "
_ATTRIBUTE = (
    rf"[{_SPACE}/]*+[^{_SPACE}/>][^{_SPACE}/>=]*+"
    rf"""(?:[{_SPACE}]*+=[{_SPACE}]*+(?:"[^"]*+"|'[^']*+'|[^{_SPACE}>]*+))?+"""
)
_TAG_END = rf"[{_SPACE}/]*+(?:>|\Z)"
_START_TAG = rf"[A-Za-z][^{_SPACE}/>]*+(?:{_ATTRIBUTE}){{{{0,{{limit}}}}}}+{_TAG_END}"
_RAW_TEXT = ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes")
_NOT_RAW_TEXT = rf"(?!(?i:{'|'.join(_RAW_TEXT)}|plaintext)[{_SPACE}/>])"
_RAW_TEXT_ELEMENTS = "|".join(
    rf"(?=(?i:{name})[{_SPACE}/>]){_START_TAG}(?:[^<]++|<(?!/(?i:{name})[{_SPACE}/>]))*+"
    for name in _RAW_TEXT
)
_ONE_ATTRIBUTE = re.compile(_ATTRIBUTE.encode())
_RAW_TEXT_START = re.compile(rf"<(?i:{'|'.join(_RAW_TEXT)}|plaintext)[{_SPACE}/>]".encode())
_MARKUP = (
    rf"(?:[^<]++|<(?:{_NOT_RAW_TEXT}{_START_TAG}|/[A-Za-z][^>]*+>?|!--(?:[^-]++|-(?!->))*+(?:-->)?+"
    rf"|{_RAW_TEXT_ELEMENTS}|(?=(?i:plaintext)[{_SPACE}/>]){_START_TAG}[\s\S]*+"
    rf"|(?![A-Za-z])(?:[!?/][^>]*+>?)?+))*+"
)


class _AttributeScan(NamedTuple):
    """The patterns of `check_attributes` for one attribute limit."""

    # A start tag up to `limit` attributes, or the rest of one from a "<" in a name or value.
    tag_head: re.Pattern[bytes]
    # The page read from its start up to its first start tag with more attributes than the limit.
    markup: re.Pattern[bytes]
    limit: int


_SCANS: dict[int, _AttributeScan] = {}


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


def check_attributes(document: str | bytes, limit: int) -> None:
    """Raise `TooManyAttributesError` when a start tag of the page has more than `limit` attributes.

    libxml2 takes time quadratic in the attributes of one element. Their names and what separates them take
    two characters each at least, so such a tag runs 2 x `limit` characters without a ">" (unless quoted
    values hold some): one look for the last ">" within that distance of the one before finds each run
    that long, a few calls per page in C. The runs (a long paragraph, a script, a tag with a long style,
    path or data URL) are searched for the start tags spanning them, and one match counts the attributes
    of each. Only when one has too many is the page read from its start, which tells a tag from a "<" in a
    script, a comment or an attribute value. Not caught: a tag that spreads its attributes among ">"
    characters in its quoted values, fewer than 2 x `limit` characters apart.
    """
    data = document if isinstance(document, bytes) else document.encode("utf-8", "replace")
    scan = _SCANS.get(limit)
    if scan is None:
        scan = _SCANS[limit] = _attribute_scan(limit)
    rfind, span, last = data.rfind, 2 * limit, -1
    # `last` is the position of a ">" (-1: the start of the page); the last one within `span` after it
    # comes next, or the run without one that starts there is checked.
    while last + span < len(data):
        found = rfind(b">", last + 1, last + span + 1)
        last = found if found >= 0 else _check_run(data, last + 1, scan)


def _check_run(data: bytes, start: int, scan: _AttributeScan) -> int:
    """Check the start tags spanning the run without ">" from `start`; return where the checked part ends
    (the run's ">", or the end of the page)."""
    end = data.find(b">", start + 2 * scan.limit)
    end = len(data) if end < 0 else end
    if not _crowded(data, start, end, scan):
        return end
    read = scan.markup.match(data)  # always a match, maybe an empty one
    if read is not None and read.end() < len(data):
        raise TooManyAttributesError(f"a start tag has more than {scan.limit} attributes")
    return len(data)


def _crowded(data: bytes, start: int, end: int, scan: _AttributeScan) -> bool:
    """True when a start tag over the run from `start` to `end` may have too many attributes: the tag the
    run may continue (past a ">" in a quoted value of its own), or one opening in the run far enough from
    its end. Read as a tag, one goes on to the run's end (or to `limit` attributes), so it stands for the
    tags opening after it, whose attributes would be among its own."""
    span = 2 * scan.limit
    opening = data.rfind(b"<", max(0, start - span), start)
    if opening >= 0:
        if _tag_end(data, opening, scan) < 0:
            return True
        if _RAW_TEXT_START.match(data, opening) is not None:
            return False  # the text of a script or a style holds no tag
    position = data.find(b"<", start, end - span)
    while position >= 0:
        if data[position + 1 : position + 2].isalpha():
            tag_end = _tag_end(data, position, scan)
            if tag_end < 0:
                return True
            position = max(position, tag_end)
        position = data.find(b"<", position + 1, end - span)
    return False


def _tag_end(data: bytes, position: int, scan: _AttributeScan) -> int:
    """Where the start tag read from the "<" at `position` ends, `limit` attributes at most; -1 when one more
    follows (a tag with too many)."""
    head = scan.tag_head.match(data, position)
    end = head.end() if head is not None else position + 1
    return -1 if _ONE_ATTRIBUTE.match(data, end) is not None else end


def _attribute_scan(limit: int) -> _AttributeScan:
    return _AttributeScan(
        re.compile(f"<[^{_SPACE}/>]*+(?:{_ATTRIBUTE}){{0,{limit}}}+".encode()),
        re.compile(_MARKUP.format(limit=limit).encode()),
        limit,
    )


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
    _unwrap_swallowing_buttons(root)
    bodies = _elements(_BODY(root))
    return bodies[0] if bodies else root


def _unwrap_swallowing_buttons(root: etree._Element) -> None:
    """Unwrap a button holding a page's main, article or headline: libxml2 ignores a `</button>` while an
    element it opened is still open, so the button swallows the rest of the page (a menu button whose
    inner `<div>` is never closed), and a button's text is skipped as a control's."""
    buttons = _elements(_SWALLOWING_BUTTONS(root))
    for button in buttons:
        button.tag = _UNWRAPPED_MARK
    if buttons:
        etree.strip_tags(root, _UNWRAPPED_MARK)


def _mark_hidden(root: etree._Element, config: ExtractionConfig) -> bool:
    """Rename the hidden elements to the hidden mark, but the one a script reveals (`_revealed`); True when
    one was renamed."""
    hidden = []
    attributes = _HIDING_ATTRIBUTES(root)
    for value in attributes if isinstance(attributes, list) else ():
        if not isinstance(value, etree._ElementUnicodeResult):
            continue
        element = value.getparent()
        if (
            element is not None
            and element.getparent() is not None
            and _hides(str(value.attrname), str(value), element)
        ):
            hidden.append(element)
    # An element hidden two ways (`hidden` and a style) is listed once: `_revealed` sums their texts.
    hidden = list(dict.fromkeys(hidden))
    revealed = _revealed(root, hidden, config)
    for element in hidden:
        if element is not revealed:
            element.tag = _HIDDEN_MARK
    return any(element is not revealed for element in hidden)


def _revealed(
    root: etree._Element, hidden: list[etree._Element], config: ExtractionConfig
) -> etree._Element | None:
    """The hidden element a script will show, or None: paywall and anti-flicker scripts hide the whole
    article until they run. It is the largest hidden part of the page, and once shown it holds the share
    `keep_hidden_share` of what a reader sees; a closed menu is neither, however thin the page around it."""
    lengths = [float(_TEXT_LENGTH(element)) for element in hidden]  # type: ignore[arg-type]
    if not lengths or max(lengths) < config.keep_hidden_min_chars:
        return None
    members = set(hidden)
    outermost = [
        length
        for element, length in zip(hidden, lengths, strict=True)
        if not any(ancestor in members for ancestor in element.iterancestors())
    ]
    largest = max(range(len(hidden)), key=lengths.__getitem__)
    shown = float(_TEXT_LENGTH(root)) - sum(outermost) + lengths[largest]  # type: ignore[arg-type]
    return hidden[largest] if lengths[largest] >= config.keep_hidden_share * shown else None


def _hides(attribute: str, value: str, element: etree._Element) -> bool:
    # A tab's other panels are on the page, one click away (WAI-ARIA tabs: role="tabpanel"), whatever hides
    # them until then: a guide's code in every language, a product's specification beside its description.
    if element.get("role") == "tabpanel":
        return False
    if attribute == "hidden":
        return not _STREAMED_SEGMENT.fullmatch(element.get("id", ""))
    if attribute == "aria-hidden":
        # A rendering hint to screen readers, not to the eye: a closed accordion's answers, a carousel's
        # other slides and a tab's other panels are on the page, and stay (`segment` marks them veiled).
        # An inline one is a glyph: an icon font's ligature ("expand_more"), a close button's "×".
        return value == "true" and element.tag not in BLOCK_TAGS
    style = value.replace(" ", "").lower()
    return "display:none" in style or "visibility:hidden" in style


def _elements(result: object) -> list[etree._Element]:
    """The elements of an XPath result (lxml types a result as any XPath value: list, str, float, bool)."""
    if not isinstance(result, list):
        return []
    return [item for item in result if isinstance(item, etree._Element)]
