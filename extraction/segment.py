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

# An anchor's text as a crawl weighs it: its first characters (a focused crawl reads words, not essays).
_ANCHOR_CHARS = 200
_STRING = etree.XPath("string()")
_DEFAULT_CONFIG = ExtractionConfig()

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
# Where a browser starts a new line: the words on either side never run together.
LINE_BREAKING_TAGS = BLOCK_TAGS | {"br"}
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_KINDS = {
    **dict.fromkeys(HEADING_TAGS, BlockKind.HEADING),
    **dict.fromkeys(("li", "dt", "dd"), BlockKind.LIST_ITEM),
    **dict.fromkeys(("tr", "td", "th"), BlockKind.TABLE_ROW),
    **dict.fromkeys(("figcaption", "caption"), BlockKind.CAPTION),
    "pre": BlockKind.CODE,
    "blockquote": BlockKind.QUOTE,
    "p": BlockKind.PARAGRAPH,
}
_CELLS = frozenset({"td", "th"})
_CAPTIONS = frozenset({"figcaption", "caption"})
_OPTIONS = frozenset({"option", "optgroup"})
_INTERACTIVE = frozenset({"input", "select", "textarea", "button", *_OPTIONS})
# Punctuation marks (seed 002's PMD): ASCII ones and their CJK full-width forms.
_ASCII_MARKS = (".", ",", ";", ":", "!", "?")
_MARKS = (*_ASCII_MARKS, "\u3002", "\uff0c", "\u3001", "\uff01", "\uff1f")
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
# An e-mail address: `[\w.+-]+@[\w-]+\.[\w.-]+`, found from each "@" (see `_count_emails`).
_EMAIL_LOCAL_CHAR = re.compile(r"[\w.+-]")
_EMAIL_DOMAIN = re.compile(r"[\w-]+\.[\w.-]+")
_DIGITS = re.compile(r"\d+")
_ASCII_DIGITS = b"0123456789"
_DIGITS_TO_ZERO = bytes.maketrans(_ASCII_DIGITS, b"0" * len(_ASCII_DIGITS))
_LINE_BREAK = "\x1e"
# Characters of an id or class that would cut a path step ("/") or a step's names (".", "#") apart.
_UNSAFE_IN_STEP = str.maketrans({".": "_", "/": "_", "#": "_", " ": "_", "\t": "_", "\n": "_"})
_URL_PREFIXES = ("http://", "https://", "www.")
# Node descriptions by tag, id and class, kept across pages: a site's pages, and sites built on one
# framework, repeat their names. A plain dict, emptied when full, is a direct look-up once compiled.
_DESCRIPTIONS: dict[tuple[str, str | None, str | None], tuple[str, str, str]] = {}
_DESCRIPTIONS_KEPT = 1 << 12
# Longer ids and classes are described again each time: the cache outlives the page, and would keep three
# copies of a page's megabyte class attribute (a real page's longest, a theme's body classes, is 7,400).
_DESCRIBED_CHARS_KEPT = 1 << 10
# What the walk does at an element, looked up once per element: the block roles come first (up to _CAPTION).
_INLINE, _BLOCK, _PRE, _FORM, _CAPTION, _ANCHOR, _BREAK, _IMAGE, _CONTROL, _OPTION, _NOT_ELEMENT = range(11)
_ROLES: dict[object, int] = {
    **dict.fromkeys(BLOCK_TAGS, _BLOCK),
    "pre": _PRE,
    "form": _FORM,
    **dict.fromkeys(_CAPTIONS, _CAPTION),
    "a": _ANCHOR,
    "br": _BREAK,
    "img": _IMAGE,
    **dict.fromkeys(_INTERACTIVE - _OPTIONS, _CONTROL),
    **dict.fromkeys(_OPTIONS, _OPTION),
    # Comments, processing instructions and entities: only their tail is text of the page.
    etree.Comment: _NOT_ELEMENT,
    etree.ProcessingInstruction: _NOT_ELEMENT,
    etree.Entity: _NOT_ELEMENT,
}


@dataclass(slots=True, init=False)
class Node:
    """A block-level element: where it sits and what its tag, class and id say (`__init__` written out
    for the reason `BlockFeatures` gives)."""

    tag: str
    parent: int
    depth: int
    step: str
    names: str
    record: str
    text_chars: int
    link_chars: int
    veiled: bool
    """Hidden from screen readers (`aria-hidden`), itself or an ancestor: see `Page.veiled`."""

    def __init__(
        self,
        tag: str = "",
        parent: int = -1,
        depth: int = 0,
        step: str = "",
        names: str = "",
        record: str = "",
    ) -> None:
        self.text_chars = self.link_chars = 0
        self.veiled = False
        self.tag = tag
        self.parent = parent
        self.depth = depth
        self.step = step
        self.names = names
        self.record = record


@dataclass(slots=True)
class Page:
    """The segmented page: blocks in order, the node of each block and the node table."""

    blocks: list[Block] = field(default_factory=list)
    block_nodes: list[int] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    hrefs: list[str] = field(default_factory=list)
    # Per href, the position of the block its anchor's text opens or joins (the block the link sits in),
    # and the anchor's text.
    href_blocks: list[int] = field(default_factory=list)
    href_texts: list[str] = field(default_factory=list)
    truncated: bool = False
    max_path_chars: int = _DEFAULT_CONFIG.max_path_chars
    # The positions of the blocks of veiled nodes: a closed accordion panel, a carousel's other slides, a
    # collapsed menu. On the page, but what a reader is shown first says where its content is.
    veiled: set[int] = field(default_factory=set)

    def path(self, node_id: int) -> str:
        """The node's root-to-node path of tags with their id and classes (digits folded to 0), cut to
        `max_path_chars` as a block's path is.

        Built on demand: the walk keeps the paths of the open nodes only (a block takes its node's), since a
        path per node grows with the nodes times their depth.
        """
        steps: list[str] = []
        while node_id >= 0:
            node = self.nodes[node_id]
            steps.append(node.step)
            node_id = node.parent
        return "/".join(reversed(steps))[: self.max_path_chars]


class _Walker:
    """State of the one-pass walk; kept in an object so each handler stays short."""

    __slots__ = (
        "caption_depth",
        "config",
        "form_depth",
        "href_blocks",
        "href_texts",
        "hrefs",
        "image_size",
        "images",
        "interaction_size",
        "interactions",
        "link_chars",
        "link_depth",
        "links",
        "made_parents",
        "made_paths",
        "made_steps",
        "max_name_chars",
        "max_path_chars",
        "page",
        "parts",
        "paths",
        "pre_depth",
        "skip_depth",
        "stack",
    )

    def __init__(self, config: ExtractionConfig) -> None:
        self.config = config
        self.page = Page(max_path_chars=config.max_path_chars)
        self.stack: list[int] = []
        # The path of each node on the stack; a block takes its node's (or, for a cell, its row's).
        self.paths: list[str] = []
        # Per depth, the parent path, step and path of the last node made there (see `_path`).
        self.made_parents: list[str] = []
        self.made_steps: list[str] = []
        self.made_paths: list[str] = []
        self.max_name_chars = config.max_name_chars
        self.max_path_chars = config.max_path_chars
        self.parts: list[str] = []
        # Every anchor's href, None or empty when it has none: `segment` drops those in one pass.
        self.hrefs: list[str | None] = []
        self.href_blocks: list[int] = []
        self.href_texts: list[str] = []
        self.link_chars = self.links = self.images = self.image_size = 0
        self.interactions = self.interaction_size = 0
        self.link_depth = self.skip_depth = self.pre_depth = self.form_depth = self.caption_depth = 0

    def walk(self, body: etree._Element) -> None:
        """Visit every element once in document order, closing each when its last child is done.

        One visit per element (`iter` and a count of children) costs half what `iterwalk`'s separate
        start and end events do. Methods are called through `self`, not local aliases: compiled
        (setup.py), that is a direct call.
        """
        roles, parts = _ROLES, self.parts
        # Each element whose subtree is being walked, its role and how many of its children are not done.
        pending: list[etree._Element] = []
        pending_roles: list[int] = []
        pending_children: list[int] = []
        for element in body.iter():
            tag = element.tag
            role = roles.get(tag, _INLINE)
            if role:
                self.open(element, tag, role)
            # A comment's text is not the page's; only its tail is.
            text = element.text if role != _NOT_ELEMENT else None
            # Most texts are the indentation between tags: dismiss them before calling.
            if text and (parts or self.pre_depth or not text.isspace()):
                self.add_text(text)
            children = len(element)
            if children:
                pending.append(element)
                pending_roles.append(role)
                pending_children.append(children)
                continue
            # A leaf closes at once, and so does each ancestor whose last child it was.
            while True:
                if role:
                    self.close(role)
                text = element.tail
                if text and (parts or self.pre_depth or not text.isspace()):
                    self.add_text(text)
                if not pending:
                    break
                left = pending_children[-1] - 1
                if left:
                    pending_children[-1] = left
                    break
                pending_children.pop()
                element, role = pending.pop(), pending_roles.pop()
        self._add_up_nodes()

    def open(self, element: etree._Element, tag: str, role: int) -> None:
        """Enter an element: a block-level one starts a node (and maybe a mode), the others count."""
        if role <= _CAPTION:
            if self.parts:
                self.flush()
            self.push(element, tag)
            if role != _BLOCK:
                self._enter_mode(role, 1)
        elif role == _ANCHOR:
            self.link_depth += 1
            self.links += 1
            # The crawl follows links from this same walk instead of parsing the page a second time.
            self.hrefs.append(element.get("href"))
            # The anchor's text goes to the block being gathered, the next one made.
            self.href_blocks.append(len(self.page.blocks))
            if self.config.anchor_texts:
                self.href_texts.append(" ".join(str(_STRING(element)).split())[:_ANCHOR_CHARS])
        elif role == _BREAK:
            self.parts.append(_LINE_BREAK)
        elif role == _IMAGE:
            self.images += 1
            self.image_size += _image_area(element)
        elif role != _NOT_ELEMENT:
            # Seed 002's InteractionNum counts the controls; InteractionSize also counts their options.
            self.interactions += role == _CONTROL
            self.interaction_size += 1
            self.skip_depth += 1

    def close(self, role: int) -> None:
        """Leave an element opened by `open`."""
        if role <= _CAPTION:
            if self.parts:
                self.flush()
            self.stack.pop()
            self.paths.pop()
            if role != _BLOCK:
                self._enter_mode(role, -1)
        elif role == _ANCHOR:
            self.link_depth -= 1
        elif role >= _CONTROL and role != _NOT_ELEMENT:
            self.skip_depth -= 1

    def _add_up_nodes(self) -> None:
        # A child comes after its parent in the node table: summing backwards passes each subtree's total up.
        nodes = self.page.nodes
        for node in reversed(nodes):
            # A node without text has no link text either: it has nothing to pass up.
            if node.text_chars and node.parent >= 0:
                parent = nodes[node.parent]
                parent.text_chars += node.text_chars
                parent.link_chars += node.link_chars

    def _enter_mode(self, role: int, step: int) -> None:
        if role == _PRE:
            self.pre_depth += step
        elif role == _FORM:
            self.form_depth += step
        else:
            self.caption_depth += step

    def push(self, element: etree._Element, tag: str) -> None:
        stack, nodes = self.stack, self.page.nodes
        ident, classes = element.get("id"), element.get("class")
        # A quarter of the nodes have neither: they need no look-up in the cache of descriptions.
        if ident or classes:
            step, names, record = self._description(tag, ident, classes)
        else:
            step, names, record = tag, "", tag
        parent = stack[-1] if stack else -1
        self.paths.append(self._path(step))
        stack.append(len(nodes))
        node = Node(tag, parent, len(stack), step, names, record)
        node.veiled = element.get("aria-hidden") == "true" or (parent >= 0 and nodes[parent].veiled)
        nodes.append(node)

    def _description(self, tag: str, ident: str | None, classes: str | None) -> tuple[str, str, str]:
        # Names past the limit are cut: a megabyte class attribute would be copied into every node
        # description, path and cache entry.
        limit = self.max_name_chars
        if ident and len(ident) > limit:
            ident = ident[:limit]
        if classes and len(classes) > limit:
            classes = classes[:limit]
        if len(ident or "") + len(classes or "") > _DESCRIBED_CHARS_KEPT:
            return _describe(tag, ident, classes)
        key = (tag, ident, classes)
        description = _DESCRIPTIONS.get(key)
        if description is None:
            if len(_DESCRIPTIONS) >= _DESCRIPTIONS_KEPT:
                _DESCRIPTIONS.clear()
            description = _DESCRIPTIONS[key] = _describe(tag, ident, classes)
        return description

    def _path(self, step: str) -> str:
        """The path of the node being opened: its parent's plus one step, cut to `max_path_chars`.

        Each depth remembers the last path made there: a run of siblings with one tag and names (a list's
        items, an article's paragraphs, and in turn what each of them holds) shares one string. Without
        that, a page of many paragraphs deep in a tree held one long copy per paragraph.
        """
        paths, depth = self.paths, len(self.paths)
        parent = paths[-1] if depth else ""
        made_steps = self.made_steps
        if depth < len(made_steps):
            if made_steps[depth] == step and self.made_parents[depth] is parent:
                return self.made_paths[depth]
        else:
            made_steps.append("")
            self.made_parents.append("")
            self.made_paths.append("")
        limit = self.max_path_chars
        if len(parent) >= limit:
            path = parent  # a full path stays as it is below: nothing is added, nothing copied
        else:
            path = f"{parent}/{step}" if depth else step
            if len(path) > limit:
                path = path[:limit]
        made_steps[depth], self.made_parents[depth], self.made_paths[depth] = step, parent, path
        return path

    def add_text(self, text: str) -> None:
        if self.skip_depth:
            return
        self.parts.append(text)
        # An anchor whose text is a bare URL is a reference in prose, not a menu entry.
        if self.link_depth and not text.lstrip().startswith(_URL_PREFIXES):
            self.link_chars += len(text.strip())

    def flush(self) -> None:
        # Cleared in place: `walk` holds the list.
        parts = self.parts
        raw = "".join(parts)
        parts.clear()
        text = _render(raw, preformatted=self.pre_depth > 0)
        if not text:
            # Images and form fields standing alone between blocks count towards the next block.
            self.links = self.link_chars = 0
            return
        stack, nodes = self.stack, self.page.nodes
        node_id = stack[-1] if stack else 0
        node = nodes[node_id]
        node.text_chars += len(text)
        node.link_chars += self.link_chars
        if node.tag in _CELLS and self._joins_previous_cell(node):
            self._append_cell(text)
        elif len(self.page.blocks) < self.config.max_blocks:
            self._new_block(node_id, node, text[: self.config.max_block_chars])
        else:
            self.page.truncated = True
        self.link_chars = self.links = self.images = self.image_size = 0
        self.interactions = self.interaction_size = 0

    def _joins_previous_cell(self, cell: Node) -> bool:
        page = self.page
        if not page.block_nodes:
            return False
        previous = page.nodes[page.block_nodes[-1]]
        return previous.tag in _CELLS and previous.parent == cell.parent

    def _append_cell(self, text: str) -> None:
        block = self.page.blocks[-1]
        block.text = f"{block.text} | {text}"
        features = block.features
        words, emails, marks = _text_counts(text)
        features.text_length += len(text)
        features.word_count += words
        features.link_count += self.links
        features.link_text_length += self.link_chars
        features.image_count += self.images
        features.image_size += self.image_size
        features.interaction_count += self.interactions
        features.interaction_size += self.interaction_size
        features.punctuation_count += marks
        features.email_count += emails

    def _new_block(self, node_id: int, node: Node, text: str) -> None:
        page = self.page
        in_form = self.form_depth > 0
        length = len(text)
        words, emails, marks = _text_counts(text)
        # Positional: keyword arguments would make this constructor, called for every block, 3x slower.
        features = BlockFeatures(
            length,  # text_length
            words,
            self.links,
            self.link_chars,  # link_text_length
            self.images,
            self.image_size,
            self.interactions,
            self.interaction_size,
            int(in_form),  # form_count
            length * in_form,  # form_size
            emails,
            marks,
            node.depth,
        )
        kind = BlockKind.CAPTION if self.caption_depth else _KINDS.get(node.tag, BlockKind.TEXT)
        path = self._block_path(node)
        if node.veiled:
            page.veiled.add(len(page.blocks))
        page.blocks.append(Block(len(page.blocks), path, node.tag, kind, text, features))
        page.block_nodes.append(node_id)

    def _block_path(self, node: Node) -> str:
        """The path of a block of `node`, the open node: a cell's block is its row's."""
        paths = self.paths
        if not paths:  # text after the root closed belongs to the root
            return self.page.path(0)
        return paths[-2] if node.tag in _CELLS and len(paths) > 1 else paths[-1]


def segment(body: etree._Element, config: ExtractionConfig) -> Page:
    """Split the cleaned body into blocks and block-level nodes, counting raw features on the way."""
    etree.strip_tags(body, *_FORMATTING_TAGS)
    walker = _Walker(config)
    walker.walk(body)
    if walker.parts:
        walker.flush()
    last = len(walker.page.blocks) - 1
    kept = [index for index, href in enumerate(walker.hrefs) if href]
    walker.page.hrefs = [walker.hrefs[index] or "" for index in kept]
    walker.page.href_blocks = [min(walker.href_blocks[index], last) for index in kept]
    if walker.href_texts:
        walker.page.href_texts = [walker.href_texts[index] for index in kept]
    return walker.page


def _describe(tag: str, ident: str | None, classes: str | None) -> tuple[str, str, str]:
    """A node's path step (digits folded): its tag, then ``#id`` and ``.class`` for each class, a name's own
    dots, slashes and spaces made underscores so that a path splits into steps and a step into names
    (`extraction.site_models.signature.layout_path`); its lower-cased names for hints; its record key."""
    names = (f"{ident} {classes}" if ident and classes else ident or classes or "").strip()
    if not names:
        return tag, "", tag
    class_names = classes.split() if classes else []
    ident = ident.strip() if ident else ""
    marked = (f"#{ident.translate(_UNSAFE_IN_STEP)}" if ident else "") + "".join(
        f".{name.translate(_UNSAFE_IN_STEP)}" for name in class_names
    )
    # Items of a list share their tag and first class; later classes often vary (odd/even, first).
    first_class = class_names[0] if class_names else ""
    return tag + _fold_digits(marked), names.lower(), f"{tag}.{first_class}" if first_class else tag


def _fold_digits(name: str) -> str:
    """`name` with each run of digits replaced by one 0."""
    # Most names are ASCII: bytes operations in C find and fold their digits far cheaper than a regex.
    if not name.isascii():
        return _DIGITS.sub("0", name)
    encoded = name.encode("ascii")
    if len(encoded.translate(None, _ASCII_DIGITS)) == len(encoded):
        return name
    folded = encoded.translate(_DIGITS_TO_ZERO)
    while b"00" in folded:
        folded = folded.replace(b"00", b"0")
    return folded.decode("ascii")


def _render(raw: str, preformatted: bool) -> str:
    if preformatted:
        return raw.replace(_LINE_BREAK, "\n").strip("\n").rstrip()
    # Most texts already read as rendered: no whitespace but single inner spaces (every other whitespace
    # character, the line break mark included, is unprintable), so splitting them into words is waste.
    if raw.isprintable() and "  " not in raw and not raw.startswith(" ") and not raw.endswith(" "):
        return raw
    if _LINE_BREAK not in raw:
        return " ".join(raw.split())
    lines = (" ".join(line.split()) for line in raw.split(_LINE_BREAK))
    return "\n".join(line for line in lines if line)


def _text_counts(text: str) -> tuple[int, int, int]:
    """Words, e-mail addresses and punctuation marks of a rendered block text."""
    # Rendered text has single spaces between words and newlines between lines (code keeps its own).
    words = text.count(" ") + text.count("\n") + 1
    emails = _count_emails(text) if "@" in text else 0
    # One count per mark, each a scan in C; compiled, the calls cost next to nothing (no regex, no copy).
    marks = 0
    for mark in _ASCII_MARKS if text.isascii() else _MARKS:
        marks += text.count(mark)
    return words, emails, marks


def _count_emails(text: str) -> int:
    r"""The e-mail addresses `[\w.+-]+@[\w-]+\.[\w.-]+` finds in `text`, found from each "@" instead.

    Searched from every start, that pattern reads a whole run of word characters at each of them: time
    quadratic in the longest run (a long CJK paragraph, a base64 blob). An address needs a local-part
    character right before its "@", one the previous address did not take, and a domain right after.
    """
    count = end = 0
    at = text.find("@")
    while at >= 0:
        if at > end and _EMAIL_LOCAL_CHAR.match(text, at - 1) is not None:
            domain = _EMAIL_DOMAIN.match(text, at + 1)
            if domain is not None:
                count += 1
                end = domain.end()
        at = text.find("@", at + 1)
    return count


def _image_area(element: etree._Element) -> int:
    try:
        return int(element.get("width", "0")) * int(element.get("height", "0"))
    except ValueError:
        return 0
