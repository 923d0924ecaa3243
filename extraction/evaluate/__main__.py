"""Command line: `python -m extraction.evaluate DATASET_DIR [options]` (see `--help`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from extraction.evaluate.datasets import Dataset, DatasetError, load_dataset
from extraction.evaluate.peers import PEERS, Extractor, PeerUnavailableError, cleancrawl, load_peer
from extraction.evaluate.report import (
    Evaluation,
    comparison_json,
    evaluate,
    metrics_json,
    predictions_json,
    render,
)
from extraction.evaluate.runner import Run, run_extractor, run_method, run_rounds
from extraction.methods.registry import METHODS

ALL_METHODS = "all"


def main(argv: Sequence[str] | None = None) -> int:
    """Evaluate cleancrawl or the chosen methods (and the requested peers) on one dataset; print tables,
    write optional JSON."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.method == ALL_METHODS and args.predictions:
        parser.error("--predictions writes one extractor's text: choose one --method, not all")
    try:
        dataset = load_dataset(args.dataset, exclude_flagged=args.exclude_flagged, limit=args.limit)
    except DatasetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    peers = _load_peers(args.compare)
    names = list(METHODS) if args.method == ALL_METHODS else [args.method] if args.method else []
    extractors = peers if names else [cleancrawl(), *peers]
    passes: list[Callable[[], Run]] = [
        *(partial(run_method, name, dataset.pages, warmup=args.warmup) for name in names),
        *(partial(run_extractor, extractor, dataset.pages, warmup=args.warmup) for extractor in extractors),
    ]
    evaluations = [evaluate(run, dataset) for run in run_rounds(passes, args.repeat)]
    methods, others = evaluations[: len(names)], evaluations[len(names) :]
    print(render(dataset, evaluations, args.warmup), end="")
    if args.json:
        _write_json(args.json, _metrics(dataset, args.method, methods, others))
    if args.predictions:
        _write_json(args.predictions, predictions_json(evaluations[0].run))
    return 0


def _metrics(
    dataset: Dataset, method: str | None, methods: list[Evaluation], others: list[Evaluation]
) -> dict[str, Any]:
    """The JSON metrics: the first extractor at top level and the peers below, or every method's."""
    if method == ALL_METHODS:
        return comparison_json(dataset, methods, others)
    return metrics_json(dataset, [*methods, *others])


def _load_peers(names: Sequence[str]) -> list[Extractor]:
    """Import the requested peers now, before any timing; skip (and say so) those not installed."""
    loaded = []
    for name in names:
        try:
            loaded.append(load_peer(name))
        except PeerUnavailableError as error:
            print(f"skipping peer {name}: {error}", file=sys.stderr)
    return loaded


def _peer_list(value: str) -> list[str]:
    """Parse `--compare a,b,c`, rejecting unknown names up front rather than after a long run."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in PEERS]
    if unknown:
        choices = ", ".join(PEERS)
        raise argparse.ArgumentTypeError(f"unknown peer(s) {', '.join(unknown)}; choose from {choices}")
    return names


def _method_name(value: str) -> str:
    """Parse `--method NAME`: a name of `extraction.methods.registry.METHODS`, or "all"."""
    if value != ALL_METHODS and value not in METHODS:
        raise argparse.ArgumentTypeError(f"unknown method {value}; choose from {', '.join(METHODS)}, all")
    return value


def _at_least(minimum: int) -> Callable[[str], int]:
    """A parser of whole numbers no smaller than `minimum` (`--limit`, `--repeat`, `--warmup`)."""

    def integer(value: str) -> int:
        number = int(value)
        if number < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}")
        return number

    return integer


def _parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog="python -m extraction.evaluate",
        description="Score cleancrawl's extract() (and peers) with the article-extraction-benchmark metric.",
    )
    add = parser.add_argument
    add("dataset", type=Path, metavar="DATASET_DIR", help="html/ID.html[.gz] + ground-truth.json")
    add("--predictions", type=Path, metavar="OUT.json", help='write {ID: {"articleBody": text}} of ours')
    add("--json", type=Path, metavar="METRICS.json", help="write our metrics (and the peers') as JSON")
    add(
        "--compare", type=_peer_list, default=[], metavar="PEERS", help=f"comma-separated: {', '.join(PEERS)}"
    )
    add(
        "--method",
        type=_method_name,
        metavar="NAME",
        help=f"run this method of extraction.methods instead of the default extractor ({', '.join(METHODS)}),"
        " or all of them in one table with block-level P/R/F",
    )
    add("--exclude-flagged", action="store_true", help="leave out pages listed in quality_flags.json")
    add("--limit", type=_at_least(1), metavar="N", help="only the first N page IDs (after exclusion)")
    add(
        "--repeat",
        type=_at_least(1),
        default=1,
        metavar="N",
        help="time N passes of each extractor, their order rotated each round; report the fastest",
    )
    add(
        "--warmup",
        type=_at_least(0),
        default=3,
        metavar="N",
        help="before each timed pass, call the extractor untimed on the first N pages (default 3)",
    )
    return parser


def _write_json(path: Path, data: Any) -> None:
    """Write `data` as UTF-8 JSON, keeping non-ASCII text readable."""
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
