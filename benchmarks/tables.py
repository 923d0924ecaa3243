"""The plain-text tables the benchmarks print."""

from __future__ import annotations

from collections.abc import Iterable


def ruled(header: str, rows: Iterable[str]) -> list[str]:
    """A table's lines: its header, a rule as wide as the header, then its rows."""
    return [header, "-" * len(header), *rows]
