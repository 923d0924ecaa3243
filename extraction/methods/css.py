"""CSS for the visual methods: inline `style` attributes and the page's own `<style>` sheets, cascaded.

Only what a layout without a rendering engine can know, for the properties EVBE reads: display and
visibility, float and clear, width and height, background colour, border widths, font size, weight and
colour. Sheets are parsed by tinycss2 and matched by cssselect2; the cascade orders declarations by
importance, origin (inline over sheets), specificity and order. Linked sheets are not fetched (a page is
labelled from its own bytes). Bounded work: at most `evbe_max_stylesheet_chars` of sheets,
`evbe_max_css_rules` rules that set one of those properties, `evbe_max_elements` elements styled, and
sheet selectors are matched only above `evbe_max_match_depth` (a descendant selector walks up every
ancestor).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import cssselect2  # type: ignore[import-untyped]
import tinycss2  # type: ignore[import-untyped]
from lxml import etree

from extraction.decode import parser_input
from extraction.dom import parse_html
from extraction.errors import ExtractionError
from extraction.segment import BLOCK_TAGS

if TYPE_CHECKING:  # evbe imports this module; its parameters are needed only as a type here
    from extraction.methods.evbe import EvbeParams

_STYLE_TEXT = etree.XPath("//style/text()", smart_strings=False)
_IDS = etree.XPath("descendant-or-self::*/@id", smart_strings=False)
_CLASSES = etree.XPath("descendant-or-self::*/@class", smart_strings=False)
_LENGTH = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))(px|%|em|rem|pt|vw)?$")
_MEDIA_WIDTH = re.compile(r"\((min|max)-width\s*:\s*([\d.]+)(px|em|rem)?\s*\)")
_SIDES = ("top", "right", "bottom", "left")
_BORDER_STYLES = frozenset(
    {"none", "hidden", "dotted", "dashed", "solid", "double", "groove", "ridge", "inset", "outset"}
)
_BORDER_WIDTHS = {"thin": 1.0, "medium": 3.0, "thick": 5.0}
_BACKGROUND_WORDS = frozenset(
    {
        "none", "repeat", "repeat-x", "repeat-y", "no-repeat", "space", "round", "scroll", "fixed", "local",
        "center", "top", "bottom", "left", "right", "auto", "cover", "contain", "border-box",
        "padding-box", "content-box", "text", "inherit", "initial", "unset", "revert",
    }
)  # fmt: skip
_WHITE = frozenset({"white", "#fff", "#ffffff", "rgb(255,255,255)", "rgba(255,255,255,1)"})
_TRANSPARENT = frozenset({"transparent", "none", "inherit", "initial", "unset", "rgba(0,0,0,0)"})
_DEFAULT_FONT = 16.0
_HEADING_SIZES = {"h1": 2.0, "h2": 1.5, "h3": 1.17, "h5": 0.83, "h6": 0.67, "small": 0.83}
_PROPERTIES = frozenset(
    {"display", "visibility", "float", "clear", "width", "height", "background-color", "font-size",
     "font-weight", "color"}
    | {f"border-{side}-{part}" for side in _SIDES for part in ("width", "style")}
)  # fmt: skip
# An expanded declaration: (longhand property, value, important).
Declaration = tuple[str, str, bool]


@dataclass(slots=True)
class Style:
    """The computed values EVBE reads of one element (lengths in CSS pixels, None: auto or unknown)."""

    display: str = "inline"
    hidden: bool = False
    floating: str = "none"
    clear: str = "none"
    width: float | None = None
    height: float | None = None
    background: str | None = None
    # The background seen through this element: its own, else its nearest painted ancestor's.
    painted: str | None = None
    borders: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    font_size: float = _DEFAULT_FONT
    font_weight: str = "400"
    color: str = ""

    @property
    def is_inline(self) -> bool:
        """True for inline boxes (inline, inline-block, ...): they do not start a new line."""
        return self.display.startswith("inline")

    @property
    def coloured(self) -> bool:
        """True when the element paints a background other than white."""
        return self.background is not None and self.background not in _WHITE


@dataclass(slots=True)
class StyleSheets:
    """The page's sheet rules that set a property EVBE reads, ready to match."""

    matcher: cssselect2.Matcher = field(default_factory=cssselect2.Matcher)
    rules: int = 0


def page_stylesheets(html: str | bytes, encoding: str | None, params: EvbeParams) -> list[str]:
    """The text of the page's `<style>` elements, read before cleaning removes them, within the size bound."""
    try:
        document = parser_input(html, encoding).document
    except ExtractionError:
        return []
    root = parse_html(document).root
    texts = _STYLE_TEXT(root) if root is not None else []
    found: list[str] = []
    budget = params.max_stylesheet_chars
    for text in texts if isinstance(texts, list) else []:
        found.append(str(text)[:budget])
        budget -= len(found[-1])
        if budget <= 0:
            break
    return found


def compile_sheets(texts: list[str], body: etree._Element, params: EvbeParams) -> StyleSheets:
    """Parse the sheets and keep the rules, applying to this viewport, that set a property EVBE reads.

    A selector naming a class or id no element of the page has cannot match: it is dropped before it is
    compiled (most of a framework's sheet, whose compiling and matching would cost more than the rest).
    """
    names = _page_names(body)
    sheets = StyleSheets()
    for rule in _style_rules(texts, params):
        selectors = list(_selectors(rule.prelude, names))
        declarations = _declarations(rule.content) if selectors else []
        if not declarations:
            continue
        for selector in selectors:
            sheets.matcher.add_selector(selector, declarations)
        sheets.rules += 1
        if sheets.rules >= params.max_css_rules:
            break
    return sheets


def _page_names(body: etree._Element) -> frozenset[str]:
    """The classes (".name") and ids ("#name") used on the page."""
    ids, classes = _IDS(body), _CLASSES(body)
    names = {f"#{value!s}" for value in (ids if isinstance(ids, list) else [])}
    names.update(
        f".{name}" for value in (classes if isinstance(classes, list) else []) for name in str(value).split()
    )
    return frozenset(names)


def _selectors(prelude: list[Any], names: frozenset[str]) -> Iterator[Any]:
    """The compiled selectors of a rule's prelude that may match the page (never pseudo-elements)."""
    selector: list[Any] = []
    for token in [*prelude, None]:
        if token is not None and not (token.type == "literal" and token.value == ","):
            selector.append(token)
            continue
        if _may_match(selector, names):
            yield from _compiled(selector)
        selector = []


def _compiled(tokens: list[Any]) -> list[Any]:
    """The compiled selectors, without pseudo-elements (they style generated boxes); none if invalid."""
    try:
        compiled = cssselect2.compile_selector_list(tokens)
    except cssselect2.SelectorError:
        return []
    return [selector for selector in compiled if selector.pseudo_element is None]


def _may_match(tokens: list[Any], names: frozenset[str]) -> bool:
    """False when the selector names a class or id that is not on the page (outside functions like :not)."""
    for previous, token in itertools.pairwise([None, *tokens]):
        if token.type == "hash" and f"#{token.value}" not in names:
            return False
        dot = previous is not None and previous.type == "literal" and previous.value == "."
        if dot and token.type == "ident" and f".{token.value}" not in names:
            return False
    return bool(tokens)


def computed_styles(
    body: etree._Element, sheets: StyleSheets, params: EvbeParams
) -> dict[etree._Element, Style]:
    """The computed style of the body and its elements, parents before children."""
    styles: dict[etree._Element, Style] = {}
    viewport = params.viewport_width
    for wrapper, depth in _walk(body, params.max_elements):
        element = wrapper.etree_element
        matched = sheets.matcher.match(wrapper) if depth < params.max_match_depth else []
        declared = _cascade(matched, element.get("style"))
        parent = element.getparent()
        parent_style = styles.get(parent) if parent is not None else None
        styles[element] = _compute(str(element.tag), declared, parent_style, viewport)
    return styles


def _walk(body: etree._Element, limit: int) -> Iterator[tuple[Any, int]]:
    """cssselect2 wrappers of the body and its elements in document order, with their depth under the body
    (wrapped from the document root, so that selectors see the body's ancestors)."""
    top = cssselect2.ElementWrapper.from_html_root(body.getroottree().getroot())
    start = next((wrapper for wrapper in top.iter_subtree() if wrapper.etree_element is body), top)
    stack: list[tuple[Any, int]] = [(start, 0)]
    seen = 0
    while stack and seen < limit:
        wrapper, depth = stack.pop()
        seen += 1
        yield wrapper, depth
        stack.extend((child, depth + 1) for child in reversed(list(wrapper.iter_children())))


def _style_rules(texts: list[str], params: EvbeParams) -> Iterator[Any]:
    """The qualified rules of the sheets, inside `@media` blocks that apply to the viewport."""
    pending: list[Any] = []
    for text in texts:
        pending.extend(reversed(tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)))
        while pending:
            rule = pending.pop()
            if rule.type == "qualified-rule":
                yield rule
            elif rule.type == "at-rule" and rule.content is not None and _nested_applies(rule, params):
                nested = tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True)
                pending.extend(reversed(nested))


def _nested_applies(rule: Any, params: EvbeParams) -> bool:
    """`@media` for a screen as wide as the viewport (`@supports` and `@layer` apply; others do not)."""
    keyword = rule.lower_at_keyword
    if keyword in ("supports", "layer"):
        return True
    if keyword != "media":
        return False
    queries = tinycss2.serialize(rule.prelude).lower().split(",")
    return any(_query_applies(query, params.viewport_width) for query in queries)


def _query_applies(query: str, viewport: float) -> bool:
    words = query.split()
    if "not" in words or any(kind in words for kind in ("print", "speech")):
        return False
    for bound, number, unit in _MEDIA_WIDTH.findall(query):
        width = float(number) * (_DEFAULT_FONT if unit in ("em", "rem") else 1.0)
        if (bound == "min" and width > viewport) or (bound == "max" and width < viewport):
            return False
    return True


def _declarations(content: Any) -> list[Declaration]:
    """The declarations of a rule body (or a `style` attribute) as the longhands EVBE reads."""
    found: list[Declaration] = []
    for item in tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration":
            continue
        value = " ".join(tinycss2.serialize(item.value).lower().split())
        found.extend((name, part, item.important) for name, part in _longhands(item.lower_name, value))
    return found


def _longhands(name: str, value: str) -> list[tuple[str, str]]:
    if name in _PROPERTIES:
        return [(name, value)]
    if name == "background":
        colours = [
            word for word in _words(value) if word not in _BACKGROUND_WORDS and not word.startswith("url(")
        ]
        return [("background-color", colours[-1] if colours else "transparent")]
    if name == "border":
        return [pair for side in _SIDES for pair in _border_side(side, value)]
    if name.startswith("border-") and name[7:] in _SIDES:
        return _border_side(name[7:], value)
    if name in ("border-width", "border-style"):
        part = name[7:]
        return [(f"border-{side}-{part}", item) for side, item in zip(_SIDES, _four(value), strict=True)]
    return []


def _border_side(side: str, value: str) -> list[tuple[str, str]]:
    words = _words(value)
    style = next((word for word in words if word in _BORDER_STYLES), "none")
    width = next((word for word in words if word in _BORDER_WIDTHS or _LENGTH.match(word)), "medium")
    return [(f"border-{side}-style", style), (f"border-{side}-width", width)]


def _four(value: str) -> list[str]:
    """CSS's one-to-four-value shorthand as top, right, bottom, left."""
    words = _words(value)[:4] or ["0"]
    while len(words) < 4:
        words.append(words[max(0, len(words) - 2)])
    return words


def _words(value: str) -> list[str]:
    # Function values such as rgb(1, 2, 3) are one word.
    return re.findall(r"[\w#.%+-]+\([^)]*\)|[^\s,()]+", value)


def _cascade(matched: list[Any], inline: str | None) -> dict[str, str]:
    """The winning value of each property: sheets then inline, !important of each after all normal ones."""
    inline_declarations = _declarations(inline) if inline else []
    layers = [
        [d for *_, declarations in matched for d in declarations if not d[2]],
        [d for d in inline_declarations if not d[2]],
        [d for *_, declarations in matched for d in declarations if d[2]],
        [d for d in inline_declarations if d[2]],
    ]
    return {name: value for layer in layers for name, value, _ in layer}


def _compute(tag: str, declared: dict[str, str], parent: Style | None, viewport: float) -> Style:
    """Resolve the declared values against the parent's computed style."""
    inherited = parent or Style(display="block", width=viewport)
    display = declared.get("display", "block" if tag in BLOCK_TAGS else "inline")
    floating = declared.get("float", "none")
    if floating != "none" and display.startswith("inline"):
        # A float is laid out as a block, whatever its display.
        display = "block"
    font_size = _font_size(tag, declared.get("font-size"), inherited.font_size)
    style = Style(
        display=display,
        hidden=display == "none" or declared.get("visibility", "") in ("hidden", "collapse"),
        floating=floating,
        clear=declared.get("clear", "none"),
        height=_length(declared.get("height"), None, font_size),
        background=_colour(declared.get("background-color")),
        borders=_borders(declared),
        font_size=font_size,
        font_weight=declared.get("font-weight", inherited.font_weight if parent else "400"),
        color=declared.get("color", inherited.color),
    )
    width = _length(declared.get("width"), inherited.width, font_size, viewport)
    auto_fills = not style.is_inline and style.floating == "none"
    style.width = width if width is not None else (inherited.width if auto_fills else None)
    style.painted = style.background or inherited.painted
    return style


def _font_size(tag: str, value: str | None, parent: float) -> float:
    if value is None:
        return parent * _HEADING_SIZES.get(tag, 1.0) if tag in _HEADING_SIZES else parent
    size = _length(value, parent, parent)
    return size if size is not None and size > 0 else parent


def _length(
    value: str | None, reference: float | None, font_size: float, viewport: float = 0.0
) -> float | None:
    """A length in pixels; percentages of `reference` (None when it is unknown); None for auto."""
    match = _LENGTH.match(value or "")
    if match is None:
        return None
    number, unit = float(match.group(1)), match.group(2) or "px"
    if unit == "%":
        return reference * number / 100 if reference is not None else None
    scale = {"px": 1.0, "em": font_size, "rem": _DEFAULT_FONT, "pt": 4 / 3, "vw": viewport / 100}
    return number * scale[unit]


def _borders(declared: dict[str, str]) -> tuple[float, float, float, float]:
    widths = []
    for side in _SIDES:
        if declared.get(f"border-{side}-style", "none") in ("none", "hidden"):
            widths.append(0.0)
            continue
        width = declared.get(f"border-{side}-width", "medium")
        widths.append(_BORDER_WIDTHS.get(width) or _length(width, None, _DEFAULT_FONT) or 0.0)
    return widths[0], widths[1], widths[2], widths[3]


def _colour(value: str | None) -> str | None:
    if value is None or value in _TRANSPARENT:
        return None
    return value.replace(" ", "")
