"""Import boundaries: the library stays usable alone, and the project's packages import in one direction.

The graph is a line, extraction <- records <- pipelines <- crawler: each package may import those to its
left, never one to its right, and no module imports itself back through others (imports under
``if TYPE_CHECKING:`` are for types only and do not run, so they are left out).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("extraction", "records", "pipelines", "crawler")


def test_extraction_imports_neither_scrapy_nor_sqlalchemy() -> None:
    # Importing the public API (not just the package, which would pass as a bare namespace package).
    code = (
        "import sys; from extraction import extract; "
        "print('scrapy' in sys.modules, 'sqlalchemy' in sys.modules)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"], "extraction imported scrapy or sqlalchemy"


def test_records_import_neither_scrapy_nor_sqlalchemy() -> None:
    code = "import sys, records; print('scrapy' in sys.modules, 'sqlalchemy' in sys.modules)"
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "False"], "records imported scrapy or sqlalchemy"


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(tree: ast.Module) -> Iterator[str]:
    """The absolute modules a module imports when it runs (not those imported for type checking only)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _graph() -> dict[str, set[str]]:
    """Project module -> the project modules it imports at run time."""
    paths = [path for layer in LAYERS for path in (REPO_ROOT / layer).rglob("*.py")]
    modules = {_module_name(path): path for path in paths}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        imported = _runtime_imports(ast.parse(path.read_text("utf-8")))
        graph[name] = {target for target in imported if target in modules and target != name}
    return graph


def test_packages_import_only_those_below_them() -> None:
    upward = []
    for module, targets in _graph().items():
        rank = LAYERS.index(module.split(".")[0])
        above = [target for target in targets if LAYERS.index(target.split(".")[0]) > rank]
        upward.extend(f"{module} -> {target}" for target in above)
    assert upward == [], "imports against the line extraction <- records <- pipelines <- crawler"


def test_no_module_imports_itself_back() -> None:
    graph = _graph()
    cycles = []
    for start in graph:
        seen: set[str] = set()
        stack = list(graph[start])
        while stack:
            module = stack.pop()
            if module == start:
                cycles.append(start)
                break
            if module not in seen:
                seen.add(module)
                stack.extend(graph[module])
    assert cycles == []


def test_crawler_settings_load() -> None:
    from scrapy.settings import Settings

    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    assert settings.get("BOT_NAME") == "cleancrawl"
    assert settings.getbool("ROBOTSTXT_OBEY")
    assert settings.get("COMMANDS_MODULE") == "crawler.commands"
    assert "crawler.addon.CleancrawlAddon" in settings.getdict("ADDONS")
