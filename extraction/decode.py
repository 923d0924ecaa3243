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


def decode_html(data: bytes | str, encoding_hint: str | None = None) -> tuple[str, str]:
    """Return `(text, encoding)` of a page; never raises on undecodable bytes, only on non-text."""
    if isinstance(data, str):
        text, encoding = data, "unicode"
    else:
        text, encoding = _decode_bytes(data, encoding_hint)
    if not text.strip():
        raise EmptyDocumentError("the document is empty")
    return _XML_DECLARATION.sub("", text, count=1), encoding


def _decode_bytes(data: bytes, encoding_hint: str | None) -> tuple[str, str]:
    if not data.strip():
        raise EmptyDocumentError("the document is empty")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom) :].decode(encoding, errors="replace"), encoding
    _reject_binary(data)
    # Valid multi-byte UTF-8 almost never happens by accident, so it beats a wrong declaration.
    if not data.isascii():
        try:
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            pass
    for candidate in (encoding_hint, _meta_charset(data)):
        encoding = _normalise(candidate)
        if encoding and encoding != "utf-8":
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError:
                continue
    encoding = "utf-8" if data.isascii() else _FALLBACK
    return data.decode(encoding, errors="replace"), encoding


def _reject_binary(data: bytes) -> None:
    head = data[:_SNIFF_BYTES]
    if head.lstrip().startswith(_BINARY_SIGNATURES):
        raise NotHTMLError("the document starts with the signature of a binary format")
    control = sum(head.count(bytes((code,))) for code in (*range(0, 9), 11, 14, 15, *range(16, 27), 28, 29))
    if control > len(head) // 20:
        raise NotHTMLError(f"the document looks binary ({control} control bytes in its first {len(head)})")


def _meta_charset(data: bytes) -> str | None:
    match = _META_CHARSET.search(data[:_SNIFF_BYTES])
    return match.group(1).decode("ascii", errors="ignore") if match else None


def _normalise(label: str | None) -> str | None:
    if not label:
        return None
    try:
        name = codecs.lookup(label.strip().lower()).name
    except LookupError:
        return None
    return _FALLBACK if name in _WINDOWS_1252_ALIASES else name
