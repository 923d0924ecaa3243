"""Command-line options the benchmarks share."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def add_shared_option(parser: argparse.ArgumentParser, holds: str) -> None:
    """`--shared`, the shared data directory (`holds` says what the benchmark reads there): by default
    ``$CLEANCRAWL_SHARED``, else ``shared`` beside the repository, as the tests look for it."""
    parser.add_argument(
        "--shared",
        type=Path,
        default=Path(os.environ.get("CLEANCRAWL_SHARED") or REPO_ROOT.parent / "shared"),
        help=f"the shared data directory ({holds})",
    )
