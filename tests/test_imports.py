"""Import boundaries: the extraction library stays usable without the crawler's heavy dependencies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


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


def test_crawler_settings_load() -> None:
    from scrapy.settings import Settings

    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    assert settings.get("BOT_NAME") == "cleancrawl"
    assert settings.getbool("ROBOTSTXT_OBEY")
    assert settings.get("COMMANDS_MODULE") == "crawler.commands"
