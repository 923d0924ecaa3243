"""Test-wide settings: where the shared data sets live (env ``CLEANCRAWL_SHARED``, default ``../shared``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DIR = Path(os.environ.get("CLEANCRAWL_SHARED") or REPO_ROOT.parent / "shared").resolve()


def _existing(path: Path) -> Path:
    if not path.is_dir():
        pytest.skip(f"shared data not found at {path} (set CLEANCRAWL_SHARED)")
    return path


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return _existing(SHARED_DIR)


@pytest.fixture(scope="session")
def aeb_dir(shared_dir: Path) -> Path:
    return _existing(shared_dir / "datasets" / "aeb")


@pytest.fixture(scope="session")
def wcxb_dir(shared_dir: Path) -> Path:
    return _existing(shared_dir / "datasets" / "wcxb-dev")


FIXTURES_DIR = REPO_ROOT / "tests" / "fixtures"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The small trimmed real pages of tests/fixtures (always present: they are part of the repository)."""
    return FIXTURES_DIR
