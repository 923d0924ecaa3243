"""`benchmarks.sites`: the main-content renderer, the catalogue, mirrors, and agreement with shared truth."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import html

from benchmarks.sites import (
    MainRule,
    Mirror,
    Recipe,
    TestSite,
    agreement,
    available,
    catalogue,
    derive,
    extract_mirror,
    main_text,
    mirror_git_dir,
    page_encoding,
    parse_page,
    render_text,
    url_path,
)

APACHE_RULE = MainRule(
    "div#page-content", "div.toplang, div.bottomlang, div#quickview, div.top, a.permalink, button"
)
PYTHON_DOCS = Path("/usr/share/doc/python3.11/html")

# The main content of tests/fixtures/docs_apache_mod_asis.html, one line per block, as the shared
# ground truth writes it: table cells on their own lines, <pre> and <br> lines kept.
MOD_ASIS_TEXT = """\
Apache Module mod_asis
Description:
Sends files that contain their own HTTP headers
Status:
Base
Module Identifier:
asis_module
Source File:
mod_asis.c
Summary
This module provides the handler send-as-is which causes Apache HTTP Server to send the document without \
adding most of the usual HTTP headers.
This can be used to send any kind of data from the server, including redirects and other special HTTP \
responses, without requiring a cgi-script or an nph script.
For historical reasons, this module will also process any file with the mime type httpd/send-as-is.
Usage
In the server configuration file, associate files with the send-as-is handler e.g.
AddHandler send-as-is asis
The contents of any file with a .asis extension will then be sent by Apache httpd to the client with almost \
no changes. In particular, HTTP headers are derived from the file itself according to mod_cgi rules, so an \
asis file must include valid headers, and may also use the CGI Status: header to determine the HTTP \
response code. The Content-Length: header will automatically be inserted or, if included, corrected by httpd.
Here's an example of a file whose contents are sent as is so as to tell the client that a file has redirected.
Status: 301 Now where did I leave that URL
Location: http://xyz.example.com/foo/bar.html
Content-type: text/html
<html>
<head>
<title>Lame excuses'R'us</title>
</head>
<body>
<h1>Fred's exceptionally wonderful page has moved to
<a href="http://xyz.example.com/foo/bar.html">Joe's</a> site.
</h1>
</body>
</html>
Notes:
The server always adds a Date: and Server: header to the data returned to the client, so these should not \
be included in the file. The server does not add a Last-Modified header; it probably should."""


def _fragment(markup: str) -> html.HtmlElement:
    return html.document_fromstring(f"<html><body>{markup}</body></html>")


# --- rendering -------------------------------------------------------------------------------------------


def test_the_apache_manual_page_renders_its_main_content_without_the_furniture(fixtures_dir: Path) -> None:
    document = parse_page(fixtures_dir / "docs_apache_mod_asis.html")
    text = main_text(document, APACHE_RULE)
    assert text == MOD_ASIS_TEXT
    for furniture in ("Available Languages", "Bugfix checklist", "¶", "Copyright", "Report a bug"):
        assert furniture not in text


def test_pre_keeps_its_lines_while_other_blocks_fold_their_whitespace() -> None:
    body = _fragment(
        "<div><p>one\n   paragraph  <b>bold</b>, <i>inline</i></p>"
        "<pre>def f():\n\n        return  1\n</pre><ul><li>a</li><li>b <a>link</a></li></ul></div>"
    )
    assert render_text(body.find("body")) == "one paragraph bold, inline\ndef f():\nreturn 1\na\nb link"


def test_address_is_inline_and_br_breaks_a_line() -> None:
    # The shared oemforum truth: a post's code lines in <address>, joined by <br>, are lines of one block.
    body = _fragment("<div><address>void f()<br>{</address><address>}</address> after</div>")
    assert render_text(body.find("body")) == "void f()\n{} after"


def test_hidden_elements_and_comments_give_no_text_but_keep_the_text_after_them() -> None:
    body = _fragment("<p>a<script>var x = 1;</script> b<!-- note --> c<style>p {}</style></p>")
    assert render_text(body.find("body")) == "a b c"


def test_a_container_nested_in_another_is_rendered_once() -> None:
    # oemforum: a reply quoting a post holds a div.content inside its own div.content.
    document = _fragment(
        '<div class="content"><p>Thanks!</p><div class="content"><blockquote>quoted</blockquote></div>'
        "<p>Are they the same?</p></div>"
    )
    assert main_text(document, MainRule("div.content")) == "Thanks!\nquoted\nAre they the same?"


def test_no_container_is_none_and_several_are_joined_in_document_order() -> None:
    document = _fragment('<h1 class="t">Title</h1><nav>menu</nav><div class="c"><p>Body</p></div>')
    assert main_text(document, MainRule("div.c, h1.t")) == "Title\nBody"
    assert main_text(document, MainRule("article")) is None


def test_the_encoding_is_the_declared_one_else_utf8_else_windows_1252() -> None:
    assert page_encoding(b'<meta charset="ISO-8859-1"><p>x</p>') == "iso8859-1"
    assert page_encoding("<p>caf\u00e9</p>".encode()) == "utf-8"
    assert page_encoding("<p>caf\u00e9</p>".encode("cp1252")) == "cp1252"


# --- ground truth of a site ------------------------------------------------------------------------------


def test_derive_keeps_content_pages_and_names_why_the_others_were_skipped(
    tmp_path: Path, fixtures_dir: Path
) -> None:
    shutil.copy(fixtures_dir / "docs_apache_mod_asis.html", tmp_path / "mod_asis.html")
    (tmp_path / "guide").mkdir()
    shutil.copy(fixtures_dir / "docs_apache_mod_asis.html", tmp_path / "guide" / "index.html")
    (tmp_path / "genindex.html").write_text('<div id="page-content">' + "word " * 100 + "</div>")
    (tmp_path / "landing.html").write_text('<div id="page-content"><p>Go to the guide.</p></div>')
    (tmp_path / "other.html").write_text("<p>A page of another template.</p>")
    derived = derive(tmp_path, Recipe(APACHE_RULE))
    assert [(r["file"], r["url_path"]) for r in derived.records] == [
        ("guide/index.html", "/guide/"),
        ("mod_asis.html", "/mod_asis.html"),
    ]
    assert derived.records[1]["title"] == "mod_asis - Apache HTTP Server Version 2.4"
    assert derived.records[1]["main_text"] == MOD_ASIS_TEXT
    assert derived.skipped == [
        ("genindex.html", "index page"),
        ("landing.html", "main content under 30 words"),
        ("other.html", "no main container"),
    ]


def test_url_path_answers_a_folder_index_at_the_folder() -> None:
    assert url_path(Path("c-api/index.html")) == "/c-api/"
    assert url_path(Path("index.html")) == "/"
    assert url_path(Path("mod/mod_asis.html")) == "/mod/mod_asis.html"


# --- the catalogue ---------------------------------------------------------------------------------------


def test_the_catalogue_knows_every_site_and_available_skips_those_not_on_this_machine(tmp_path: Path) -> None:
    shared, cache = tmp_path / "shared", tmp_path / "cache"
    sites = catalogue(shared, cache)
    names = [site.name for site in sites]
    assert names[:3] == ["whizzy", "python311", "oemforum"]
    assert len(names) == len(set(names)) >= 9
    assert all(site.start.startswith("/") for site in sites)
    # Nothing of the shared folder or the cache exists yet: no site is available, whatever is installed.
    assert available(sites) == []
    (shared / "sites" / "whizzy").mkdir(parents=True)
    (shared / "sites" / "ground_truth").mkdir()
    (shared / "sites" / "ground_truth" / "whizzy.jsonl").write_text("")
    (cache / "roots" / "helsingborg").mkdir(parents=True)  # unpacked, but its truth not built yet
    assert [site.name for site in available(catalogue(shared, cache))] == ["whizzy"]
    (cache / "truth").mkdir()
    (cache / "truth" / "helsingborg.jsonl").write_text("")
    assert [site.name for site in available(catalogue(shared, cache))] == ["whizzy", "helsingborg"]


def test_built_sites_write_their_truth_into_the_cache_and_shared_ones_stay_shared(tmp_path: Path) -> None:
    for site in catalogue(tmp_path / "shared", tmp_path / "cache"):
        assert isinstance(site, TestSite)
        assert site.recipe is not None
        expected = tmp_path / ("shared" if site.prebuilt else "cache")
        assert site.truth.is_relative_to(expected), site.name


# --- mirrors ---------------------------------------------------------------------------------------------


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_a_mirror_unpacks_its_site_folder_once_per_commit(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    work = tmp_path / "work"
    (work / "archive" / "site" / "news").mkdir(parents=True)
    (work / "archive" / "site" / "index.html").write_text("<p>home</p>")
    (work / "archive" / "site" / "news" / "index.html").write_text("<p>news</p>")
    (work / "README.md").write_text("not part of the site")
    _git("init", "-q", cwd=work)
    _git("add", ".", cwd=work)
    _git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "site", cwd=work)
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    _git("clone", "-q", "--bare", str(work), str(mirrors / "owner+name" / "repo"), cwd=tmp_path)

    git_dir = mirror_git_dir(mirrors, "owner/name")
    assert git_dir == mirrors / "owner+name" / "repo"
    assert mirror_git_dir(mirrors, "owner/absent") is None
    dest = tmp_path / "roots" / "site"
    commit = extract_mirror(Mirror("owner/name", "archive/site"), git_dir, dest)
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*.html")) == [
        "index.html",
        "news/index.html",
    ]
    assert not (dest / "README.md").exists()
    (dest / "index.html").write_text("changed")  # the same commit again is not unpacked again
    assert extract_mirror(Mirror("owner/name", "archive/site"), git_dir, dest) == commit
    assert (dest / "index.html").read_text() == "changed"


# --- agreement with the shared ground truth --------------------------------------------------------------


@pytest.mark.slow  # 530 pages parsed and rendered: ~5 s
def test_the_python_docs_rederived_agree_with_the_shared_ground_truth(shared_dir: Path) -> None:
    """The renderer reproduces python311.jsonl from the docs with the selector sites/README.md names."""
    if not (PYTHON_DOCS / "index.html").is_file():
        pytest.skip(f"{PYTHON_DOCS} missing (apt-get install python3.11-doc)")
    site = next(s for s in catalogue(shared_dir, shared_dir / "unused") if s.name == "python311")
    if not site.truth.is_file():
        pytest.skip(f"{site.truth} missing")
    shared_pages = sum(1 for _ in site.truth.open(encoding="utf-8"))
    result = agreement(site)
    assert result.pages == shared_pages
    assert result.found == result.pages
    assert result.identical == result.pages
    assert result.mean_f1 == pytest.approx(1.0)


def test_agreement_notices_a_text_that_differs(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "a.html").write_text('<div class="main"><p>the real text of the page here</p></div>')
    truth = tmp_path / "truth.jsonl"
    record = {"file": "a.html", "url_path": "/a.html", "title": "", "main_text": "something else entirely"}
    truth.write_text(json.dumps(record) + "\n")
    site = TestSite("t", "test", tmp_path / "root", "/", truth, "test", Recipe(MainRule("div.main")), True)
    result = agreement(site)
    assert (result.pages, result.found, result.identical) == (1, 1, 0)
    assert result.mean_f1 == 0.0
