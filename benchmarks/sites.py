"""Real test sites for the crawl benchmark, each with main-content ground truth from its own theme.

The three shared sites (``$CLEANCRAWL_SHARED/sites/README.md``: whizzy, python311, oemforum) come with their
ground truth. The others are built here, on this machine, from third-party material that is never
committed to the repository:

- Debian documentation packages, served from where the package installs them (``apt-get install``);
- a public GitHub repository that commits a website mirror, fetched as a bare git directory into
  ``$CLEANCRAWL_MIRRORS`` (default ``../.mirror`` beside the repository, one ``OWNER+NAME/repo`` folder
  a repository) and unpacked with ``git archive`` into the cache.

A site's ground truth is taken as the shared sites' was: the text of the theme's main content element
(a CSS selector, `MainRule`), minus the theme's own furniture inside it (permalink anchors, language
switches, in-page navigation), rendered by `render_text`: one line per block (headings, paragraphs,
list items, table cells, definition terms), ``<pre>`` keeping its lines, whitespace folded within a line,
empty lines dropped. Re-deriving the shared python311 ground truth this way gives the same text on all
530 pages (``python -m benchmarks.sites validate``).

Sites built here (name: kind; source; main content selector, minus what is removed inside it):

- scrapy-docs: Sphinx, Read the Docs theme; python-scrapy-doc; ``div.document[role=main]`` − ``a.headerlink``
- sqlalchemy-docs: Sphinx, zzzeeksphinx theme; python-sqlalchemy-doc; ``div#docs-body`` − ``a.headerlink``
- sphinx-docs: Sphinx, its own sphinx13 theme; sphinx-doc; ``div.body[role=main]`` − ``a.headerlink``
- lxml-docs: docutils HTML with a custom template, plus Sphinx API pages (RTD theme); python-lxml-doc;
  ``body > div.document, div.document[role=main]`` − ``div#sidemenu, a.headerlink``
- apache-manual: the Apache httpd 2.4 manual's XSLT template; apache2-doc (``manual/en``);
  ``div#page-content`` − language bars, the quick-view box, back-to-top links, ``a.permalink``
- postgresql-docs: DocBook XSL (PostgreSQL 15); postgresql-doc-15; the page's section ``div`` under
  ``body`` (``body > div.sect1``, ``div.refentry``, ``div.chapter``, ...) − ``div.toc``
- git-docs: AsciiDoc man pages and guides; git-doc; ``div#header, div#content`` − author and revision
- debian-handbook: DocBook, Publican; debian-handbook (``html/en-US``); as postgresql-docs
- helsingborg: WordPress news and services pages, Municipio theme, in Swedish; a ``wget`` mirror of
  helsingborg.se (2025-10-14) committed to github helsingborg-stad-arkiv/archive;
  ``main#main-content article#article`` − the byline (``div.c-signature``) and notices (``div.c-notice``)

Pages that get no ground-truth record (``build`` prints how many, and writes each with its reason to
``truth/NAME.skipped.tsv`` in the cache); as built from Debian 12's packages and the mirror's commit
9b40069b:

- index pages, which list other pages rather than hold content (``Recipe.skip``, matched at any depth):
  Sphinx's ``genindex``, ``py-modindex``, ``search`` and ``_modules/index.html`` (also in lxml's
  ``apidoc/``; one source listing, sphinx-docs' ``_modules/sphinxcontrib/websupport/search.html``, goes
  with them by its name); DocBook's book-level ``index.html`` and PostgreSQL's ``bookindex.html``; the
  Apache manual's ``sitemap`` and its ``mod/directives`` and ``mod/quickreference`` tables;
- pages without the main container, made by another template: helsingborg.se's 312 event pages and 28
  pages built from modules (the home page, section landing pages, the news listing), the git user
  manual (DocBook, one page), lxml's ``sitemap.html``, scrapy's ``_static/selectors-sample1.html`` and
  PostgreSQL's ``legalnotice.html``;
- pages whose container holds fewer than `MIN_WORDS` words once the furniture is removed: 77 helsingborg.se
  landing pages made of teaser cards, 25 PostgreSQL part and chapter pages that are a table of contents,
  Sphinx stubs ("moved to ..." pages, 404.html, API modules without docstrings: 3 scrapy, 6 SQLAlchemy,
  5 lxml) and 3 Apache manual pages that only link elsewhere.

Usage: ``python -m benchmarks.sites build [--cache DIR] [--mirrors DIR] [--install] [--sites a,b]``,
``python -m benchmarks.sites list [--cache DIR]``, ``python -m benchmarks.sites validate``.
"""

from __future__ import annotations

import argparse
import codecs
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from lxml import html

from benchmarks.options import add_shared_option

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CACHE = REPO_ROOT / ".cache" / "sites"
# A container with fewer words than this is furniture (a table of contents, teaser cards), not content.
MIN_WORDS = 30

# Elements that start and end a line: HTML's block-level elements as the shared ground truth rendered
# them (`address` stays inline there: oemforum's posts use it for code lines joined by <br>).
BLOCK_TAGS = frozenset(
    {
        "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "dialog", "dir",
        "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
        "h5", "h6", "header", "hgroup", "hr", "legend", "li", "main", "menu", "nav", "ol", "option", "p",
        "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
    }
)  # fmt: skip
# Elements whose text a reader never sees.
HIDDEN_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title"})
# Pages that only list other pages, in every site generator here.
INDEX_PAGES = ("genindex*.html", "py-modindex.html", "search.html", "_modules/index.html")
_WORD = re.compile(r"\w+")
_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([\w.:-]+)""", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class MainRule:
    """Where a theme puts its main content: containers, kept in document order, and furniture inside."""

    select: str
    drop: str = ""


@dataclass(frozen=True, slots=True)
class Mirror:
    """A website committed to a public GitHub repository: the repository and the folder of the site."""

    repo: str
    tree: str


@dataclass(frozen=True, slots=True)
class Recipe:
    """How to make a site's ground truth: its main-content rule, where it comes from, what to skip."""

    rule: MainRule
    package: str = ""
    mirror: Mirror | None = None
    skip: tuple[str, ...] = INDEX_PAGES


@dataclass(frozen=True, slots=True)
class TestSite:
    """A site to crawl: its files, the path the crawl starts from, its ground truth, and its origin."""

    # A dataclass, not a test: pytest must not collect it when a test module imports it.
    __test__: ClassVar[bool] = False

    name: str
    kind: str
    root: Path
    start: str
    truth: Path
    origin: str
    recipe: Recipe | None = None
    # The ground truth comes ready-made (the shared sites); `build` leaves it alone, `validate` checks it.
    prebuilt: bool = False


@dataclass(slots=True)
class Derived:
    """What deriving a site's ground truth gave: one record per content page, and the skipped pages."""

    records: list[dict[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


# --- the catalogue ---------------------------------------------------------------------------------------

_DOCS = Path("/usr/share/doc")
_SPHINX_DROP = "a.headerlink"


def catalogue(shared: Path, cache: Path) -> list[TestSite]:
    """Every known site: the three shared ones, then those whose ground truth `build` writes to `cache`."""
    return [*_shared_sites(shared), *_built_sites(cache)]


def available(sites: Iterable[TestSite]) -> list[TestSite]:
    """The sites whose files and ground truth are both on this machine."""
    return [site for site in sites if site.root.is_dir() and site.truth.is_file()]


def _shared_sites(shared: Path) -> list[TestSite]:
    """The shared sites: their ground truth is ready; their rules are the ones sites/README.md names."""
    truth = shared / "sites" / "ground_truth"
    return [
        TestSite(
            "whizzy",
            "WordPress blog (static export)",
            shared / "sites" / "whizzy",
            "/",
            truth / "whizzy.jsonl",
            "shared: sites/whizzy",
            Recipe(MainRule("h1.page-title, article .entry-content")),
            prebuilt=True,
        ),
        TestSite(
            "python311",
            "Sphinx docs, classic Python theme",
            _DOCS / "python3.11" / "html",
            "/index.html",
            truth / "python311.jsonl",
            "Debian package python3.11-doc",
            Recipe(MainRule("div.body[role=main]", _SPHINX_DROP), package="python3.11-doc"),
            prebuilt=True,
        ),
        TestSite(
            "oemforum",
            "Drupal 6 forum (HTTrack mirror)",
            shared / "sites" / "oemforum",
            "/index.html",
            truth / "oemforum.jsonl",
            "shared: sites/oemforum",
            Recipe(
                MainRule(
                    "div#main > div.node h3.title, div#main > div.node div.content, "
                    "div#comments div.comment div.content",
                    "div.forum-topic-navigation",
                )
            ),
            prebuilt=True,
        ),
    ]


def _built_sites(cache: Path) -> list[TestSite]:
    """The sites `build` makes ground truth for (files from Debian packages, or unpacked in `cache`)."""
    truth, roots = cache / "truth", cache / "roots"

    def site(
        name: str, kind: str, root: Path, origin: str, recipe: Recipe, start: str = "/index.html"
    ) -> TestSite:
        return TestSite(name, kind, root, start, truth / f"{name}.jsonl", origin, recipe)

    docbook = ", ".join(f"body > div.{kind}" for kind in _DOCBOOK_PAGES)
    return [
        site(
            "scrapy-docs",
            "Sphinx docs, Read the Docs theme",
            _DOCS / "python-scrapy-doc" / "html",
            "Debian package python-scrapy-doc",
            Recipe(MainRule("div.document[role=main]", _SPHINX_DROP), package="python-scrapy-doc"),
        ),
        site(
            "sqlalchemy-docs",
            "Sphinx docs, zzzeeksphinx theme",
            _DOCS / "python-sqlalchemy-doc" / "html",
            "Debian package python-sqlalchemy-doc",
            Recipe(MainRule("div#docs-body", _SPHINX_DROP), package="python-sqlalchemy-doc"),
        ),
        site(
            "sphinx-docs",
            "Sphinx docs, sphinx13 theme",
            _DOCS / "sphinx-doc" / "html",
            "Debian package sphinx-doc",
            Recipe(MainRule("div.body[role=main]", _SPHINX_DROP), package="sphinx-doc"),
        ),
        site(
            "lxml-docs",
            "docutils HTML, custom template (+ Sphinx API pages)",
            _DOCS / "python-lxml" / "html",
            "Debian package python-lxml-doc",
            Recipe(
                MainRule("body > div.document, div.document[role=main]", "div#sidemenu, a.headerlink"),
                package="python-lxml-doc",
            ),
        ),
        site(
            "apache-manual",
            "Apache httpd manual, XSLT template",
            _DOCS / "apache2-doc" / "manual" / "en",
            "Debian package apache2-doc",
            Recipe(
                MainRule(
                    "div#page-content",
                    "div.toplang, div.bottomlang, div#quickview, div.top, a.permalink, button",
                ),
                package="apache2-doc",
                skip=("mod/directives.html", "mod/quickreference.html", "sitemap.html"),
            ),
        ),
        site(
            "postgresql-docs",
            "DocBook XSL (PostgreSQL 15)",
            _DOCS / "postgresql-doc-15" / "html",
            "Debian package postgresql-doc-15",
            Recipe(
                MainRule(docbook, "div.toc"),
                package="postgresql-doc-15",
                skip=("index.html", "bookindex.html"),
            ),
        ),
        site(
            "git-docs",
            "AsciiDoc (man pages and guides)",
            _DOCS / "git-doc",
            "Debian package git-doc",
            Recipe(
                MainRule(
                    "div#header, div#content",
                    "div#toc, span#author, span#email, span#revnumber, span#revdate",
                ),
                package="git-doc",
            ),
            start="/git.html",
        ),
        site(
            "debian-handbook",
            "DocBook, Publican",
            _DOCS / "debian-handbook" / "html" / "en-US",
            "Debian package debian-handbook",
            Recipe(MainRule(docbook, "div.toc"), package="debian-handbook", skip=("index.html",)),
        ),
        site(
            "helsingborg",
            "WordPress news and services, Municipio theme (Swedish)",
            roots / "helsingborg",
            "github helsingborg-stad-arkiv/archive: wget mirror of helsingborg.se, 2025-10-14",
            Recipe(
                MainRule("main#main-content article#article", "div.c-signature, div.c-notice"),
                mirror=Mirror(
                    "helsingborg-stad-arkiv/archive", "archive/helsingborg.se/2025-10-14/helsingborg.se"
                ),
            ),
        ),
    ]


# The page-level containers of DocBook's HTML output (one per chunked page, a direct child of <body>).
_DOCBOOK_PAGES = (
    "sect1",
    "section",
    "refentry",
    "chapter",
    "appendix",
    "preface",
    "part",
    "reference",
    "bibliography",
    "glossary",
    "article",
)


# --- rendering -------------------------------------------------------------------------------------------


def render_text(element: html.HtmlElement) -> str:
    """The text of `element` as the shared ground truth writes it: a line per block, pre lines kept.

    The element's own tail (text after it, outside it) is not part of it.
    """
    lines: list[str] = []
    current: list[str] = []
    _walk(element, lines, current, in_pre=False, with_tail=False)
    lines.append("".join(current))
    folded = (" ".join(line.split()) for line in lines)
    return "\n".join(line for line in folded if line)


def _walk(
    node: html.HtmlElement, lines: list[str], current: list[str], in_pre: bool, with_tail: bool
) -> None:
    """Append `node`'s text to `current`, closing the line in `lines` at every block boundary."""
    tag = node.tag if isinstance(node.tag, str) else ""
    if tag and tag not in HIDDEN_TAGS:
        block = tag in BLOCK_TAGS or tag == "br"
        if block:
            _close_line(lines, current)
        inner_pre = in_pre or tag == "pre"
        _add(node.text, lines, current, inner_pre)
        for child in node:
            _walk(child, lines, current, inner_pre, with_tail=True)
        if block:
            _close_line(lines, current)
    if with_tail:
        # Comments, processing instructions and hidden elements still have text after them.
        _add(node.tail, lines, current, in_pre)


def _add(text: str | None, lines: list[str], current: list[str], in_pre: bool) -> None:
    """Add a run of text to the current line; inside <pre>, each of its newlines closes a line."""
    if not text:
        return
    if not in_pre:
        current.append(text)
        return
    first, *rest = text.split("\n")
    current.append(first)
    for part in rest:
        _close_line(lines, current)
        current.append(part)


def _close_line(lines: list[str], current: list[str]) -> None:
    """End the current line (an empty one is dropped later, when lines are folded)."""
    if current:
        lines.append("".join(current))
        current.clear()


def main_text(document: html.HtmlElement, rule: MainRule) -> str | None:
    """The main content of a parsed page under `rule`, or None when the page has no such container.

    Containers nested in another match (a quoted post inside a post) are rendered once, with their outer
    container. The furniture of `rule.drop` is removed from the document first.
    """
    matches = document.cssselect(rule.select)
    if not matches:
        return None
    chosen = set(matches)
    outermost = [m for m in matches if not any(a in chosen for a in m.iterancestors())]
    for container in outermost:
        for unwanted in container.cssselect(rule.drop) if rule.drop else []:
            unwanted.drop_tree()  # keeps the text after it, which belongs to its parent
    return "\n".join(text for text in (render_text(c) for c in outermost) if text)


def parse_page(path: Path) -> html.HtmlElement:
    """Parse an HTML file with its declared charset; without one, as UTF-8, else Windows-1252."""
    data = path.read_bytes()
    parser = html.HTMLParser(encoding=page_encoding(data))
    return html.document_fromstring(data or b"<html></html>", parser=parser)


def page_encoding(data: bytes) -> str:
    """The charset a page declares in a <meta> of its first 4 KB if Python knows it, else a guess."""
    declared = _CHARSET.search(data[:4096])
    if declared:
        name = declared.group(1).decode("ascii", "replace")
        try:
            return codecs.lookup(name).name
        except LookupError:
            pass
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"
    return "utf-8"


# --- ground truth ----------------------------------------------------------------------------------------


def html_files(root: Path) -> list[Path]:
    """The site's HTML pages, sorted, as paths relative to `root`."""
    return sorted(p.relative_to(root) for p in root.rglob("*.html") if p.is_file())


def url_path(file: Path) -> str:
    """The path the server answers a file at: a folder's index page at the folder (as python311 does)."""
    path = "/" + file.as_posix()
    return path[: -len("index.html")] if file.name == "index.html" else path


def derive(root: Path, recipe: Recipe) -> Derived:
    """The ground truth of every content page under `root`, and the pages skipped with their reason."""
    derived = Derived()
    for file in html_files(root):
        record, reason = page_record(root, file, recipe)
        if record is None:
            derived.skipped.append((file.as_posix(), reason))
        else:
            derived.records.append(record)
    return derived


def page_record(root: Path, file: Path, recipe: Recipe) -> tuple[dict[str, str] | None, str]:
    """One page's ground-truth record, or None and the reason it has none."""
    name = file.as_posix()
    if is_skipped(name, recipe.skip):
        return None, "index page"
    document = parse_page(root / file)
    title = " ".join((document.findtext(".//title") or "").split())
    text = main_text(document, recipe.rule)
    if text is None:
        return None, "no main container"
    if len(_WORD.findall(text)) < MIN_WORDS:
        return None, f"main content under {MIN_WORDS} words"
    return {"file": name, "url_path": url_path(file), "title": title, "main_text": text}, ""


def is_skipped(name: str, patterns: Iterable[str]) -> bool:
    """Whether a file (path under the root) matches a pattern at the root or in any folder below it.

    Sphinx's index pages recur in sub-sites: lxml's API pages have their own ``apidoc/genindex.html``.
    """
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(name, "*/" + p) for p in patterns)


def write_truth(site: TestSite, derived: Derived) -> None:
    """Write the site's ground truth JSONL and, beside it, its skipped pages (TSV: file, reason)."""
    site.truth.parent.mkdir(parents=True, exist_ok=True)
    with site.truth.open("w", encoding="utf-8") as out:
        for record in derived.records:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    skipped = site.truth.with_suffix(".skipped.tsv")
    skipped.write_text("".join(f"{file}\t{reason}\n" for file, reason in derived.skipped), "utf-8")


# --- sources: Debian packages and fetched mirrors --------------------------------------------------------


def missing_packages(sites: Iterable[TestSite]) -> list[str]:
    """The Debian packages of sites whose files are not installed."""
    return sorted({s.recipe.package for s in sites if s.recipe and s.recipe.package and not s.root.is_dir()})


def install_packages(packages: Sequence[str]) -> bool:
    """Install Debian packages with apt-get (root only); whether it worked."""
    if not packages:
        return True
    if not shutil.which("apt-get") or os.geteuid() != 0:
        print("cannot install: apt-get needs root", file=sys.stderr)
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    steps = [
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages],
    ]
    return all(subprocess.run(step, env=env, check=False).returncode == 0 for step in steps)


def mirror_git_dir(mirrors: Path, repo: str) -> Path | None:
    """The git directory of a fetched repository (``OWNER+NAME/repo``, or ``OWNER+NAME`` itself)."""
    folder = mirrors / repo.replace("/", "+")
    for candidate in (folder / "repo", folder, folder / ".git"):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def extract_mirror(mirror: Mirror, git_dir: Path, dest: Path) -> str:
    """Unpack the mirror's site folder at HEAD into `dest`, unless that commit is already there.

    Returns the commit. Only the site's own tree is archived: a snapshot may lack large blobs elsewhere.
    """
    commit = _git(git_dir, "rev-parse", "HEAD").strip()
    stamp = dest / ".source-commit"
    if stamp.is_file() and stamp.read_text("utf-8").strip() == commit:
        return commit
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    command = ["git", "--git-dir", str(git_dir), "archive", "--format=tar", f"{commit}:{mirror.tree}"]
    with subprocess.Popen(command, stdout=subprocess.PIPE) as process:
        assert process.stdout is not None
        with tarfile.open(fileobj=process.stdout, mode="r|") as archive:
            archive.extractall(dest, filter="data")
    if process.returncode:
        raise RuntimeError(f"git archive of {mirror.repo}:{mirror.tree} exited with {process.returncode}")
    stamp.write_text(commit + "\n", "utf-8")
    return commit


def _git(git_dir: Path, *args: str) -> str:
    """The output of a git command on a bare git directory."""
    return subprocess.run(
        ["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True, text=True
    ).stdout


# --- commands --------------------------------------------------------------------------------------------


def build(sites: Sequence[TestSite], mirrors: Path, install: bool) -> int:
    """Install or report missing packages, unpack mirrors, write the ground truth of every site it can."""
    wanted = [s for s in sites if not s.prebuilt]
    packages = missing_packages(wanted)
    if packages and install:
        install_packages(packages)
    elif packages:
        print(f"missing Debian packages (install them, or run as root with --install): {' '.join(packages)}")
    built = 0
    for site in wanted:
        if not _prepare_root(site, mirrors):
            continue
        assert site.recipe is not None
        derived = derive(site.root, site.recipe)
        write_truth(site, derived)
        reasons = Counter(reason for _, reason in derived.skipped)
        detail = ", ".join(f"{count} {reason}" for reason, count in reasons.most_common()) or "none"
        print(f"{site.name}: {len(derived.records)} ground-truth pages -> {site.truth} (skipped: {detail})")
        built += 1
    print(f"built {built} of {len(wanted)} sites")
    return 0


def _prepare_root(site: TestSite, mirrors: Path) -> bool:
    """Make the site's files present (unpacking its mirror); say why not when they cannot be."""
    recipe = site.recipe
    assert recipe is not None
    if recipe.mirror is not None:
        git_dir = mirror_git_dir(mirrors, recipe.mirror.repo)
        if git_dir is None:
            folder = mirrors / recipe.mirror.repo.replace("/", "+") / "repo"
            print(
                f"skipping {site.name}: repository {recipe.mirror.repo} not found; put a bare clone of it"
                f" at {folder} (or point --mirrors / CLEANCRAWL_MIRRORS at the folder holding it)"
            )
            return False
        commit = extract_mirror(recipe.mirror, git_dir, site.root)
        print(f"{site.name}: {recipe.mirror.repo} at {commit[:12]} in {site.root}")
    if not site.root.is_dir():
        print(f"skipping {site.name}: {site.root} missing (Debian package {recipe.package})")
        return False
    return True


def list_sites(sites: Sequence[TestSite]) -> int:
    """Print each site: its kind, HTML pages, ground-truth pages, and where it comes from."""
    print(f"{'site':<16} {'pages':>6} {'GT':>6}  {'kind':<54} origin")
    for site in sites:
        pages = str(len(html_files(site.root))) if site.root.is_dir() else "-"
        truth = str(_count_lines(site.truth)) if site.truth.is_file() else "-"
        print(f"{site.name:<16} {pages:>6} {truth:>6}  {site.kind:<54} {site.origin}")
    return 0


def _count_lines(path: Path) -> int:
    """The number of records in a JSONL file."""
    with path.open("rb") as lines:
        return sum(1 for _ in lines)


@dataclass(frozen=True, slots=True)
class Agreement:
    """How a re-derived ground truth compares with the shared one, on the pages of the shared one."""

    pages: int
    found: int
    identical: int
    mean_f1: float


def agreement(site: TestSite) -> Agreement:
    """Re-derive a shared site's ground truth with its rule and score it against the shared text."""
    from extraction.evaluate.metric import score_page

    assert site.recipe is not None
    scores: list[float] = []
    found = identical = 0
    for record in _read_jsonl(site.truth):
        text = main_text(parse_page(site.root / record["file"]), site.recipe.rule)
        found += text is not None
        identical += text == record["main_text"]
        score = score_page(record["main_text"], text or "")
        total = score.precision + score.recall
        scores.append(2 * score.precision * score.recall / total if total else 0.0)
    return Agreement(len(scores), found, identical, sum(scores) / len(scores) if scores else 0.0)


def _read_jsonl(path: Path) -> Iterator[dict[str, str]]:
    """The records of a JSONL file, one by one."""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def validate(sites: Sequence[TestSite]) -> int:
    """Print how closely this module's renderer re-derives each shared ground truth."""
    for site in sites:
        if not site.prebuilt or not site.recipe:
            continue
        if not (site.root.is_dir() and site.truth.is_file()):
            print(f"{site.name}: not available ({site.root} or {site.truth} missing)")
            continue
        result = agreement(site)
        print(
            f"{site.name}: {result.pages} pages, container found on {result.found}, identical text on "
            f"{result.identical}, mean page F1 {result.mean_f1:.4f}"
        )
    return 0


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    """The command line: a command and where the cache, the shared data and the mirrors are."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sites", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("build", "list", "validate"))
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where built sites and truth go")
    add_shared_option(parser, "sites/")
    parser.add_argument(
        "--mirrors",
        type=Path,
        default=Path(os.environ.get("CLEANCRAWL_MIRRORS") or REPO_ROOT.parent / ".mirror"),
        help="fetched repositories, one OWNER+NAME folder each",
    )
    parser.add_argument("--install", action="store_true", help="apt-get install missing packages (root)")
    parser.add_argument("--sites", default="", help="comma-separated site names (default: all)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run one command of the CLI."""
    options = _arguments(argv)
    sites = catalogue(options.shared.resolve(), options.cache.resolve())
    if options.sites:
        wanted = set(options.sites.split(","))
        sites = [site for site in sites if site.name in wanted]
    if options.command == "build":
        return build(sites, options.mirrors, options.install)
    if options.command == "list":
        return list_sites(sites)
    return validate(sites)


if __name__ == "__main__":
    sys.exit(main())
