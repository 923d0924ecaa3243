"""The search index over the pages' clean text, kept in step by whatever changes a page's clean text
(storing a batch, re-cleaning a cluster).

SQLite indexes it in the contentless FTS5 table `page_search` (its rowid is the page's id; detail=none: the
words of a page without their positions, the smallest full-text index FTS5 keeps), which forgets a page
given the text it indexed. PostgreSQL keeps `pages.search`, a stripped tsvector under a GIN index. Both
tokenize words as they are, with no stemming or stop words ("simple", unicode61), the same on every site and
language. A page's clean text holds no noise block: a template phrase is never indexed.

A page is the unit of the index, not a block: indexing every distinct block apart cost more than the whole
baseline store (every page's visible text) on documentation sites, whose blocks are short; a hit's best
block is found in its page's text when the snippet is made (`pipelines.storage.search`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from sqlalchemy import text
from sqlalchemy.orm import Session

from pipelines.storage.dialect import is_postgresql

# PostgreSQL's text search configuration: words as they are, no stemming or stop words.
TS_CONFIG = "simple"
# SQLite's FTS5 table (made by migration 0004) and its tokenizer.
FTS_TOKENIZER = "unicode61 remove_diacritics 2"

# A word as FTS5's unicode61 tokenizer sees one: letters and digits (an underscore separates).
_WORD = re.compile(r"[^\W_]+")
# The combining marks NFKD splits diacritics into (the blocks of combining diacritical marks).
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")

# A page's index entry before and after a change: the text it was indexed with (None: not indexed) and the
# text to index now (None: forget it).
TextChange = tuple[str | None, str | None]


def words(terms: str) -> list[str]:
    """The words of a text as the index holds them: lower case, without diacritics."""
    lowered = terms.lower()
    if lowered.isascii():  # most text: nothing to fold, and folding walks every character
        return _WORD.findall(lowered)
    return _WORD.findall(_COMBINING.sub("", unicodedata.normalize("NFKD", lowered)))


def index_text(clean_text: str) -> str:
    """What PostgreSQL indexes of a text: its `words`, one space apart. Its own parser would split words
    otherwise ("3.11.2" one token, a query's "3 11 2" three) and skips whatever follows a literal "<script>"
    or "<style>" as markup; given plain words, it holds what SQLite's FTS5 holds and queries find."""
    return " ".join(words(clean_text))


def search_vector(expression: str) -> str:
    """PostgreSQL's index entry of a text: its words without their positions (the same as SQLite's FTS5
    with detail=none), at half the size."""
    return f"strip(to_tsvector('{TS_CONFIG}', {expression}))"


def index_pages(session: Session, changes: Mapping[int, TextChange]) -> None:
    """Bring the index of the pages `changes` names (by id) in step with their clean text."""
    if not changes:
        return
    if is_postgresql(session):
        rows = [
            {"id": page_id, "text": None if new is None else index_text(new)}
            for page_id, (_, new) in sorted(changes.items())
        ]
        vector = search_vector("CAST(:text AS text)")
        session.execute(text(f"UPDATE pages SET search = {vector} WHERE id = :id"), rows)
        return
    forgotten = [{"id": page_id, "text": old} for page_id, (old, _) in changes.items() if old is not None]
    if forgotten:
        statement = "INSERT INTO page_search(page_search, rowid, text) VALUES ('delete', :id, :text)"
        session.execute(text(statement), forgotten)
    indexed = [{"id": page_id, "text": new} for page_id, (_, new) in changes.items() if new is not None]
    if indexed:
        session.execute(text("INSERT INTO page_search(rowid, text) VALUES (:id, :text)"), indexed)
