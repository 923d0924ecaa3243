"""The CSS cascade EVBE reads: the page's own sheets and inline styles, specificity, bounds."""

from __future__ import annotations

from lxml import etree

from extraction.config import ExtractionConfig
from extraction.methods.css import Style, compile_sheets, computed_styles, page_stylesheets
from extraction.methods.evbe import EvbeParams
from extraction.prepare import prepare

CONFIG = ExtractionConfig()
PARAMS = EvbeParams()


def styles(html: str, params: EvbeParams = PARAMS) -> dict[str, Style]:
    """The computed style of each element with an id, by id."""
    prepared = prepare(html, None, CONFIG)
    assert prepared.body is not None
    sheets = compile_sheets(page_stylesheets(html, None, params), prepared.body, params)
    computed = computed_styles(prepared.body, sheets, params)
    return {element.get("id", ""): style for element, style in computed.items() if element.get("id")}


def element_ids(body: etree._Element) -> list[str]:
    return [element.get("id", "") for element in body.iter() if element.get("id")]


def test_sheets_are_read_before_cleaning_and_cascade_by_specificity() -> None:
    html = """<html><head><style>
    div { float: left; background: #eee }  #b { float: right !important }  .x { float: none }
    @media print { #a { display: none } }  @media (min-width: 2000px) { #a { display: none } }
    @media screen and (min-width: 600px) { #a { width: 50% } }
    </style></head><body><div id="a" class="x">a</div><div id="b" style="float: left">b</div></body></html>"""
    got = styles(html)
    assert (got["a"].floating, got["a"].background, got["a"].width) == ("none", "#eee", 512.0)
    assert not got["a"].hidden
    # !important in a sheet beats a normal inline declaration.
    assert got["b"].floating == "right"


def test_shorthands_and_units() -> None:
    html = """<html><body style="font-size: 20px"><div id="box" style="border: 2px solid red;
    border-left-style: none; background: url(x.png) no-repeat #FFF; width: 10em; height: 3pt"><p id="p"
    style="font-size: 150%; border-width: 1px; border-style: dashed">x</p></div><span id="s">s</span>
    </body></html>"""
    got = styles(html)
    assert got["box"].borders == (2.0, 2.0, 2.0, 0.0)
    assert got["box"].background == "#fff" and not got["box"].coloured
    assert (got["box"].width, got["box"].height) == (200.0, 4.0)
    assert got["p"].font_size == 30.0 and got["p"].borders == (1.0, 1.0, 1.0, 1.0)
    assert got["p"].painted == "#fff" and got["p"].width == 200.0
    assert got["s"].is_inline and got["s"].width is None


def test_a_float_is_a_block_and_hidden_elements_are_marked() -> None:
    html = """<html><head><style>.gone { visibility: hidden }</style></head><body>
    <span id="f" style="float: left">f</span><p id="g" class="gone">g</p></body></html>"""
    got = styles(html)
    assert not got["f"].is_inline and got["g"].hidden


def test_selectors_naming_absent_classes_are_never_compiled() -> None:
    rules = "".join(f".absent{n} p {{ width: {n}px }}\n" for n in range(3000))
    body = "<body><p id='p' class='here'>x</p></body>"
    html = f"<html><head><style>{rules}.here {{ width: 10px }}</style></head>{body}</html>"
    prepared = prepare(html, None, CONFIG)
    assert prepared.body is not None
    assert compile_sheets(page_stylesheets(html, None, PARAMS), prepared.body, PARAMS).rules == 1
    assert styles(html)["p"].width == 10.0


def test_bounds_on_sheet_size_and_rule_count() -> None:
    rules = "".join(f"p {{ width: {n}px }}\n" for n in range(1, 2001))
    html = f"<html><head><style>{rules}</style></head><body><p id='p'>x</p></body></html>"
    assert styles(html)["p"].width == 2000.0
    assert styles(html, EvbeParams(max_css_rules=10))["p"].width == 10.0
    # 40 characters: two whole rules and the start of a third.
    assert styles(html, EvbeParams(max_stylesheet_chars=40))["p"].width == 2.0


def test_invalid_css_is_ignored() -> None:
    html = """<html><head><style>p[ { width: 1px } ##x { color: red } p { width: 5px; width: bogus }
    @font-face { font-family: x } </style></head><body><p id="p">x</p></body></html>"""
    assert styles(html)["p"].width is not None
