"""Names shared by the site-model tests."""

from __future__ import annotations

import copy
from pathlib import Path

from extraction import ExtractionResult
from extraction.result import Block

PYTHON_DOCS = Path("/usr/share/doc/python3.11/html")
POSTGRESQL_DOCS = Path("/usr/share/doc/postgresql-doc-15/html")
DEBIAN_HANDBOOK = Path("/usr/share/doc/debian-handbook/html/en-US")
GIT_DOCS = Path("/usr/share/doc/git-doc")
LXML_DOCS = Path("/usr/share/doc/python-lxml-doc/html")
# A post whose only content is its title: every block the page keeps is template.
TITLE_ONLY_POST = "2009/09/28/the-same/index.html"
# A post of two one-line paragraphs, which the single-page model finds too short to keep.
SHORT_POST = "2009/06/12/krod-mandoon-and-the-flaming-sword-of-fire/index.html"
HEATING_POST = "2014/02/04/raspberry-pi-powered-heating-controller-part-4/index.html"


def fresh(result: ExtractionResult) -> list[Block]:
    """A copy of the page's blocks to relabel, leaving the session's pages untouched."""
    return copy.deepcopy(result.blocks)
