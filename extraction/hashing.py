"""Block hashes: the identity of a block's text across pages, crawls and crawler processes."""

from __future__ import annotations

import hashlib


def text_hash(text: str) -> str:
    """A 64-bit BLAKE2b hash (16 hex digits) of the text with its whitespace folded, case kept.

    Folding whitespace makes a block hash the same whatever the page's indentation; 64 bits keep the
    chance of two distinct blocks colliding negligible for billions of blocks while the index stays small.
    """
    folded = " ".join(text.split())
    return hashlib.blake2b(folded.encode("utf-8"), digest_size=8).hexdigest()
