"""The mypyc build of the per-page modules (setup.py): built from the current sources, same results."""

from __future__ import annotations

import importlib.machinery
import json
import subprocess
import sys
from pathlib import Path

import pytest

import extraction
from tests.extraction.pages import FIXTURE_NAMES, FIXTURES_DIR

PACKAGE_DIR = Path(extraction.__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent

# Imports the extraction modules from their .py sources, ignoring compiled ones, when argv[1] is "pure";
# then prints as JSON every block's decision on the fixture pages, alone and as a site model revises it.
_RUN_FIXTURES = """
import copy, importlib.machinery, json, sys
from pathlib import Path

class PreferSource(importlib.machinery.PathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if not name.startswith("extraction.") or not path:
            return None
        loader = (importlib.machinery.SourceFileLoader, [".py"])
        return importlib.machinery.FileFinder(path[0], loader).find_spec(name, target)

if sys.argv[1] == "pure":
    sys.meta_path.insert(0, PreferSource)
import extraction
from extraction.site_models import SiteModel, encode_signature, page_signature

decisions = {"compiled": extraction.COMPILED}
for path in sys.argv[2:]:
    result = extraction.extract(Path(path).read_bytes(), url="https://fixture.test/")
    # A model that saw the page six times revises a sibling page: the same template, half its content new.
    model = SiteModel()
    for _ in range(6):
        model.observe(result.blocks)
    sibling = [copy.copy(block) for block in result.blocks]
    for block in sibling[::2]:
        block.text = block.text[::-1] if block.is_content else block.text
    revised = model.revise(sibling, result.title)
    decisions[path] = [
        [block.path, block.text, block.label.value, block.reason, round(block.score, 9)]
        + [decision.label.value, decision.reason, decision.pages]
        for block, decision in zip(result.blocks, revised)
    ]
    decisions[path + " signature"] = encode_signature(page_signature(result.blocks, 3, 6))
    frequency, slots = model.frequency, model.slots
    keys = model.keys(sibling)
    decisions[path + " model"] = {
        "pages": frequency.pages,
        "counts": frequency.pages_of(keys),
        "slots": [(slots.distinct(key.slot), slots.importance(key.slot)) for key in keys],
        "content_chars": slots.content_chars,
    }
print(json.dumps(decisions))
"""


def _compiled_modules() -> list[tuple[Path, Path]]:
    """(source, compiled module) of every extraction module built next to its source."""
    return [
        (source, built)
        for source in sorted(PACKAGE_DIR.rglob("*.py"))
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (built := source.with_name(source.stem + suffix)).exists()
    ]


def _decisions(mode: str) -> dict[str, object]:
    pages = [str(FIXTURES_DIR / f"{name}.html") for name in FIXTURE_NAMES]
    proc = subprocess.run(
        [sys.executable, "-c", _RUN_FIXTURES, mode, *pages],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    decisions: dict[str, object] = json.loads(proc.stdout)
    return decisions


@pytest.fixture(scope="module")
def compiled_modules() -> list[tuple[Path, Path]]:
    if not extraction.COMPILED:
        pytest.skip("extraction runs as pure Python (no C compiler at install, or CLEANCRAWL_PURE_PYTHON)")
    return _compiled_modules()


def test_every_compiled_module_is_newer_than_its_source(compiled_modules: list[tuple[Path, Path]]) -> None:
    # A compiled module takes precedence over its source: built before an edit, it runs the old code.
    assert compiled_modules, "extraction.COMPILED is set but no compiled module was found"
    stale = [
        source.name for source, built in compiled_modules if built.stat().st_mtime < source.stat().st_mtime
    ]
    assert not stale, f"compiled before their last edit: {stale}; rebuild with `make` or `pip install -e .`"


def test_compiled_and_pure_python_decide_alike_on_the_fixture_pages(
    compiled_modules: list[tuple[Path, Path]],
) -> None:
    compiled, pure = _decisions("compiled"), _decisions("pure")
    assert compiled.pop("compiled") is True
    assert pure.pop("compiled") is False, "the pure-Python run imported a compiled module"
    assert all(compiled.values()), "a fixture page gave no blocks"
    reasons = [row[6] for rows in compiled.values() if isinstance(rows, list) for row in rows]
    assert any("of 6 pages of this cluster" in reason for reason in reasons), "the model decided nothing"
    assert compiled == pure
