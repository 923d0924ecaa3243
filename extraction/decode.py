"""Turn the bytes of a response into text: BOM, HTTP hint, `<meta>` charset, then safe fallbacks."""

from __future__ import annotations

import codecs
import re

from extraction.errors import EmptyDocumentError, NotHTMLError

_SNIFF_BYTES = 4096
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_.:-]+)""", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_BINARY_SIGNATURES = (
    b"\x89PNG",
    b"GIF87a",
    b"GIF89a",
    b"\xff\xd8\xff",
    b"%PDF",
    b"PK\x03\x04",
    b"\x1f\x8b",
    b"BZh",
    b"\xfd7zXZ",
    b"7z\xbc\xaf",
    b"RIFF",
    b"OggS",
    b"ID3",
    b"\x00\x00\x01\x00",
    b"wOFF",
    b"wOF2",
    b"\x7fELF",
    b"MZ",
)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# WHATWG maps these labels to windows-1252, a superset that decodes the bytes 0x80-0x9f too.
_WINDOWS_1252_ALIASES = frozenset({"latin-1", "iso8859-1", "ascii", "iso-8859-1", "us-ascii"})
_FALLBACK = "cp1252"
# Python codecs that no page is written in: a declaration naming one is wrong, and decoding with it would
# garble the text (unicode-escape turns a literal "\x41" into "A", utf-7 decodes "+...-" runs) or fail with
# an error other than UnicodeDecodeError. WHATWG does not support any of them either.
_NOT_PAGE_ENCODINGS = frozenset(
    {"undefined", "unicode-escape", "raw-unicode-escape", "idna", "punycode", "utf-7"}
)
# Encodings in which ASCII markup is full of NUL bytes: bytes that look ASCII-compatible are never in one.
_WIDE_ENCODINGS = frozenset({"utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"})
# lxml stops parsing at a lone surrogate in a str (one left by a `surrogateescape` decode) and silently
# drops the rest of the page.
_SURROGATE = re.compile("[\ud800-\udfff]")


def decode_html(data: bytes | str, encoding_hint: str | None = None) -> tuple[str, str]:
    """Return `(text, encoding)` of a page; never raises on undecodable bytes, only on non-text."""
    if isinstance(data, str):
        text, encoding = _without_surrogates(data), "unicode"
    else:
        text, encoding = _decode_bytes(data, encoding_hint)
    if not text.strip():
        raise EmptyDocumentError("the document is empty")
    return _XML_DECLARATION.sub("", text, count=1), encoding


def parser_input(data: bytes | str, encoding_hint: str | None = None) -> tuple[str | bytes, str]:
    """The page as the parser should read it, with its encoding: UTF-8 bytes whenever possible.

    libxml2 reads UTF-8 bytes faster than a Python str, and an explicit UTF-8 encoding overrides whatever
    the page declares. Text given as str is encoded once (a lone surrogate, which would make lxml drop
    the rest of the page, becomes U+FFFD); bytes that are valid UTF-8 go through as they are; anything else
    is decoded to text here.
    """
    if isinstance(data, str):
        # Not `data.strip()`, which copies the whole page whenever it ends in a newline.
        if not data or data.isspace():
            raise EmptyDocumentError("the document is empty")
        try:
            return data.encode("utf-8"), "unicode"
        except UnicodeEncodeError:
            return _SURROGATE.sub("\ufffd", data).encode("utf-8"), "unicode"
    text, encoding = decode_html(data, encoding_hint)
    if encoding == "utf-8" and not data.startswith(codecs.BOM_UTF8):
        return data, encoding
    return text, encoding


def _decode_bytes(data: bytes, encoding_hint: str | None) -> tuple[str, str]:
    if not data.strip():
        raise EmptyDocumentError("the document is empty")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace"), encoding
    _reject_signature(data)
    hint = _normalise(encoding_hint)
    if hint in _WIDE_ENCODINGS and b"\x00" in data[:_SNIFF_BYTES]:
        # UTF-16/32 without a BOM: only the HTTP header can name it, and its NUL bytes would otherwise
        # make the control-byte check below reject a readable page as binary.
        return data.decode(hint, errors="replace"), hint
    _reject_control_bytes(data)
    # Valid multi-byte UTF-8 almost never happens by accident, so it beats a wrong declaration.
    if not data.isascii():
        try:
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            pass
    for candidate in (hint, _normalise(_meta_charset(data))):
        # These bytes passed the NUL check, so a UTF-16/32 declaration is wrong (WHATWG ignores it too).
        if candidate and candidate != "utf-8" and candidate not in _WIDE_ENCODINGS:
            try:
                return data.decode(candidate), candidate
            except (UnicodeError, LookupError):
                # LookupError: a bytes-to-bytes codec (hex, rot13, base64) is not a text encoding.
                continue
    encoding = "utf-8" if data.isascii() else _FALLBACK
    return data.decode(encoding, errors="replace"), encoding


def _reject_signature(data: bytes) -> None:
    if data[:_SNIFF_BYTES].lstrip().startswith(_BINARY_SIGNATURES):
        raise NotHTMLError("the document starts with the signature of a binary format")


def _reject_control_bytes(data: bytes) -> None:
    head = data[:_SNIFF_BYTES]
    control = sum(head.count(bytes((code,))) for code in (*range(0, 9), 11, 14, 15, *range(16, 27), 28, 29))
    if control > len(head) // 20:
        raise NotHTMLError(f"the document looks binary ({control} control bytes in its first {len(head)})")


def _without_surrogates(text: str) -> str:
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def _meta_charset(data: bytes) -> str | None:
    match = _META_CHARSET.search(data[:_SNIFF_BYTES])
    return match.group(1).decode("ascii", errors="ignore") if match else None


def _normalise(label: str | None) -> str | None:
    if not label:
        return None
    try:
        name = codecs.lookup(label.strip().lower()).name
    except (LookupError, ValueError):
        # ValueError: a label with a NUL byte (a garbled Content-Type header).
        return None
    if name in _NOT_PAGE_ENCODINGS:
        return None
    return _FALLBACK if name in _WINDOWS_1252_ALIASES else name
