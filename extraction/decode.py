"""Turn the bytes of a response into text: BOM, HTTP hint, `<meta>` charset, then safe fallbacks."""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Decoded:
    """A page as text: the text, the encoding it was read in, and how many U+FFFD replacement characters
    the decode put in for bytes invalid in that encoding (a page's own U+FFFD are not counted)."""

    text: str
    encoding: str
    replacements: int = 0


@dataclass(frozen=True, slots=True)
class ParserInput:
    """What the parser reads (UTF-8 bytes, or text), with the page's encoding and replacement count."""

    document: str | bytes
    encoding: str
    replacements: int = 0


def decode_html(data: bytes | str, encoding_hint: str | None = None) -> tuple[str, str]:
    """Return `(text, encoding)` of a page; never raises on undecodable bytes, only on non-text."""
    decoded = decode_page(data, encoding_hint)
    return decoded.text, decoded.encoding


def decode_page(data: bytes | str, encoding_hint: str | None = None) -> Decoded:
    """`decode_html` with the count of replaced bytes."""
    if isinstance(data, str):
        decoded = Decoded(_without_surrogates(data), "unicode")
    else:
        decoded = _decode_bytes(data, encoding_hint)
    if not decoded.text.strip():
        raise EmptyDocumentError("the document is empty")
    text = _XML_DECLARATION.sub("", decoded.text, count=1)
    return Decoded(text, decoded.encoding, decoded.replacements)


def parser_input(data: bytes | str, encoding_hint: str | None = None) -> ParserInput:
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
            return ParserInput(data.encode("utf-8"), "unicode")
        except UnicodeEncodeError:
            return ParserInput(_SURROGATE.sub("\ufffd", data).encode("utf-8"), "unicode")
    decoded = decode_page(data, encoding_hint)
    if decoded.encoding == "utf-8" and not decoded.replacements and not data.startswith(codecs.BOM_UTF8):
        return ParserInput(data, decoded.encoding)
    return ParserInput(decoded.text, decoded.encoding, decoded.replacements)


def _decode_bytes(data: bytes, encoding_hint: str | None) -> Decoded:
    if not data.strip():
        raise EmptyDocumentError("the document is empty")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _decode_replacing(data[len(bom) :], encoding)
    _reject_signature(data)
    hint = _normalise(encoding_hint)
    if hint in _WIDE_ENCODINGS and b"\x00" in data[:_SNIFF_BYTES]:
        # UTF-16/32 without a BOM: only the HTTP header can name it, and its NUL bytes would otherwise
        # make the control-byte check below reject a readable page as binary.
        return _decode_replacing(data, hint)
    _reject_control_bytes(data)
    declared = [label for label in (hint, _normalise(_meta_charset(data))) if label]
    # Valid multi-byte UTF-8 almost never happens by accident, so it beats a wrong declaration.
    if not data.isascii():
        utf8 = _decode_replacing(data, "utf-8")
        utf8_declared = not declared or declared[0] == "utf-8"
        if not utf8.replacements or (utf8_declared and _mostly_valid(utf8)):
            return utf8
    for candidate in declared:
        # These bytes passed the NUL check, so a UTF-16/32 declaration is wrong (WHATWG ignores it too).
        if candidate != "utf-8" and candidate not in _WIDE_ENCODINGS:
            try:
                return Decoded(data.decode(candidate), candidate)
            except (UnicodeError, LookupError):
                # LookupError: a bytes-to-bytes codec (hex, rot13, base64) is not a text encoding.
                continue
    return _decode_replacing(data, "utf-8" if data.isascii() else _FALLBACK)


def _decode_replacing(data: bytes, encoding: str) -> Decoded:
    """Decode as browsers do, each invalid byte sequence a U+FFFD, and count those replacements."""
    text = data.decode(encoding, errors="replace")
    if "\ufffd" not in text:
        return Decoded(text, encoding)
    # The page's own U+FFFD survive a decode that drops the invalid bytes; only the rest were put in.
    own = data.decode(encoding, errors="ignore").count("\ufffd")
    return Decoded(text, encoding, text.count("\ufffd") - own)


def _mostly_valid(decoded: Decoded) -> bool:
    """True when the decode replaced fewer byte sequences than it read valid non-ASCII characters: a UTF-8
    page with a few bad bytes (a browser shows it as UTF-8), not a legacy page mislabelled UTF-8."""
    non_ascii = len(decoded.text) - len(decoded.text.encode("ascii", errors="ignore"))
    return decoded.replacements < non_ascii - decoded.replacements


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
