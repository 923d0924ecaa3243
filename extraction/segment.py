"""Segment a cleaned tree into ordered text blocks in one pass (the ContentExtractor tag-set partition).

A block is the text that flows between two block-level tags (seed 001's ordered tag set TABLE, TR, P,
HR, UL, ... and seed 002's raw chunks of `<div>`, `<table>`, `<ul>`, `<tr>`, `<p>`). Every block-level
element is also recorded as a node, so that scoring can credit ancestors and locate the content area.
Raw per-block counts of seed 002 (links, images, interaction elements, forms, e-mails, punctuation)
are gathered during the same walk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from extraction.config import ExtractionConfig
from extraction.result import Block, BlockFeatures, BlockKind

BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "center",
        "dd",
        "details",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "legend",
        "li",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "thead",
        "tfoot",
        "tr",
        "td",
        "th",
        "caption",
        "ul",
        "noframes",
    ]
)
_KINDS = {
    **dict.fromkeys(("h1", "h2", "h3", "h4", "h5", "h6"), BlockKind.HEADING),
    **dict.fromkeys(("li", "dt", "dd"), BlockKind.LIST_ITEM),
    **dict.fromkeys(("tr", "td", "th"), BlockKind.TABLE_ROW),
    **dict.fromkeys(("figcaption", "caption"), BlockKind.CAPTION),
    "pre": BlockKind.CODE,
    "blockquote": BlockKind.QUOTE,
    "p": BlockKind.PARAGRAPH,
}
_CELLS = frozenset({"td", "th"})
_CAPTIONS = frozenset({"figcaption", "caption"})
# Block tags that change how the text inside them is read: kept verbatim, counted as a form, a caption.
_MODAL_BLOCKS = frozenset({"pre", "form", *_CAPTIONS})
_OPTIONS = frozenset({"option", "optgroup"})
_INTERACTIVE = frozenset({"input", "select", "textarea", "button", *_OPTIONS})
_PUNCTUATION_MARKS = re.compile("[.,;:!?\u3002\uff0c\u3001\uff01\uff1f]")
# Inline formatting carries no structure; unwrapping it in C first spares the Python walk most elements.
_FORMATTING_TAGS = (
    "span",
    "b",
    "i",
    "em",
    "strong",
    "u",
    "s",
    "small",
    "big",
    "font",
    "mark",
    "abbr",
    "cite",
    "q",
    "sub",
    "sup",
    "time",
    "var",
    "kbd",
    "samp",
    "code",
    "tt",
    "ins",
    "del",
    "strike",
    "label",
    "nobr",
    "wbr",
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_DIGITS = re.compile(r"\d+")
_LINE_BREAK = "\x1e"
_URL_PREFIXES = ("http://", "https://", "www.")


@dataclass(slots=True)
class Node:
    """A block-level element: where it sits and what its tag, class and id say."""

    tag: str
    parent: int
    depth: int
    step: str
    names: str
    record: str
    text_chars: int = 0
    link_chars: int = 0


@dataclass(slots=True)
class Page:
    """The segmented page: blocks in order, the node of each block, and the node table."""

    blocks: list[Block] = field(default_factory=list)
    block_nodes: list[int] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    hrefs: list[str] = field(default_factory=list)
    truncated: bool = False
    _paths: dict[int, str] = field(default_factory=dict)

    def path(self, node_id: int) -> str:
        """The node's root-to-node path of tags with their id and classes (digits folded to 0)."""
        missing: list[int] = []
        current = node_id
        while current >= 0 and current not in self._paths:
            missing.append(current)
            current = self.nodes[current].parent
        # Iterative, so that a block under thousands of nested elements cannot exhaust the stack.
        path = self._paths.get(current, "")
        for missing_id in reversed(missing):
            step = self.nodes[missing_id].step
            path = f"{path}/{step}" if path else step
            self._paths[missing_id] = path
        return self._paths[node_id]


@dataclass(slots=True)
class _Buffer:
    parts: list[str] = field(default_factory=list)
    link_chars: int = 0
    links: int = 0
    images: int = 0
    image_size: int = 0
    interactions: int = 0
    interaction_size: int = 0


class _Walker:
    """State of the one-pass walk; kept in an object so each handler stays short."""

    def __init__(self, config: ExtractionConfig) -> None:
        self.config = config
        self.page = Page()
        self.stack: list[int] = []
        self.buffer = _Buffer()
        self.link_depth = 0
        self.skip_depth = 0
        self.pre_depth = 0
        self.form_depth = 0
        self.caption_depth = 0
        self.descriptions: dict[tuple[str, str | None, str | None], tuple[str, str, str]] = {}

    def start(self, element: etree._Element, tag: str) -> None:
        if tag in BLOCK_TAGS:
            if self.buffer.parts:
                self.flush()
            self.push(element, tag)
            if tag in _MODAL_BLOCKS:
                self._enter_mode(tag, 1)
        elif tag == "a":
            self.link_depth += 1
            self.buffer.links += 1
            # The crawl follows links from this same walk instead of parsing the page a second time.
            href = element.get("href")
            if href:
                self.page.hrefs.append(href)
        elif tag == "br":
            self.buffer.parts.append(_LINE_BREAK)
        elif tag == "img":
            self.buffer.images += 1
            self.buffer.image_size += _image_area(element)
        elif tag in _INTERACTIVE:
            # Seed 002's InteractionNum counts the controls; InteractionSize also counts their options.
            self.buffer.interactions += tag not in _OPTIONS
            self.buffer.interaction_size += 1
            self.skip_depth += 1
        text = element.text
        if text:
            self.add_text(text)

    def end(self, element: etree._Element, tag: str) -> None:
        if tag in BLOCK_TAGS:
            if self.buffer.parts:
                self.flush()
            self._close_node(self.stack.pop())
            if tag in _MODAL_BLOCKS:
                self._enter_mode(tag, -1)
        elif tag == "a":
            self.link_depth -= 1
        elif tag in _INTERACTIVE:
            self.skip_depth -= 1
        tail = element.tail
        if tail:
            self.add_text(tail)

    def _enter_mode(self, tag: str, step: int) -> None:
        if tag == "pre":
            self.pre_depth += step
        elif tag == "form":
            self.form_depth += step
        else:
            self.caption_depth += step

    def _close_node(self, node_id: int) -> None:
        node = self.page.nodes[node_id]
        if node.parent >= 0:
            parent = self.page.nodes[node.parent]
            parent.text_chars += node.text_chars
            parent.link_chars += node.link_chars

    def push(self, element: etree._Element, tag: str) -> None:
        parent = self.stack[-1] if self.stack else -1
        key = (tag, element.get("id"), element.get("class"))
        described = self.descriptions.get(key)
        if described is None:
            # Menus and lists repeat one tag and class hundreds of times: describe each combination once.
            described = self.descriptions[key] = _describe(*key)
        step, names, record = described
        self.stack.append(len(self.page.nodes))
        self.page.nodes.append(Node(tag, parent, len(self.stack), step, names, record))

    def add_text(self, text: str | None) -> None:
        if not text or self.skip_depth:
            return
        parts = self.buffer.parts
        if not parts and not self.pre_depth and text.isspace():
            return
        parts.append(text)
        # An anchor whose text is a bare URL is a reference in prose, not a menu entry.
        if self.link_depth and not text.lstrip().startswith(_URL_PREFIXES):
            self.buffer.link_chars += len(text.strip())

    def flush(self) -> None:
        buffer = self.buffer
        if not buffer.parts:
            return
        text = _render("".join(buffer.parts), preformatted=self.pre_depth > 0)
        if not text:
            # Images and form fields standing alone between blocks count towards the next block.
            buffer.parts.clear()
            buffer.links = buffer.link_chars = 0
            return
        self.buffer = _Buffer()
        node_id = self.stack[-1] if self.stack else 0
        node = self.page.nodes[node_id]
        node.text_chars += len(text)
        node.link_chars += buffer.link_chars
        if self._joins_previous_cell(node_id):
            self._append_cell(text, buffer)
        elif len(self.page.blocks) < self.config.max_blocks:
            self._new_block(node_id, text[: self.config.max_block_chars], buffer)
        else:
            self.page.truncated = True

    def _joins_previous_cell(self, node_id: int) -> bool:
        nodes, page = self.page.nodes, self.page
        if not page.block_nodes or nodes[node_id].tag not in _CELLS:
            return False
        previous = nodes[page.block_nodes[-1]]
        return previous.tag in _CELLS and previous.parent == nodes[node_id].parent

    def _append_cell(self, text: str, buffer: _Buffer) -> None:
        block = self.page.blocks[-1]
        block.text = f"{block.text} | {text}"
        _count_into(block.features, text, buffer)

    def _new_block(self, node_id: int, text: str, buffer: _Buffer) -> None:
        node = self.page.nodes[node_id]
        in_form = self.form_depth > 0
        features = BlockFeatures(depth=node.depth, form_count=int(in_form), form_size=len(text) * in_form)
        _count_into(features, text, buffer)
        kind = BlockKind.CAPTION if self.caption_depth else _KINDS.get(node.tag, BlockKind.TEXT)
        path = self.page.path(node.parent if node.tag in _CELLS and node.parent >= 0 else node_id)
        block = Block(len(self.page.blocks), path, node.tag, kind, text, features)
        self.page.blocks.append(block)
        self.page.block_nodes.append(node_id)


def segment(body: etree._Element, config: ExtractionConfig) -> Page:
    """Split the cleaned body into blocks and block-level nodes, counting raw features on the way."""
    walker = _Walker(config)
    etree.strip_tags(body, *_FORMATTING_TAGS)
    start, end, add_text = walker.start, walker.end, walker.add_text
    for event, element in etree.iterwalk(body, events=("start", "end")):
        tag = element.tag
        if not isinstance(tag, str):
            if event == "end":
                add_text(element.tail)
        elif event == "start":
            start(element, tag)
        else:
            end(element, tag)
    walker.flush()
    return walker.page


def _describe(tag: str, ident: str | None, classes: str | None) -> tuple[str, str, str]:
    """A node's path step (digits folded), its lower-cased names for hints, and its record key."""
    if not ident and not classes:
        return tag, "", tag
    names = f"{ident or ''} {classes or ''}".strip()
    step = tag + ("." + _DIGITS.sub("0", ".".join(names.split())) if names else "")
    # Items of a list share their tag and first class; later classes often vary (odd/even, first).
    record = f"{tag}.{classes.split(None, 1)[0]}" if classes and not classes.isspace() else tag
    return step, names.lower(), record


def _render(raw: str, preformatted: bool) -> str:
    if preformatted:
        return raw.replace(_LINE_BREAK, "\n").strip("\n").rstrip()
    if _LINE_BREAK not in raw:
        return " ".join(raw.split())
    lines = (" ".join(line.split()) for line in raw.split(_LINE_BREAK))
    return "\n".join(line for line in lines if line)


def _count_into(features: BlockFeatures, text: str, buffer: _Buffer) -> None:
    features.text_length += len(text)
    # Rendered text has single spaces between words and newlines between lines (code keeps its own).
    features.word_count += text.count(" ") + text.count("\n") + 1
    features.link_count += buffer.links
    features.link_text_length += buffer.link_chars
    features.image_count += buffer.images
    features.image_size += buffer.image_size
    features.interaction_count += buffer.interactions
    features.interaction_size += buffer.interaction_size
    features.punctuation_count += len(_PUNCTUATION_MARKS.findall(text))
    if "@" in text:
        features.email_count += len(_EMAIL.findall(text))


def _image_area(element: etree._Element) -> int:
    try:
        return int(element.get("width", "0")) * int(element.get("height", "0"))
    except ValueError:
        return 0
