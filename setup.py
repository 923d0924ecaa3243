"""Build hook: compile the extraction hot path with mypyc; install it as pure Python when that fails.

Extraction runs inline in the crawl, once per page. mypyc (mypy's compiler, which also builds black and
mypy itself) turns these typed modules into C extensions from the same source, about 25% faster per page.
Without a C compiler, or with `CLEANCRAWL_PURE_PYTHON=1`, the package installs as plain Python and
behaves the same; `extraction.COMPILED` says which one is running.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup

# The modules every page goes through; the evaluator, the papers' methods and the site models stay
# interpreted (their cost is per cluster or offline, and they use numpy, which mypyc cannot speed up).
HOT_MODULES = [
    "extraction/api.py",
    "extraction/dom.py",
    "extraction/features.py",
    "extraction/hashing.py",
    "extraction/links.py",
    "extraction/prepare.py",
    "extraction/result.py",
    "extraction/revise.py",
    "extraction/scoring.py",
    "extraction/segment.py",
]


def compiled_extensions() -> list[Extension]:
    """mypyc's extensions for the hot modules, optional so that a missing compiler is not an error."""
    if os.environ.get("CLEANCRAWL_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify

        # Missing imports (numpy in a build environment) are only Any to the compiler.
        extensions = mypycify(
            ["--ignore-missing-imports", *HOT_MODULES], opt_level="3", group_name="extraction.compiled"
        )
    except (ImportError, SystemExit) as error:
        print(f"cleancrawl: not compiling the extraction modules ({error!r}); pure Python", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=compiled_extensions())
