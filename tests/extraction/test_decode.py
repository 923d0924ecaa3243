"""decode_html: BOM, HTTP hint, <meta> charset, the UTF-8 check, the cp1252 fallback and the refusals."""

from __future__ import annotations

import codecs
import gzip

import pytest

from extraction.decode import decode_html, decode_page
from extraction.errors import EmptyDocumentError, NotHTMLError
from tests.extraction.pages import NEWS, fixture_bytes, fixture_text

RUSSIAN = "Привет, мир: это проверка кодировки."
JAPANESE = "こんにちは、世界。文字コードの確認です。"


def page(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body><p>{body}</p></body></html>"


def test_real_utf8_page_decodes_unchanged() -> None:
    text, encoding = decode_html(fixture_bytes(NEWS))
    assert encoding == "utf-8"
    assert text == fixture_text(NEWS)
    assert "“Our third quarter results" in text


@pytest.mark.parametrize(
    ("bom", "codec", "expected"),
    [
        (codecs.BOM_UTF8, "utf-8", "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16-be"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32-le"),
    ],
)
def test_bom_decides_the_encoding_and_is_removed(bom: bytes, codec: str, expected: str) -> None:
    html = page(RUSSIAN, '<meta charset="iso-8859-1">')
    text, encoding = decode_html(bom + html.encode(codec), encoding_hint="windows-1251")
    assert encoding == expected
    assert text == html  # no U+FEFF left at the start, and neither the hint nor the meta was used


@pytest.mark.parametrize(
    ("codec", "hint"),
    [
        pytest.param("koi8-r", "KOI8-R", id="a legacy page"),
        # UTF-16 without a BOM is read only when the HTTP header names it.
        pytest.param("utf-16-le", "UTF-16LE", id="utf-16 without a bom"),
    ],
)
def test_http_hint_decodes_a_page_in_its_encoding(codec: str, hint: str) -> None:
    text, encoding = decode_html(page(RUSSIAN).encode(codec), encoding_hint=hint)
    assert encoding == codec
    assert RUSSIAN in text


def test_http_hint_wins_over_meta_charset() -> None:
    data = page(RUSSIAN, '<meta charset="koi8-r">').encode("cp1251")
    text, encoding = decode_html(data, encoding_hint="windows-1251")
    assert encoding == "cp1251"
    assert RUSSIAN in text


def test_meta_charset_is_used_without_a_hint() -> None:
    head = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
    text, encoding = decode_html(page(JAPANESE, head).encode("shift_jis"))
    assert encoding == "shift_jis"
    assert JAPANESE in text


def test_latin1_label_means_windows_1252() -> None:
    # WHATWG: iso-8859-1 is windows-1252, so 0x80 is the euro sign and 0x93/0x94 are curly quotes.
    data = page("\u201cPrix : 5 \u20ac\u201d, caf\u00e9").encode("cp1252")
    text, encoding = decode_html(data, encoding_hint="ISO-8859-1")
    assert encoding == "cp1252"
    assert "\u201cPrix : 5 \u20ac\u201d, caf\u00e9" in text


def test_valid_utf8_beats_a_wrong_declaration() -> None:
    data = fixture_text(NEWS).replace('charset="UTF-8"', 'charset="iso-8859-1"').encode("utf-8")
    assert b'charset="iso-8859-1"' in data
    text, encoding = decode_html(data, encoding_hint="windows-1252")
    assert encoding == "utf-8"
    assert "“Our third quarter results" in text
    assert "â€œ" not in text  # the mojibake a cp1252 decode would give


def test_latin1_bytes_declared_utf8_fall_back_to_cp1252() -> None:
    data = fixture_text(NEWS).encode("cp1252", errors="replace")
    assert b'charset="UTF-8"' in data
    text, encoding = decode_html(data, encoding_hint="utf-8")
    assert encoding == "cp1252"
    assert "“Our third quarter results" in text


@pytest.mark.parametrize(("hint", "head"), [("utf-8", ""), (None, '<meta charset="utf-8">'), (None, "")])
def test_utf8_page_with_one_invalid_byte_stays_utf8(hint: str | None, head: str) -> None:
    # Issue 15 row 2: one bad byte made the whole page cp1252 ("CafÃ©"); browsers replace the byte alone.
    data = page("Caf\u00e9 cr\u00e8me, na\u00efve \u2014 bad \xff byte", head).encode("utf-8")
    data = data.replace(b"\xc3\xbf", b"\xff")
    decoded = decode_page(data, encoding_hint=hint)
    assert decoded.encoding == "utf-8"
    assert "Caf\u00e9 cr\u00e8me, na\u00efve \u2014 bad \ufffd byte" in decoded.text
    assert decoded.replacements == 1


def test_a_pages_own_replacement_characters_are_not_counted() -> None:
    data = page("caf\u00e9 \ufffd and \ufffd, then \xff").encode("utf-8").replace(b"\xc3\xbf", b"\xff\xfe")
    decoded = decode_page(data, encoding_hint="utf-8")
    assert decoded.encoding == "utf-8"
    assert decoded.text.count("\ufffd") == 4
    assert decoded.replacements == 2


def test_valid_page_counts_no_replacement() -> None:
    assert decode_page(fixture_bytes(NEWS)).replacements == 0
    assert decode_page(page("caf\u00e9").encode("cp1252"), encoding_hint="cp1252").replacements == 0


def test_bytes_invalid_in_every_charset_never_raise() -> None:
    # 0x81, 0x8d, 0x8f, 0x90 and 0x9d are undefined in windows-1252 and invalid as UTF-8.
    data = page("before \x81\x8d\x8f\x90\x9d after").encode("latin-1")
    decoded = decode_page(data, encoding_hint="utf-8")
    assert decoded.encoding == "cp1252"
    assert "before \ufffd\ufffd\ufffd\ufffd\ufffd after" in decoded.text
    assert decoded.replacements == 5


@pytest.mark.parametrize(
    "hint", ["x-bogus", "bad\x00label", "rot13", "hex", "base64", "zlib", "undefined", ""]
)
def test_unusable_hints_are_ignored(hint: str) -> None:
    data = page("caf\u00e9 cr\u00e8me").encode("cp1252")
    text, encoding = decode_html(data, encoding_hint=hint)
    assert encoding == "cp1252"
    assert "caf\u00e9 cr\u00e8me" in text


@pytest.mark.parametrize("label", ["unicode_escape", "raw_unicode_escape", "utf-7"])
def test_python_only_codecs_are_not_page_encodings(label: str) -> None:
    # Decoding with these would turn the literal text "\x41 +AGEA-" into something else.
    data = page("path C:\\x41 and a+b +AGEA- caf\u00e9").encode("cp1252")
    text, _ = decode_html(data, encoding_hint=label)
    assert "path C:\\x41 and a+b +AGEA- caf\u00e9" in text
    meta_text, _ = decode_html(page("caf\u00e9 C:\\x41", f'<meta charset="{label}">').encode("cp1252"))
    assert "caf\u00e9 C:\\x41" in meta_text


def test_utf16_without_bom_or_hint_is_refused_as_binary() -> None:
    with pytest.raises(NotHTMLError):
        decode_html(page(RUSSIAN).encode("utf-16-le"))


@pytest.mark.parametrize("where", ["meta", "hint"])
def test_utf16_declared_on_ascii_compatible_bytes_is_ignored(where: str) -> None:
    head = '<meta charset="utf-16">' if where == "meta" else ""
    data = page("caf\u00e9 au lait!", head).encode("cp1252")
    for extra in (b"", b" "):  # an even and an odd byte count: UTF-16 would decode one of them
        text, encoding = decode_html(data + extra, encoding_hint="utf-16" if where == "hint" else None)
        assert encoding == "cp1252"
        assert "<p>caf\u00e9 au lait!</p>" in text


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10",
        b"GIF89a\x10\x00\x10\x00\x80\x00\x00",
        b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj",
        b"PK\x03\x04\x14\x00\x06\x00",
        b"\x7fELF\x02\x01\x01\x00",
        b"  \n\x89PNG\r\n\x1a\n",  # leading whitespace does not hide a signature
    ],
    ids=["png", "gif", "jpeg", "pdf", "zip", "elf", "png-after-whitespace"],
)
def test_binary_signatures_raise_not_html(data: bytes) -> None:
    with pytest.raises(NotHTMLError, match="signature"):
        decode_html(data, encoding_hint="utf-8")


def test_gzip_body_of_a_real_page_raises_not_html() -> None:
    # A response whose Content-Encoding was not undone: the bytes are the gzip of the page.
    with pytest.raises(NotHTMLError):
        decode_html(gzip.compress(fixture_bytes(NEWS)))


def test_control_bytes_raise_not_html() -> None:
    data = bytes(range(256)) * 8
    with pytest.raises(NotHTMLError, match="control bytes"):
        decode_html(data)


def test_a_few_stray_control_bytes_are_tolerated() -> None:
    data = fixture_bytes(NEWS).replace(b"Home Depot reported", b"Home Depot\x01\x02 reported", 1)
    text, encoding = decode_html(data)
    assert encoding == "utf-8"
    assert "Home Depot\x01\x02 reported" in text


@pytest.mark.parametrize(
    "data", [b"", "", b"   \r\n\t", " \n ", codecs.BOM_UTF8, codecs.BOM_UTF8 + b" \n", "\u3000\xa0"]
)
def test_empty_input_raises_empty_document(data: bytes | str) -> None:
    with pytest.raises(EmptyDocumentError):
        decode_html(data)


def test_str_input_is_returned_as_unicode() -> None:
    text, encoding = decode_html(fixture_text(NEWS), encoding_hint="koi8-r")
    assert (text, encoding) == (fixture_text(NEWS), "unicode")


@pytest.mark.parametrize(
    "declaration",
    ['<?xml version="1.0" encoding="utf-8"?>', "  \n<?XML version='1.0' encoding='ISO-8859-1' ?>"],
)
def test_xml_declaration_is_removed_from_str_input(declaration: str) -> None:
    text, _ = decode_html(declaration + "\n" + page("body text"))
    assert "<?xml" not in text.lower()
    assert "<p>body text</p>" in text


def test_lone_surrogates_in_str_input_become_replacement_characters() -> None:
    # What `bytes.decode(..., errors="surrogateescape")` leaves behind; lxml would stop parsing at it.
    text, _ = decode_html(page("caf\udce9 au lait"))
    assert "caf\ufffd au lait" in text
    text.encode("utf-8")  # no surrogate is left
