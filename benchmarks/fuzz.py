"""Fuzz cleancrawl's page handling: mutated real pages fed to `extraction.extract` and the spider's handler.

Every input is a real page (the shared data sets aeb and wcxb-dev, or the fixtures of ``tests/fixtures``
when those are missing) changed by one mutation, or random HTML from a small grammar. The input of number
*i* of a run depends only on the seed, *i* and the page, so any input can be built again. Inputs go to two
targets in turn:

- ``extract``: `extraction.extract(body, url=..., encoding=charset)`; an `ExtractionError` (the documented
  errors: empty, binary, oversized input) is an answer, any other exception is a crash;
- ``spider``: `SiteSpider.parse_page` on an `HtmlResponse` with the body and a Content-Type header
  (with the charset, when the input has one), the generator consumed; it must never raise.

Each input runs in one of N worker processes, under an address-space limit (``RLIMIT_AS``: a MemoryError or
the death of the worker is a crash) and a wall-time cap that a watchdog in the parent enforces: a worker
that does not answer in time is killed and replaced, and its input recorded as a hang. On a machine busy
with other work, a worker that has had less than the cap in CPU time gets more wall time, up to three
times the cap, so that a hang is an input that needs the cap, not one that waited for a CPU. Every crashing,
hanging or slow (over ``--slow`` seconds) input is saved in the findings directory, with a line of
``findings.jsonl`` saying what it is and how to replay it. ``inputs.jsonl`` records every input (target,
mutation, size, seconds, outcome) and ``summary.json`` the figures of the report.

Usage::

    python -m benchmarks.fuzz run [--inputs 100000] [--seed 0] [--workers N] [--time-cap 5]
                                  [--memory-mb 2048] [--slow 1] [--out .cache/fuzz]
    python -m benchmarks.fuzz replay FILE      # run a saved finding again, print what it does
    python -m benchmarks.fuzz shrink FILE      # the smallest input that still fails the same way
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import functools
import gzip
import json
import logging
import multiprocessing
import os
import random
import re
import resource
import signal
import sys
import time
import traceback
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from benchmarks.options import add_shared_option

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from pipelines.config import CrawlConfig

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / ".cache" / "fuzz"
FIXTURES = REPO_ROOT / "tests" / "fixtures"
DATASETS = ("aeb", "wcxb-dev")
FINDINGS_LOG = "findings.jsonl"
# Every page lives under this host, one path per input: the spider stores a final URL once per spider.
FUZZ_HOST = "http://fuzz.test/"
_MB = 1024 * 1024


# --- Inputs ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FuzzInput:
    """What a target receives: the body and the charset of the HTTP header (None: no charset given)."""

    body: bytes
    charset: str | None = None


@dataclass(frozen=True, slots=True)
class Mutated:
    """A mutated input and what the mutation did to it, in a few words (for findings and reports)."""

    input: FuzzInput
    detail: str


Mutation = Callable[[FuzzInput, random.Random], Mutated]


def _changed(data: FuzzInput, body: bytes, detail: str, charset: str | None = "") -> Mutated:
    """`data` with a new body (and a new charset unless `charset` is ""), described by `detail`."""
    return Mutated(FuzzInput(body, data.charset if charset == "" else charset), detail)


def _log_uniform(rng: random.Random, low: float, high: float) -> int:
    """An integer between `low` and `high`, small values as likely as large ones per order of magnitude."""
    return int(low * (high / low) ** rng.random())


def _insert_all(body: bytes, rng: random.Random, pieces: Sequence[bytes]) -> bytes:
    """`body` with each piece inserted at a random position."""
    positions = sorted(rng.randrange(len(body) + 1) for _ in pieces)
    parts, last = [], 0
    for position, piece in zip(positions, pieces, strict=True):
        parts += [body[last:position], piece]
        last = position
    parts.append(body[last:])
    return b"".join(parts)


# Opening tags (group 1: the name; attributes are inserted right after it, so `/>` and odd endings stay).
_OPEN_TAG = re.compile(rb"<([A-Za-z][A-Za-z0-9:-]{0,30})(?:[\s/][^<>]{0,2000})?>")
_CLOSE_TAG = re.compile(rb"</[A-Za-z][A-Za-z0-9:-]{0,30}\s*>")
_BODY_OPEN = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)
_BODY_CLOSE = re.compile(rb"</body\s*>", re.IGNORECASE)
_HEAD_OPEN = re.compile(rb"<head\b[^>]*>", re.IGNORECASE)
# The label of `<meta charset=X>` and of `<meta http-equiv content="...; charset=X">` (group 2).
_META_CHARSET = re.compile(rb"""(<meta\b[^>]*?charset\s*=\s*["']?\s*)([^"'\s/>;]*)""", re.IGNORECASE)


def _tags_in_body(body: bytes) -> list[re.Match[bytes]]:
    """The opening tags after `<body>` (all of them when there is no body tag)."""
    start = _BODY_OPEN.search(body)
    return list(_OPEN_TAG.finditer(body, start.end() if start else 0))


def _content_span(body: bytes) -> tuple[int, int]:
    """Where the body's content starts and ends (the whole document when it has no body tags)."""
    start, end = _BODY_OPEN.search(body), _BODY_CLOSE.search(body)
    first = start.end() if start else 0
    last = end.start() if end and end.start() >= first else len(body)
    return first, last


def truncate(data: FuzzInput, rng: random.Random) -> Mutated:
    """Cut the body at a random byte (a connection that dropped mid-page)."""
    if not data.body:
        return _changed(data, data.body, "empty body left as it is")
    cut = rng.randrange(len(data.body))
    return _changed(data, data.body[:cut], f"truncated at byte {cut} of {len(data.body)}")


def flip_bytes(data: FuzzInput, rng: random.Random) -> Mutated:
    """XOR random bytes with random non-zero values: every chosen byte changes."""
    body = bytearray(data.body or b"\0")
    count = min(len(body), rng.choice((1, rng.randint(2, 16), rng.randint(16, max(16, len(body) // 200)))))
    for position in rng.sample(range(len(body)), count):
        body[position] ^= rng.randrange(1, 256)
    return _changed(data, bytes(body), f"{count} bytes flipped")


def delete_range(data: FuzzInput, rng: random.Random) -> Mutated:
    """Delete a byte range: a few bytes (a broken tag) or up to a quarter of the page."""
    size = len(data.body)
    if size == 0:
        return _changed(data, data.body, "empty body left as it is")
    length = rng.choice((rng.randint(1, 16), rng.randint(1, max(1, size // 4))))
    start = rng.randrange(size)
    body = data.body[:start] + data.body[start + length :]
    return _changed(data, body, f"deleted bytes {start}-{min(size, start + length)}")


def duplicate_range(data: FuzzInput, rng: random.Random) -> Mutated:
    """Copy a byte range (up to 64 KB) once or many times, somewhere else in the page."""
    size = max(1, len(data.body))
    body = data.body or b"<"
    start = rng.randrange(size)
    piece = body[start : start + rng.randint(1, 65536)]
    copies = rng.choice((1, 2, rng.randint(2, 50)))
    at = rng.randrange(len(body) + 1)
    detail = f"{len(piece)} bytes from {start} copied {copies}x to {at}"
    return _changed(data, body[:at] + piece * copies + body[at:], detail)


def duplicate_tags(data: FuzzInput, rng: random.Random) -> Mutated:
    """Repeat a few opening tags in place, a few times or thousands of times."""
    tags = _tags_in_body(data.body) or [next(_OPEN_TAG.finditer(b"<div>"))]
    chosen = sorted(rng.sample(tags, min(len(tags), rng.randint(1, 5))), key=lambda match: match.start())
    insertions, names = [], []
    for match in chosen:
        copies = rng.choice((rng.randint(1, 10), rng.randint(100, 5000)))
        insertions.append((match.end(), match.group(0) * copies))
        names.append(f"<{match.group(1).decode('latin-1')}> x{copies}")
    body = _apply_insertions(data.body, insertions)
    return _changed(data, body, "tags repeated: " + ", ".join(names))


def _apply_insertions(body: bytes, insertions: Sequence[tuple[int, bytes]]) -> bytes:
    """`body` with each `(position, bytes)` inserted; positions in increasing order."""
    parts, last = [], 0
    for position, piece in insertions:
        parts += [body[last:position], piece]
        last = position
    parts.append(body[last:])
    return b"".join(parts)


# Openers that, left unclosed, swallow or restructure the rest of the page.
_UNCLOSED_OPENERS = (
    b"<!--", b"<script>", b"<style>", b"<textarea>", b"<title>", b"<xmp>", b"<noscript>", b"<template>",
    b"<table>", b"<select>", b"<a href=\"", b"<div class='", b"<![CDATA[", b"<plaintext>", b"<iframe>",
    b"<svg>", b"<math>", b"<pre>", b"<p", b"<",
)  # fmt: skip


def unclose_tags(data: FuzzInput, rng: random.Random) -> Mutated:
    """Drop closing tags (a share of them, at least one) or leave an element, comment or quote open."""
    closing = list(_CLOSE_TAG.finditer(data.body))
    if closing and rng.random() < 0.6:
        count = max(1, int(len(closing) * rng.choice((0.01, 0.1, 0.5, 1.0))))
        dropped = sorted(rng.sample(closing, min(count, len(closing))), key=lambda match: match.start())
        parts, last = [], 0
        for match in dropped:
            parts.append(data.body[last : match.start()])
            last = match.end()
        parts.append(data.body[last:])
        return _changed(data, b"".join(parts), f"{len(dropped)} of {len(closing)} closing tags dropped")
    opener = rng.choice(_UNCLOSED_OPENERS)
    body = _insert_all(data.body, rng, [opener])
    return _changed(data, body, f"unclosed {opener.decode('latin-1')!r} inserted")


# Charsets a page may name: right, wrong, exotic (EBCDIC, UTF-7, stateful CJK) and Python codecs that are
# no text encoding at all (bytes-to-bytes, escape codecs): a crawler reads whatever a server says.
_REAL_LABELS = (
    "utf-8", "UTF8", "utf-16", "utf-16le", "utf-16be", "utf-32", "iso-8859-1", "latin1", "windows-1252",
    "windows-1251", "koi8-r", "shift_jis", "euc-jp", "iso-2022-jp", "gb2312", "gb18030", "big5", "euc-kr",
    "iso-8859-8", "tis-620", "cp037", "cp500", "mac-roman", "x-user-defined", "utf-7", "us-ascii", "hz",
    "cp65001", "utf-8-sig",
)  # fmt: skip
_BOGUS_LABELS = (
    "", "bogus", "x-unknown", "utf-88", "utf8mb4", "unicode", "unicode-escape", "raw_unicode_escape",
    "rot13", "hex", "base64", "zlib", "bz2", "uu", "quopri", "idna", "punycode", "undefined", "mbcs",
    "none", "null", "0", "-", "utf-8\x00", "utf-8;q=0.9", "charset=utf-8", "utf-" + "8" * 300, "\xe9t\xe9",
)  # fmt: skip
CHARSET_LABELS = _REAL_LABELS + _BOGUS_LABELS


def _with_meta_charset(body: bytes, label: str) -> bytes:
    """`body` with every `<meta>` charset label replaced by `label`, or a `<meta charset>` added."""
    encoded = label.encode("latin-1")
    if _META_CHARSET.search(body):
        return _META_CHARSET.sub(lambda match: match.group(1) + encoded, body)
    head = _HEAD_OPEN.search(body)
    at = head.end() if head else 0
    return body[:at] + b'<meta charset="' + encoded + b'">' + body[at:]


def swap_charset(data: FuzzInput, rng: random.Random) -> Mutated:
    """Name another charset, real or bogus, in the page's `<meta>` and (or not) in the HTTP header."""
    current = _META_CHARSET.search(data.body)
    old = current.group(2).decode("latin-1").lower() if current else None
    label = rng.choice([label for label in CHARSET_LABELS if label.lower() != old])
    header = rng.choice((label, rng.choice(CHARSET_LABELS), data.charset, None))
    body = _with_meta_charset(data.body, label)
    return _changed(data, body, f"meta charset {old!r} -> {label!r}, header charset {header!r}", header)


# Byte sequences that are never valid UTF-8: stray bytes, overlong forms, surrogates, beyond U+10FFFF,
# sequences cut short.
_INVALID_UTF8 = (
    b"\xff", b"\xfe", b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xed\xa0\x80",
    b"\xed\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98",
    b"\xc3\x28", b"\xe2\x28\xa1",
)  # fmt: skip


def invalid_utf8(data: FuzzInput, rng: random.Random) -> Mutated:
    """Insert invalid UTF-8 sequences (a few to a few hundred) at random places."""
    count = rng.choice((1, rng.randint(2, 20), rng.randint(20, 500)))
    pieces = [rng.choice(_INVALID_UTF8) for _ in range(count)]
    return _changed(data, _insert_all(data.body, rng, pieces), f"{count} invalid UTF-8 sequences")


_NESTING_PATTERNS = (
    (b"div",), (b"span",), (b"b",), (b"a",), (b"font",), (b"blockquote",), (b"section",), (b"li",),
    (b"ul", b"li"), (b"table", b"tr", b"td"), (b"div", b"span"), (b"p", b"b", b"i"), (b"form",),
    (b"dl", b"dd"), (b"object",), (b"select",), (b"table",),
)  # fmt: skip


def deep_nesting(data: FuzzInput, rng: random.Random) -> Mutated:
    """Wrap the body's content in thousands of nested elements, closed, unclosed or half closed."""
    pattern = rng.choice(_NESTING_PATTERNS)
    levels = rng.randint(1000, 10000)
    opening = b"".join(b"<" + tag + b">" for tag in pattern)
    closing = b"".join(b"</" + tag + b">" for tag in reversed(pattern))
    closed = rng.choice((levels, 0, levels // 2))
    first, last = _content_span(data.body)
    body = data.body[:first] + opening * levels + data.body[first:last] + closing * closed + data.body[last:]
    names = "".join(f"<{tag.decode()}>" for tag in pattern)
    return _changed(data, body, f"{levels} levels of {names}, {closed} closed")


_ATTRIBUTE_NAMES = (b"class", b"id", b"style", b"href", b"src", b"title", b"alt", b"data-x", b"content")
_ATTRIBUTE_FILLS = (b"a", b"ab cd ", b"display:none;", b"nav sidebar ", b"/x/../", b"&amp;", b"\xc3\xa9 ")


def _megabytes(rng: random.Random) -> int:
    """A huge size: mostly 1-4 MB, one time in fifty 8-16 MB (16 MB: the crawl's DOWNLOAD_MAXSIZE)."""
    if rng.random() < 0.02:
        return rng.randint(8 * _MB, 16 * _MB)
    return _log_uniform(rng, _MB, 4 * _MB)


def huge_attribute(data: FuzzInput, rng: random.Random) -> Mutated:
    """Give one element an attribute of megabytes (a class, a style, a URL, a data blob)."""
    name, fill = rng.choice(_ATTRIBUTE_NAMES), rng.choice(_ATTRIBUTE_FILLS)
    size = _megabytes(rng)
    value = fill * (size // len(fill))
    tags = _tags_in_body(data.body)
    at = tags[rng.randrange(len(tags))].end(1) if tags else 0
    attribute = b" " + name + b'="' + value + b'"'
    if not tags:
        attribute = b"<div" + attribute + b">x</div>"
    detail = f"{name.decode()}={fill.decode('latin-1')!r}... of {len(value) / _MB:.1f} MB"
    return _changed(data, data.body[:at] + attribute + data.body[at:], detail)


_TEXT_FILLS = (
    b"word ", b"w", b"Lorem ipsum, dolor sit amet. ", b"&amp;", b"&nbsp;", b" ", b"\n", b"\xe6\x97\xa5",
    b"\xf0\x9f\x99\x82", b"a\tb\r\n", b"http://fuzz.test/x ",
)  # fmt: skip


def huge_text(data: FuzzInput, rng: random.Random) -> Mutated:
    """Insert a text node of megabytes (words, one endless word, entities, whitespace, emoji) in the body."""
    fill = rng.choice(_TEXT_FILLS)
    text = fill * (_megabytes(rng) // len(fill))
    tags = _tags_in_body(data.body)
    at = tags[rng.randrange(len(tags))].end() if tags else len(data.body)
    detail = f"text {fill.decode('latin-1')!r}... of {len(text) / _MB:.1f} MB"
    return _changed(data, data.body[:at] + text + data.body[at:], detail)


def many_attributes(data: FuzzInput, rng: random.Random) -> Mutated:
    """Give one element hundreds to tens of thousands of attributes (distinct names, or one name repeated)."""
    # libxml2 checks each new attribute against the element's others: the cost grows with the square of
    # the count, so tens of thousands come one time in fifty (they would take most of a run's time).
    count = _log_uniform(rng, 20000, 40000) if rng.random() < 0.02 else _log_uniform(rng, 100, 10000)
    if rng.random() < 0.25:
        attributes = b' class="x"' * count
        kind = "repeated class"
    else:
        attributes = b"".join(b' a%d="%d"' % (number, number) for number in range(count))
        kind = "distinct"
    tags = _tags_in_body(data.body)
    at = tags[rng.randrange(len(tags))].end(1) if tags else 0
    if not tags:
        attributes = b"<div" + attributes + b">x</div>"
    return _changed(data, data.body[:at] + attributes + data.body[at:], f"{count} {kind} attributes")


_CONTROLS = bytes((*range(0, 9), 11, 12, *range(14, 32), 127))
_C1_AS_UTF8 = tuple(bytes((0xC2, code)) for code in range(0x80, 0xA0))


def control_chars(data: FuzzInput, rng: random.Random) -> Mutated:
    """Insert NUL bytes and control characters: scattered, packed into the first 4 KB, or NUL runs."""
    mode = rng.choice(("scattered", "head", "nul-run"))
    if mode == "nul-run":
        pieces = [b"\0" * rng.randint(1, 4096)]
    else:
        count = rng.randint(1, 50) if mode == "scattered" else rng.randint(100, 300)
        pieces = [bytes((rng.choice(_CONTROLS),)) if rng.random() < 0.8 else rng.choice(_C1_AS_UTF8)
                  for _ in range(count)]  # fmt: skip
    if mode == "head":
        # Around the binary-detection threshold of the decoder, which reads the first 4 KB.
        head = _insert_all(data.body[:4096], rng, pieces)
        return _changed(data, head + data.body[4096:], f"{len(pieces)} control characters in the first 4 KB")
    return _changed(data, _insert_all(data.body, rng, pieces), f"{mode}: {sum(map(len, pieces))} bytes")


_BOMS = (
    ("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
    ("utf-32-le", codecs.BOM_UTF32_LE),
)  # fmt: skip
_TRANSCODINGS = ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "cp1252", "shift_jis", "cp037")


def bom_mismatch(data: FuzzInput, rng: random.Random) -> Mutated:
    """Start the page with a BOM that disagrees with its declared charset, its actual bytes, or both."""
    bom_name, bom = rng.choice(_BOMS)
    others = [label for label in _REAL_LABELS if label.replace("-", "") != bom_name.replace("-", "")]
    declared = rng.choice(others)
    body = _with_meta_charset(data.body, declared)
    encoding = rng.choice(_TRANSCODINGS)
    if encoding != "utf-8":
        # The bytes in yet another encoding (the page is read as UTF-8 first to get its text).
        body = body.decode("utf-8", errors="replace").encode(encoding, errors="replace")
    body = bom + body
    if rng.random() < 0.3:
        body = _insert_all(body, rng, [rng.choice(_BOMS)[1]])
    header = rng.choice((declared, None, bom_name))
    detail = f"{bom_name} BOM, bytes in {encoding}, declared {declared}, header {header!r}"
    return _changed(data, body, detail, header)


_BINARY_SIGNATURES = (
    b"\x89PNG\r\n\x1a\n", b"\x1f\x8b\x08", b"%PDF-1.4", b"PK\x03\x04", b"\x7fELF", b"MZ", b"GIF89a",
    b"\xff\xd8\xff\xe0", b"\x00\x00\x01\x00", b"RIFF", b"wOF2", b"",
)  # fmt: skip


def binary_prefix(data: FuzzInput, rng: random.Random) -> Mutated:
    """Put binary junk before the page: random bytes, high bytes only, or a file signature and junk."""
    length = _log_uniform(rng, 1, 65536)
    mode = rng.choice(("random", "high", "signature"))
    if mode == "high":
        junk = bytes(rng.randrange(0x80, 0x100) for _ in range(length))
    else:
        junk = rng.randbytes(length)
        if mode == "signature":
            junk = rng.choice(_BINARY_SIGNATURES) + junk
    return _changed(data, junk + data.body, f"{mode} prefix of {len(junk)} bytes")


def combination(data: FuzzInput, rng: random.Random) -> Mutated:
    """Two or three of the other page mutations, one after the other."""
    names = rng.sample(sorted(COMBINABLE), rng.randint(2, 3))
    details = []
    for name in names:
        mutated = COMBINABLE[name](data, rng)
        data = mutated.input
        details.append(f"{name} ({mutated.detail})")
    return Mutated(data, " + ".join(details))


# --- Random HTML from a small grammar ------------------------------------------------------------------

_CONTAINERS = (
    "div", "p", "span", "a", "b", "em", "section", "article", "nav", "aside", "header", "footer", "main",
    "ul", "ol", "li", "dl", "dt", "dd", "table", "tr", "td", "th", "thead", "tbody", "caption", "form",
    "select", "option", "button", "label", "pre", "code", "blockquote", "figure", "figcaption", "h1", "h2",
    "h3", "h6", "font", "center", "details", "summary", "body", "html", "head", "noscript", "object",
)  # fmt: skip
_VOIDS = ("br", "hr", "img", "input", "meta", "link", "base", "wbr", "source", "area", "col", "embed")
_RAW = ("script", "style", "textarea", "title", "template", "xmp", "iframe", "svg", "math")
_WORDS = (
    "the", "article", "content", "Home", "Login", "Share", "Copyright ©", "Advertisement", "Read more",
    "cookie", "comments", "naïve", "日本語", "עברית", "🙂", "a\u0301", "\u202e", "\u200d", "\ufeff", "\u2028",
    "&amp;", "&nbsp;", "&#0;", "&#x110000;", "&#xD800;", "&#65;", "&bogus;", "&", "&#", "<", ">", "]]>",
    "http://fuzz.test/x", "Lorem ipsum dolor sit amet, consectetur adipiscing elit.", "|", "»", "\t", "\n",
)  # fmt: skip
_CLASS_WORDS = (
    "content", "article", "post", "comment", "sidebar", "nav", "footer", "menu", "ad", "hidden", "share",
    "related", "entry", "main", "body", "breadcrumb", "S:1", "",
)  # fmt: skip
_STYLES = (
    "display:none", "visibility:hidden", "DISPLAY: NONE !important", "display:", "opacity:0", "color:red",
)  # fmt: skip
_URLS = (
    "/a", "b/c", "../../..", "?q=1", "#top", FUZZ_HOST, "http://other.test/x", "javascript:void(0)",
    "mailto:a@b", "http://[::1", "http://a b/", "//fuzz.test/p", "http://fuzz.test:99999/", "http://xn--/",
    "data:text/html,<p>", "%zz", "http://fuzz.test/%E0%A4%A", "\x00", "", " ", "http://", "HTTP://FUZZ.TEST/",
    "/index.html", "x.pdf", "file:///etc/passwd", "http://user:pw@fuzz.test/", "\u00e9/\u65e5",
)  # fmt: skip


class HtmlGrammar:
    """Random HTML: a document skeleton (parts may be missing or repeated) around random nested elements
    with the attributes extraction reads (class, id, style, hidden, href) and awkward text."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.budget = _log_uniform(rng, 5, 3000)

    def document(self) -> str:
        """A whole page."""
        rng = self.rng
        head = "".join(self._head_part() for _ in range(rng.randint(0, 5)))
        body = "".join(self.node(0) for _ in range(rng.randint(1, 8)))
        parts = [
            rng.choice(("<!DOCTYPE html>", "", "<?xml version='1.0'?>", "<!doctype html public>")),
            rng.choice(("<html>", "", "<html lang='en'>")),
            rng.choice((f"<head>{head}</head>", head, "")),
            rng.choice((f"<body{self.attributes()}>{body}</body>", body, f"<body>{body}")),
            rng.choice(("</html>", "", "</html><p>after the end</p>")),
        ]
        return "".join(parts)

    def _head_part(self) -> str:
        rng = self.rng
        url = rng.choice(_URLS)
        return rng.choice((
            f"<title>{self.text()}</title>", f'<meta charset="{rng.choice(CHARSET_LABELS)}">',
            f'<meta http-equiv="refresh" content="{rng.randint(0, 5)}; url={url}">',
            f'<meta http-equiv="refresh" content="0;URL=\'{url}\'">', f'<base href="{url}">',
            f'<meta property="og:title" content="{self.text()}">', "<style>p{display:none}</style>",
        ))  # fmt: skip

    def node(self, depth: int) -> str:
        """One element with its children, or text, a void element or a raw-text element."""
        rng = self.rng
        self.budget -= 1
        roll = rng.random()
        if depth > 25 or self.budget <= 0 or roll < 0.3:
            return self.text()
        if roll < 0.4:
            return f"<{rng.choice(_VOIDS)}{self.attributes()}>"
        if roll < 0.45:
            tag = rng.choice(_RAW)
            return f"<{tag}>{self.text()}</{tag}>" if rng.random() < 0.9 else f"<{tag}>{self.text()}"
        tag = rng.choice(_CONTAINERS)
        children = "".join(self.node(depth + 1) for _ in range(rng.randint(0, 6)))
        ending = rng.random()
        close = f"</{tag}>" if ending < 0.85 else (f"</{rng.choice(_CONTAINERS)}>" if ending < 0.93 else "")
        return f"<{tag}{self.attributes()}>{children}{close}"

    def attributes(self) -> str:
        """Zero to four attributes that extraction reads."""
        rng = self.rng
        choices = (
            lambda: f' class="{rng.choice(_CLASS_WORDS)} {rng.choice(_CLASS_WORDS)}"',
            lambda: f" id={rng.choice(_CLASS_WORDS)}",
            lambda: f' style="{rng.choice(_STYLES)}"',
            lambda: rng.choice((" hidden", ' aria-hidden="true"', " hidden=hidden")),
            lambda: f' href="{rng.choice(_URLS)}"',
            lambda: f" src='{rng.choice(_URLS)}'",
            lambda: f' role="{rng.choice(("navigation", "main", "complementary", "banner"))}"',
        )
        return "".join(rng.choice(choices)() for _ in range(rng.choice((0, 0, 1, 2, 4))))

    def text(self) -> str:
        """A few words, entities and odd characters."""
        return " ".join(self.rng.choice(_WORDS) for _ in range(self.rng.randint(0, 12)))


def grammar(data: FuzzInput, rng: random.Random) -> Mutated:
    """Random HTML from `HtmlGrammar` in place of the page (UTF-8; the charset hint is kept)."""
    generator = HtmlGrammar(rng)
    text = generator.document()
    return _changed(data, text.encode("utf-8", errors="surrogatepass"), f"grammar page of {len(text)} chars")


COMBINABLE: dict[str, Mutation] = {
    "truncate": truncate,
    "flip_bytes": flip_bytes,
    "delete_range": delete_range,
    "duplicate_range": duplicate_range,
    "duplicate_tags": duplicate_tags,
    "unclose_tags": unclose_tags,
    "swap_charset": swap_charset,
    "invalid_utf8": invalid_utf8,
    "deep_nesting": deep_nesting,
    "huge_attribute": huge_attribute,
    "huge_text": huge_text,
    "many_attributes": many_attributes,
    "control_chars": control_chars,
    "bom_mismatch": bom_mismatch,
    "binary_prefix": binary_prefix,
}
MUTATIONS: dict[str, Mutation] = {**COMBINABLE, "grammar": grammar, "combination": combination}


# --- Pages and cases ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Corpus:
    """The pages inputs start from, with short labels (``aeb/0001.html.gz``), and what was missing."""

    pages: tuple[Path, ...]
    labels: tuple[str, ...]
    missing: tuple[str, ...] = ()

    def describe(self) -> str:
        """How many pages from where, in one line."""
        counts: dict[str, int] = {}
        for label in self.labels:
            source = label.split("/", 1)[0]
            counts[source] = counts.get(source, 0) + 1
        return f"{len(self.pages)} pages (" + ", ".join(f"{name} {n}" for name, n in counts.items()) + ")"


def find_corpus(shared: Path) -> Corpus:
    """The pages of the shared data sets; the fixtures alone when none is there."""
    pages: list[Path] = []
    labels: list[str] = []
    missing: list[str] = []
    for name in DATASETS:
        folder = shared / "datasets" / name / "html"
        found = sorted(folder.glob("*.html.gz")) if folder.is_dir() else []
        if not found:
            missing.append(str(folder))
        pages += found
        labels += [f"{name}/{path.name}" for path in found]
    if not pages:
        pages = sorted(FIXTURES.glob("*.html"))
        labels = [f"fixtures/{path.name}" for path in pages]
    return Corpus(tuple(pages), tuple(labels), tuple(missing))


def fixtures_corpus() -> Corpus:
    """The small real pages of ``tests/fixtures``."""
    pages = tuple(sorted(FIXTURES.glob("*.html")))
    return Corpus(pages, tuple(f"fixtures/{path.name}" for path in pages))


@functools.lru_cache(maxsize=16)
def load_page(path: Path) -> bytes:
    """A page's bytes (gzip-compressed files are decompressed); the last few are kept in memory."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


@dataclass(frozen=True, slots=True)
class Case:
    """One input of a run: its seed and number, the target it goes to, its mutation and its page."""

    seed: int
    index: int
    target: str
    mutation: str
    page: int

    @property
    def url(self) -> str:
        """The page's URL: one per input, so that no spider takes it for a page it stored already."""
        return f"{FUZZ_HOST}{self.index}"


def make_case(seed: int, index: int, targets: Sequence[str], pages: int) -> Case:
    """Input `index` of a run: targets and mutations take turns (each pair equally often), the page is
    drawn from the seed."""
    rng = random.Random(f"cleancrawl-fuzz/{seed}/{index}/page")
    names = list(MUTATIONS)
    mutation = names[(index // len(targets)) % len(names)]
    return Case(seed, index, targets[index % len(targets)], mutation, rng.randrange(pages))


def build_input(case: Case, pages: Sequence[Path]) -> Mutated:
    """The input of `case`: its page with its mutation, the same every time."""
    rng = random.Random(f"cleancrawl-fuzz/{case.seed}/{case.index}/input")
    # Most servers name UTF-8 or nothing; the charset mutations bring the rest.
    base = FuzzInput(load_page(pages[case.page]), rng.choice((None, "utf-8")))
    return MUTATIONS[case.mutation](base, rng)


# --- Targets --------------------------------------------------------------------------------------------

# A target runs one input and says in a few words what happened; raising is a crash.
Target = Callable[[FuzzInput, str], str]


def extract_target(data: FuzzInput, url: str) -> str:
    """`extraction.extract`; its documented errors (`ExtractionError` subclasses) are answers."""
    from extraction import ExtractionError, extract

    try:
        result = extract(data.body, url=url, encoding=data.charset)
    except ExtractionError as error:
        return f"rejected ({type(error).__name__})"
    return f"{len(result.blocks)} blocks"


@functools.cache
def _crawl() -> tuple[Crawler, CrawlConfig]:
    """A crawler with cleancrawl's add-on (as ``tests/addon.py`` makes one) and its crawl configuration."""
    from scrapy.utils.test import get_crawler

    from crawler.addon import CleancrawlAddon
    from crawler.spiders.site import SiteSpider
    from pipelines.context import CrawlContext

    crawler = get_crawler(SiteSpider, {"ADDONS": {CleancrawlAddon: 0}, "DATABASE_URL": ""})
    return crawler, CrawlContext.of(crawler).config


def spider_target(data: FuzzInput, url: str) -> str:
    """`SiteSpider.parse_page` on an HTML response with the body and its Content-Type; it must not raise.

    A new spider per input (it costs a fraction of a millisecond): what it remembers of earlier pages
    (URLs seen and stored) would make an input behave differently in a run and in its replay.
    """
    from scrapy import Request
    from scrapy.http import HtmlResponse

    from crawler.spiders.site import SiteSpider
    from records import PageRecord

    crawler, config = _crawl()
    spider = SiteSpider.from_crawler(crawler, seeds=FUZZ_HOST)
    spider.config = config
    content_type = b"text/html"
    if data.charset is not None:
        content_type += b"; charset=" + data.charset.encode("latin-1", errors="replace")
    # Tied to its request, as every response a crawl hands to a callback is (the spider reads its meta).
    request = Request(url, callback=spider.parse_page)
    response = HtmlResponse(url, body=data.body, headers={b"Content-Type": content_type}, request=request)
    items = asyncio.run(_outputs(spider.parse_page(response)))
    pages = sum(isinstance(item, PageRecord) for item in items)
    return f"{pages} pages, {len(items) - pages} requests" if pages else f"skipped, {len(items)} requests"


async def _outputs(callback: AsyncIterator[Any]) -> list[Any]:
    return [output async for output in callback]


TARGETS: dict[str, Target] = {"extract": extract_target, "spider": spider_target}


# --- Worker processes -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Task:
    """One input for a worker: its case, and for replays and shrinking the input itself."""

    case: Case
    given: FuzzInput | None = None
    url: str = ""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What running one input did: its status (``ok``, ``crash``, ``hang``; ``error`` is a bug of the
    fuzzer itself), a note (the target's answer, or the traceback), the target's wall time and CPU time
    (the cost of the input itself, whatever else the machine runs), input size and mutation."""

    status: str
    note: str
    seconds: float
    cpu: float
    size: int
    detail: str = ""
    # The worker cannot go on (after a MemoryError): it exits and a new one takes its place.
    fatal: bool = False


def warm_up() -> None:
    """Import the targets' code and build the crawler before the first input, which would pay for it."""
    extract_target(FuzzInput(b"<p>warm up</p>"), FUZZ_HOST)
    spider_target(FuzzInput(b"<p>warm up</p>"), FUZZ_HOST)


@dataclass(frozen=True, slots=True)
class WorkerSetup:
    """What every worker process starts with; `warm` runs once before it says it is ready."""

    pages: tuple[Path, ...]
    targets: Mapping[str, Target]
    memory_mb: int
    warm: Callable[[], None] | None = warm_up


def _limit_memory(megabytes: int) -> None:
    """Cap the worker's address space: an allocation past it fails (MemoryError) instead of swapping."""
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = megabytes * _MB
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def worker_main(connection: Connection, setup: WorkerSetup) -> None:
    """Run tasks from the parent until it sends None or closes the pipe."""
    # Ctrl-C goes to the whole process group: the parent handles it and stops the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The spider logs every skipped page; a hundred thousand inputs would bury the report.
    logging.disable(logging.CRITICAL)
    _limit_memory(setup.memory_mb)
    if setup.warm is not None:
        setup.warm()
    connection.send("ready")
    while True:
        try:
            task = connection.recv()
        except EOFError:
            return
        if task is None:
            return
        outcome = run_task(task, setup)
        connection.send(outcome)
        if outcome.fatal:
            return


def run_task(task: Task, setup: WorkerSetup) -> Outcome:
    """Build the task's input and run its target once, timing the target alone."""
    try:
        mutated = Mutated(task.given, "given") if task.given else build_input(task.case, setup.pages)
    except Exception:
        return Outcome("error", traceback.format_exc(), 0.0, 0.0, 0)
    data, target = mutated.input, setup.targets[task.case.target]
    started, cpu_started = time.perf_counter(), time.process_time()
    status, fatal = "ok", False
    try:
        note = target(data, task.url or task.case.url)
    except MemoryError:
        status, note, fatal = "crash", traceback.format_exc(), True
    except BaseException:  # anything else, SystemExit and GeneratorExit included, is a crash too
        status, note = "crash", traceback.format_exc()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return Outcome(status, note, wall, cpu, len(data.body), mutated.detail, fatal)


# The code under test, imported once by the fork server that starts every worker of a run: a worker that
# replaces a hung one runs the same code as the others even if the working tree changes meanwhile (other
# people edit it while a run takes half an hour), and starts in milliseconds instead of re-importing Scrapy.
# (Not this module: a worker runs the main module again as `__mp_main__`, which warns when it was preloaded.)
PRELOAD = [
    "extraction", "extraction.methods.registry", "crawler.addon", "crawler.spiders.site", "pipelines.context",
    "records", "scrapy.http", "scrapy.utils.test",
]  # fmt: skip


# A worker that used less CPU than the cap is given more time, up to this many times the cap in wall time.
BACKSTOP = 3.0


def _cpu_seconds(pid: int | None) -> float | None:
    """User and system CPU seconds a process has used, from /proc (None where there is no /proc)."""
    try:
        # The fields after the command name, which is in parentheses and may hold spaces.
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class WorkerStartError(RuntimeError):
    """A worker process did not start (its code does not import, or its warm-up failed)."""


class _Worker:
    """One worker process, the task it is running and when that task's time is up."""

    def __init__(self, setup: WorkerSetup) -> None:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)  # no effect once the server runs: it is one per process
        # Forked from the server, not from this process: each worker's address-space limit is its own.
        self.connection, child = context.Pipe()
        self.process: BaseProcess = context.Process(target=worker_main, args=(child, setup), daemon=True)
        self.process.start()
        # Only the worker holds its end now: when it dies, reading ours gives EOF instead of blocking.
        child.close()
        self.task: Task | None = None
        self.deadline = self.sent = float("inf")
        self.cpu_at_send: float | None = None

    def wait_ready(self, seconds: float = 300.0) -> None:
        """Wait for the worker's first message, sent once it has started and warmed up."""
        try:
            ready = self.connection.poll(seconds) and self.connection.recv() == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.stop(kill=True)
            raise WorkerStartError(f"a fuzz worker did not start ({_exit_reason(self.process.exitcode)})")

    def send(self, task: Task, time_cap: float) -> None:
        self.cpu_at_send = _cpu_seconds(self.process.pid)
        self.connection.send(task)
        self.sent = time.monotonic()
        self.task, self.deadline = task, self.sent + time_cap

    def cpu_since_send(self) -> float | None:
        """CPU seconds the worker has used on its task (None where /proc cannot tell)."""
        now = _cpu_seconds(self.process.pid)
        return None if now is None or self.cpu_at_send is None else now - self.cpu_at_send

    def stop(self, kill: bool = False) -> None:
        """End the process: ask politely unless `kill`, then kill it if it does not exit."""
        if not kill:
            with contextlib.suppress(OSError):
                self.connection.send(None)
            self.process.join(1)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.connection.close()


class Pool:
    """Worker processes and the watchdog: a worker that hangs is killed, one that dies is replaced."""

    def __init__(self, size: int, setup: WorkerSetup, time_cap: float) -> None:
        self.setup, self.time_cap = setup, time_cap
        self.workers = [_Worker(setup) for _ in range(max(1, size))]
        for worker in self.workers:
            worker.wait_ready()
        self.restarts = 0

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        for worker in self.workers:
            worker.stop(kill=worker.task is not None)

    def map(self, tasks: Iterable[Task]) -> Iterator[tuple[Task, Outcome]]:
        """Run the tasks, as many at a time as there are workers; yield each with its outcome as it ends."""
        pending = iter(tasks)
        while True:
            for worker in self.workers:
                task = next(pending, None) if worker.task is None else None
                if task is not None:
                    worker.send(task, self.time_cap)
            busy = [worker for worker in self.workers if worker.task is not None]
            if not busy:
                return
            timeout = max(0.0, min(worker.deadline for worker in busy) - time.monotonic())
            ready = wait([worker.connection for worker in busy], timeout)
            for worker in busy:
                # Polled again: replacing a hung worker just now may have taken long enough for this one to
                # answer after `wait` returned, and an answer waiting in the pipe is no hang.
                if worker.connection in ready or worker.connection.poll():
                    yield self._collect(worker)
                elif time.monotonic() >= worker.deadline and not self._starved(worker):
                    yield self._hang(worker)

    def run_one(self, task: Task) -> Outcome:
        """One task's outcome."""
        return next(iter(self.map([task])))[1]

    def _collect(self, worker: _Worker) -> tuple[Task, Outcome]:
        task = worker.task
        assert task is not None
        try:
            outcome: Outcome = worker.connection.recv()
        except (EOFError, OSError):
            worker.process.join(5)
            outcome = Outcome("crash", f"worker died ({_exit_reason(worker.process.exitcode)})", 0.0, 0.0, 0)
            self._replace(worker, kill=True)
            return task, outcome
        worker.task, worker.deadline = None, float("inf")
        if outcome.fatal:
            self._replace(worker, kill=False)
        return task, outcome

    def _starved(self, worker: _Worker) -> bool:
        """Whether a worker past its deadline has had less than the cap in CPU time (the machine is busy
        with other work) and may go on: its deadline moves to when it could have had the cap, never past
        `BACKSTOP` times the cap of wall time. A worker that waits on nothing, at no CPU, hits that."""
        used = worker.cpu_since_send()
        hard = worker.sent + BACKSTOP * self.time_cap
        if used is None or used >= self.time_cap or time.monotonic() >= hard:
            return False
        worker.deadline = min(hard, time.monotonic() + max(0.05, self.time_cap - used))
        return True

    def _hang(self, worker: _Worker) -> tuple[Task, Outcome]:
        task = worker.task
        assert task is not None
        wall, cpu = time.monotonic() - worker.sent, worker.cpu_since_send()
        self._replace(worker, kill=True)
        cpu = wall if cpu is None else cpu
        note = f"no answer in {wall:.1f} s ({cpu:.1f} s CPU): worker killed"
        return task, Outcome("hang", note, wall, cpu, 0)

    def _replace(self, worker: _Worker, kill: bool) -> None:
        worker.stop(kill=kill)
        fresh = _Worker(self.setup)
        fresh.wait_ready()
        self.workers[self.workers.index(worker)] = fresh
        self.restarts += 1


def _exit_reason(code: int | None) -> str:
    """A worker's exit code in words: ``signal SIGSEGV``, ``exit code 1``."""
    if code is None:
        return "still running"
    if code < 0:
        return f"signal {signal.Signals(-code).name}"
    return f"exit code {code}"


# --- Findings and figures -------------------------------------------------------------------------------


def _display_path(path: Path) -> str:
    """`path` relative to the repository when it is inside it (findings then read the same anywhere)."""
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


class Findings:
    """The findings directory: one file per crashing, hanging or slow input, one line each in the log."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.log = folder / FINDINGS_LOG
        self.saved = 0

    def save(
        self, case: Case, kind: str, data: FuzzInput, record: dict[str, Any], url: str = "", name: str = ""
    ) -> Path:
        """Write the input and its log line (`record` says what happened); return the file."""
        if not name:
            name = f"{case.seed}-{case.index:06d}-{case.target}-{case.mutation}-{kind}.html"
            # Large inputs are mostly repetition: compressed, a 4 MB attribute takes a few kilobytes.
            if len(data.body) > 256 * 1024:
                name += ".gz"
        path = self.folder / name
        path.write_bytes(gzip.compress(data.body, 6, mtime=0) if name.endswith(".gz") else data.body)
        line = {
            **record, "file": name, "kind": kind, "target": case.target, "mutation": case.mutation,
            "seed": case.seed, "index": case.index, "url": url or case.url, "charset": data.charset,
            "size": len(data.body), "replay": f"python -m benchmarks.fuzz replay {_display_path(path)}",
        }  # fmt: skip
        with self.log.open("a", encoding="utf-8") as log:
            log.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.saved += 1
        return path


def read_finding(path: Path) -> tuple[FuzzInput, dict[str, Any]]:
    """A saved input and the last log line about it (from ``findings.jsonl`` beside it)."""
    raw = path.read_bytes()
    body = gzip.decompress(raw) if path.name.endswith(".gz") else raw
    record: dict[str, Any] = {}
    log = path.parent / FINDINGS_LOG
    if log.is_file():
        for line in log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry.get("file") == path.name:
                record = entry
    return FuzzInput(body, record.get("charset")), record


@dataclass(slots=True)
class Bucket:
    """The figures of a set of inputs: how many, what happened, how long they took."""

    inputs: int = 0
    rejected: int = 0
    """Turned away as documented (see `add`)."""
    crashes: int = 0
    hangs: int = 0
    slow: int = 0
    seconds: float = 0.0
    """Wall time of all inputs; `cpu` is their CPU time."""
    cpu: float = 0.0
    # The slowest input by CPU time (a hang counts as the time cap), its wall time and what it was.
    worst: float = 0.0
    worst_wall: float = 0.0
    worst_input: str = ""

    def add(self, outcome: Outcome, slow: float, description: str) -> None:
        """Count one input."""
        self.inputs += 1
        # Turned away as documented: an ExtractionError of `extract`; a spider input that stored no page
        # (skipped, or a meta-refresh stub whose target is requested instead).
        self.rejected += outcome.note.startswith(("rejected", "skipped"))
        self.crashes += outcome.status == "crash"
        self.hangs += outcome.status == "hang"
        self.slow += outcome.status == "ok" and outcome.cpu > slow
        self.seconds += outcome.seconds
        self.cpu += outcome.cpu
        if outcome.cpu > self.worst:
            self.worst, self.worst_wall, self.worst_input = outcome.cpu, outcome.seconds, description


@dataclass(slots=True)
class Tally:
    """The figures of a run: in all, per target, per mutation; the findings' files."""

    slow: float
    total: Bucket = field(default_factory=Bucket)
    targets: dict[str, Bucket] = field(default_factory=dict)
    mutations: dict[str, Bucket] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)

    def add(self, case: Case, outcome: Outcome, description: str) -> None:
        """Count one input in each of its buckets."""
        for bucket in (
            self.total,
            self.targets.setdefault(case.target, Bucket()),
            self.mutations.setdefault(case.mutation, Bucket()),
        ):
            bucket.add(outcome, self.slow, description)


@dataclass(slots=True)
class Report:
    """A run's figures and the facts around them."""

    tally: Tally
    seconds: float
    seed: int
    workers: int
    restarts: int
    corpus: str
    build: str
    # Seconds to start the workers (included in `seconds`), and why the run stopped early ("" if it did not).
    startup: float = 0.0
    stopped: str = ""

    @property
    def crashes(self) -> int:
        """Inputs that raised an undocumented exception, ran out of memory or killed their worker."""
        return self.tally.total.crashes

    @property
    def hangs(self) -> int:
        """Inputs that went past the time cap."""
        return self.tally.total.hangs

    def lines(self) -> list[str]:
        """The report as text."""
        total = self.tally.total
        rate = total.inputs / self.seconds if self.seconds else 0.0
        lines = [
            f"fuzz: {total.inputs:,} inputs (seed {self.seed}) in {self.seconds:,.1f} s on {self.workers} "
            f"workers ({self.startup:.1f} s to start them): {rate:,.1f} inputs/s; extraction {self.build}",
            f"CPU time of the targets: {total.cpu:,.0f} s (wall {total.seconds:,.0f} s, summed over workers)",
            f"pages: {self.corpus}",
            "",
            *_table("target", self.tally.targets, self.tally.slow),
            "",
            *_table("mutation", self.tally.mutations, self.tally.slow),
            "",
            f"crashes: {total.crashes}, hangs: {total.hangs}, "
            f"pages over {self.tally.slow:g} s: {total.slow}, workers restarted: {self.restarts}",
            f"worst time per page: {total.worst:.3f} s CPU ({total.worst_wall:.3f} s wall), "
            f"{total.worst_input}",
        ]
        if self.stopped:
            lines.insert(0, f"STOPPED EARLY after {total.inputs:,} inputs: {self.stopped}")
        if self.tally.findings:
            lines.append(f"findings ({len(self.tally.findings)}):")
            lines += [f"  {finding}" for finding in self.tally.findings[:40]]
            if len(self.tally.findings) > 40:
                lines.append(f"  ... and {len(self.tally.findings) - 40} more in {FINDINGS_LOG}")
        return lines

    def to_dict(self) -> dict[str, Any]:
        """The figures as JSON-ready data."""
        return {
            "seconds": self.seconds, "seed": self.seed, "workers": self.workers, "restarts": self.restarts,
            "corpus": self.corpus, "build": self.build, "startup": self.startup, "stopped": self.stopped,
            "total": asdict(self.tally.total),
            "targets": {name: asdict(bucket) for name, bucket in self.tally.targets.items()},
            "mutations": {name: asdict(bucket) for name, bucket in self.tally.mutations.items()},
            "findings": self.tally.findings,
        }  # fmt: skip


def _table(title: str, buckets: Mapping[str, Bucket], slow: float) -> list[str]:
    """One row per bucket: inputs, rejected, crashes, hangs, slow, mean and worst time."""
    header = f"{title:<16} {'inputs':>8} {'rejected':>8} {'crashes':>7} {'hangs':>5} {f'>{slow:g} s':>6}"
    rows = [f"{header} {'wall ms':>8} {'CPU ms':>8} {'worst s':>8}"]
    for name, bucket in buckets.items():
        count = bucket.inputs or 1
        rows.append(
            f"{name:<16} {bucket.inputs:>8,} {bucket.rejected:>8,} {bucket.crashes:>7} {bucket.hangs:>5} "
            f"{bucket.slow:>6} {1000 * bucket.seconds / count:>8.1f} {1000 * bucket.cpu / count:>8.1f} "
            f"{bucket.worst:>8.3f}"
        )
    return rows


# --- Runs -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """What one input may take: every command's options (a run, a replay and a shrink alike)."""

    time_cap: float = 5.0
    """Seconds of CPU an input may take before it counts as a hang and its worker is restarted."""
    memory_mb: int = 2048
    """Each worker's address-space limit."""
    slow: float = 1.0
    """Seconds of CPU over which an input that finished is saved as slow."""


@dataclass(frozen=True, slots=True)
class RunSettings:
    """The knobs of one run (the command line's options)."""

    inputs: int = 100_000
    seed: int = 0
    workers: int = 2
    limits: Limits = Limits()
    out: Path = DEFAULT_OUT
    progress: bool = False


def default_workers() -> int:
    """The CPUs this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _describe(case: Case, outcome: Outcome, corpus: Corpus) -> str:
    """An input in one line: number, target, mutation and what it did, page."""
    return f"#{case.index} {case.target}, {case.mutation} ({outcome.detail}), page {corpus.labels[case.page]}"


def _finding_kind(outcome: Outcome, slow: float) -> str | None:
    if outcome.status in ("crash", "hang"):
        return outcome.status
    return "slow" if outcome.cpu > slow else None


def _save_finding(case: Case, kind: str, outcome: Outcome, corpus: Corpus, findings: Findings) -> str:
    """Build the input again in this process (a hung or dead worker cannot send it) and save it."""
    mutated = build_input(case, corpus.pages)
    record = {
        "detail": mutated.detail, "page": corpus.labels[case.page], "seconds": round(outcome.seconds, 4),
        "cpu": round(outcome.cpu, 4), "note": outcome.note,
    }  # fmt: skip
    path = findings.save(case, kind, mutated.input, record)
    first_line = outcome.note.strip().splitlines()[-1] if outcome.note.strip() else ""
    times = f"{outcome.cpu:.2f} s CPU, {outcome.seconds:.2f} s wall"
    return f"{kind}: {_display_path(path)} ({times}; {first_line[:120]})"


class _Recorder:
    """Where a run's outcomes go: the tally, ``inputs.jsonl``, the findings, the progress lines."""

    def __init__(self, settings: RunSettings, corpus: Corpus, inputs: TextIO, log: TextIO) -> None:
        self.settings, self.corpus, self.inputs, self.log = settings, corpus, inputs, log
        self.findings, self.tally = Findings(settings.out), Tally(settings.limits.slow)
        self.started = self.last_progress = time.monotonic()

    def add(self, task: Task, outcome: Outcome) -> None:
        """Count, log and (for a finding) save one input's outcome."""
        if outcome.status == "error":
            raise RuntimeError(f"the fuzzer failed to build input {task.case}:\n{outcome.note}")
        case, corpus = task.case, self.corpus
        if not outcome.detail:
            # A worker that hung or died sent nothing: what its input was comes from building it again.
            mutated = build_input(case, corpus.pages)
            outcome = replace(outcome, detail=mutated.detail, size=len(mutated.input.body))
        self.tally.add(case, outcome, _describe(case, outcome, corpus))
        _log_input(self.inputs, case, outcome, corpus)
        kind = _finding_kind(outcome, self.settings.limits.slow)
        if kind:
            self.tally.findings.append(_save_finding(case, kind, outcome, corpus, self.findings))
        if self.settings.progress and time.monotonic() - self.last_progress > 30:
            self.last_progress = time.monotonic()
            _progress(self.log, self.tally, self.settings.inputs, self.last_progress - self.started)


def run(
    settings: RunSettings, corpus: Corpus, targets: Mapping[str, Target] = TARGETS, log: TextIO = sys.stderr,
    warm: Callable[[], None] | None = warm_up,
) -> Report:  # fmt: skip
    """Fuzz the targets with `settings.inputs` inputs; save findings; return the figures.

    `warm` prepares a new worker before its first input (None for targets that need nothing). A worker
    that cannot start ends the run early: the report then covers the inputs run so far and says why.
    """
    from extraction import BUILD

    settings.out.mkdir(parents=True, exist_ok=True)
    names = list(targets)
    cases = (make_case(settings.seed, index, names, len(corpus.pages)) for index in range(settings.inputs))
    setup = WorkerSetup(corpus.pages, targets, settings.limits.memory_mb, warm)
    started, startup, restarts, stopped = time.monotonic(), 0.0, 0, ""
    with _open_inputs_log(settings.out) as inputs:
        recorder = _Recorder(settings, corpus, inputs, log)
        try:
            with Pool(settings.workers, setup, settings.limits.time_cap) as pool:
                startup = time.monotonic() - started
                try:
                    for task, outcome in pool.map(Task(case) for case in cases):
                        recorder.add(task, outcome)
                finally:
                    restarts = pool.restarts
        except WorkerStartError as error:
            stopped = str(error)
    report = Report(
        recorder.tally, time.monotonic() - started, settings.seed, settings.workers, restarts,
        corpus.describe(), BUILD, startup, stopped,
    )  # fmt: skip
    (settings.out / "summary.json").write_text(json.dumps(report.to_dict(), indent=1) + "\n", "utf-8")
    return report


def _open_inputs_log(folder: Path) -> TextIO:
    return (folder / "inputs.jsonl").open("w", encoding="utf-8")


def _log_input(log: TextIO, case: Case, outcome: Outcome, corpus: Corpus) -> None:
    """One line of ``inputs.jsonl``: every input's target, mutation, size, seconds and outcome."""
    note = outcome.note.strip().splitlines()[-1] if outcome.note.strip() else ""
    line = {
        "index": case.index, "target": case.target, "mutation": case.mutation,
        "page": corpus.labels[case.page], "size": outcome.size, "seconds": round(outcome.seconds, 5),
        "cpu": round(outcome.cpu, 5), "status": outcome.status, "note": note[:200],
    }  # fmt: skip
    log.write(json.dumps(line, ensure_ascii=False) + "\n")


def _progress(log: TextIO, tally: Tally, planned: int, elapsed: float) -> None:
    total = tally.total
    print(
        f"{total.inputs:,}/{planned:,} inputs, {total.inputs / elapsed:.0f}/s, {total.crashes} crashes, "
        f"{total.hangs} hangs, {total.slow} slow, worst {total.worst:.2f} s",
        file=log,
        flush=True,
    )


def replay(
    path: Path, limits: Limits = Limits(), targets: Mapping[str, Target] = TARGETS, target: str | None = None,
    warm: Callable[[], None] | None = warm_up,
) -> tuple[dict[str, Any], Outcome]:  # fmt: skip
    """Run a saved input again, in a worker under the same caps; its log line and the outcome."""
    data, record = read_finding(path)
    name = target or record.get("target") or "extract"
    case = Case(int(record.get("seed", 0)), int(record.get("index", 0)), name, record.get("mutation", "?"), 0)
    task = Task(case, data, record.get("url") or case.url)
    with Pool(1, WorkerSetup((), targets, limits.memory_mb, warm), limits.time_cap) as pool:
        return record, pool.run_one(task)


def failure_signature(outcome: Outcome) -> str:
    """What identifies a crash across inputs: the exception's type and the innermost frame it came from."""
    if outcome.status != "crash":
        return outcome.status
    lines = outcome.note.strip().splitlines()
    frames = [line.strip() for line in lines if line.strip().startswith("File ")]
    exception = lines[-1].split(":", 1)[0] if lines else ""
    return f"{exception} at {frames[-1] if frames else '?'}"


def shrink(
    path: Path, limits: Limits, targets: Mapping[str, Target] = TARGETS, trials: int = 2000,
    seconds: float = 900.0, log: TextIO = sys.stderr, warm: Callable[[], None] | None = warm_up,
) -> Path:  # fmt: skip
    """Delete byte ranges from a saved input while it still fails the same way; save the smallest.

    A crash must keep its signature (`failure_signature`); a hang or a slow input must stay slower than
    `limits.slow`. Chunks halve from half the input down to single bytes, within `trials` runs and
    `seconds`.
    """
    data, record = read_finding(path)
    name = record.get("target") or "extract"
    case = Case(int(record.get("seed", 0)), int(record.get("index", 0)), name, record.get("mutation", "?"), 0)
    url = record.get("url") or case.url
    with Pool(1, WorkerSetup((), targets, limits.memory_mb, warm), limits.time_cap) as pool:
        wanted = pool.run_one(Task(case, data, url))
        signature = failure_signature(wanted)

        def fails(body: bytes) -> bool:
            outcome = pool.run_one(Task(case, replace(data, body=body), url))
            if signature in ("hang", "ok"):
                return outcome.status == "hang" or outcome.cpu > limits.slow
            return failure_signature(outcome) == signature

        print(f"shrinking {len(data.body):,} bytes, {signature}", file=log)
        body = _ddmin(data.body, fails, trials, time.monotonic() + seconds)
    name = path.name.split(".", 1)[0] + ".min.html"
    kind = f"{record.get('kind', signature)}, shrunk"
    shrunk = {**record, "shrunk_from": path.name}
    out = Findings(path.parent).save(case, kind, replace(data, body=body), shrunk, url, name)
    print(f"{len(data.body):,} -> {len(body):,} bytes: {_display_path(out)}", file=log)
    return out


def _ddmin(body: bytes, fails: Callable[[bytes], bool], trials: int, deadline: float) -> bytes:
    """The smallest `body` found by deleting ever smaller chunks while `fails` stays true."""
    chunk = max(1, len(body) // 2)
    while trials > 0 and time.monotonic() < deadline:
        start = 0
        while start < len(body) and trials > 0 and time.monotonic() < deadline:
            candidate = body[:start] + body[start + chunk :]
            trials -= 1
            if candidate and fails(candidate):
                body = candidate
            else:
                start += chunk
        if chunk == 1:
            break
        chunk = max(1, chunk // 2)
    return body


# --- Command line ---------------------------------------------------------------------------------------


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fuzz", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run", help="fuzz both targets with mutated pages")
    run_parser.add_argument("--inputs", type=int, default=100_000, help="inputs in all (both targets)")
    run_parser.add_argument("--seed", type=int, default=0)
    run_parser.add_argument("--workers", type=int, default=default_workers())
    run_parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the findings directory")
    add_shared_option(run_parser, "datasets/aeb, datasets/wcxb-dev")
    for command in (run_parser, *(commands.add_parser(name) for name in ("replay", "shrink"))):
        command.add_argument("--time-cap", type=float, default=5.0, help="seconds per input")
        command.add_argument("--memory-mb", type=int, default=2048, help="address space per worker")
        command.add_argument("--slow", type=float, default=1.0, help="seconds that make an input slow")
        if command is not run_parser:
            command.add_argument("file", type=Path, help="a saved finding")
    commands.choices["replay"].add_argument("--target", choices=sorted(TARGETS), help="override the target")
    commands.choices["shrink"].add_argument("--trials", type=int, default=2000)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run one command; 1 when a run found crashes or hangs or a replay still fails, 2 when a run stopped
    early."""
    options = _arguments(argv)
    limits = Limits(options.time_cap, options.memory_mb, options.slow)
    if options.command == "replay":
        return _replay_command(options, limits)
    if options.command == "shrink":
        shrink(options.file, limits, trials=options.trials)
        return 0
    corpus = find_corpus(options.shared.resolve())
    if corpus.missing:
        fixtures_only = corpus.labels[0].startswith("fixtures/")
        note = "the fixtures of tests/fixtures only" if fixtures_only else "the rest"
        print(
            "SKIPPED: shared data set not found at " + ", ".join(corpus.missing)
            + f" (set CLEANCRAWL_SHARED); fuzzing {note}",
            file=sys.stderr,
        )  # fmt: skip
    settings = RunSettings(options.inputs, options.seed, options.workers, limits, options.out, progress=True)
    report = run(settings, corpus)
    print("\n".join(report.lines()))
    if report.stopped:
        return 2
    return 1 if report.crashes or report.hangs else 0


def _replay_command(options: argparse.Namespace, limits: Limits) -> int:
    record, outcome = replay(options.file, limits, target=options.target)
    kind, target = record.get("kind", "?"), record.get("target", "?")
    print(f"{options.file}: {kind} of {target}, {record.get('detail', '')}")
    times = f"{outcome.cpu:.3f} s CPU, {outcome.seconds:.3f} s wall"
    print(f"now: {outcome.status} in {times} ({outcome.size:,} bytes)")
    print(outcome.note)
    failing = outcome.status != "ok" or outcome.cpu > limits.slow
    return 1 if failing else 0


if __name__ == "__main__":
    # Through the module's own name: workers unpickle targets and tasks as `benchmarks.fuzz.X`, which a
    # forked worker has, not as `__main__.X`.
    from benchmarks.fuzz import main as module_main

    sys.exit(module_main())
