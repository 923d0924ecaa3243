"""`python -m extraction.evaluate` end to end, in a subprocess, on three real aeb pages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import extraction
from extraction.methods.registry import METHODS
from tests.extraction.evaluate.test_datasets import PAGE_COUNT, add_annotations, make_dataset

REPO_ROOT = Path(__file__).resolve().parents[3]
REQUIRED = {"pages", "f1", "precision", "recall", "pages_per_second", "peak_memory_mb"}


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run the evaluator from the repo root, as a user would."""
    command = [sys.executable, "-m", "extraction.evaluate", *map(str, args)]
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False)


def assert_sane(metrics: dict[str, Any], pages: int) -> None:
    """The required fields exist, scores are in [0, 1] and costs are non-negative."""
    assert metrics.keys() >= REQUIRED
    assert metrics["pages"] == pages
    for key in ("f1", "precision", "recall"):
        assert isinstance(metrics[key], float) and 0.0 <= metrics[key] <= 1.0
    for key in ("pages_per_second", "peak_memory_mb"):
        assert isinstance(metrics[key], float) and metrics[key] >= 0.0


@pytest.mark.parametrize("gzipped", [False, True], ids=["html", "html.gz"])
def test_cli_writes_metrics_and_predictions(aeb_dir: Path, tmp_path: Path, gzipped: bool) -> None:
    dataset = tmp_path / "data"
    ids = make_dataset(aeb_dir, dataset, gzipped=gzipped)
    proc = run_cli(dataset, "--json", tmp_path / "m.json", "--predictions", tmp_path / "p.json")
    assert proc.returncode == 0, proc.stderr
    assert "cleancrawl" in proc.stdout and "F1" in proc.stdout
    # Speeds differ by a fifth between the two builds: the report says which one ran.
    assert f"{PAGE_COUNT} pages; cleancrawl {extraction.BUILD}" in proc.stdout
    metrics = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert_sane(metrics, PAGE_COUNT)
    assert metrics["f1"] > 0.3  # three ordinary news articles: a working extractor finds most of the text
    predictions = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert sorted(predictions) == ids
    assert all(isinstance(entry["articleBody"], str) for entry in predictions.values())


def test_cli_types_snippets_flags_and_a_peer(aeb_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("resiliparse", reason="peers come with the bench extra")
    ids = make_dataset(aeb_dir, tmp_path, gzipped=True)
    add_annotations(tmp_path, ids)
    proc = run_cli(tmp_path, "--exclude-flagged", "--compare", "resiliparse", "--json", tmp_path / "m.json")
    assert proc.returncode == 0, proc.stderr
    assert "1 pages listed in quality_flags.json left out" in proc.stdout
    assert "F1 per page type" in proc.stdout and "snippets" in proc.stdout
    metrics = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert_sane(metrics, PAGE_COUNT - 1)
    assert metrics["flagged_excluded"] == 1
    assert set(metrics["per_type"]) == {"listing", "article"}
    assert_sane(metrics["peers"]["resiliparse"], PAGE_COUNT - 1)


def test_cli_rejects_an_unknown_peer(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "--compare", "nosuchpeer")
    assert proc.returncode == 2
    assert "nosuchpeer" in proc.stderr


def test_cli_reports_a_bad_dataset_dir(tmp_path: Path) -> None:
    proc = run_cli(tmp_path / "absent")
    assert proc.returncode == 2
    assert "ground-truth.json" in proc.stderr


def table_rows(stdout: str) -> dict[str, list[str]]:
    """The rows of the first table of the report, by their first cell."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("-----")) + 1
    rows = {}
    for line in lines[start:]:
        if not line.strip() or line.startswith("pages/s"):
            break
        cells = line.split()
        rows[cells[0]] = cells[1:]
    return rows


def test_cli_compares_every_method_with_block_scores(aeb_dir: Path, tmp_path: Path) -> None:
    dataset = tmp_path / "data"
    make_dataset(aeb_dir, dataset, gzipped=True)
    proc = run_cli(dataset, "--method", "all", "--json", tmp_path / "m.json")
    assert proc.returncode == 0, proc.stderr
    assert "block P  block R  block F" in proc.stdout
    rows = table_rows(proc.stdout)
    assert list(rows) == list(METHODS)
    assert all(row[0] == str(PAGE_COUNT) and row[5] != "-" for row in rows.values())
    metrics = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert list(metrics["methods"]) == list(METHODS) and metrics["peers"] == {}
    for fields in metrics["methods"].values():
        assert_sane(fields, PAGE_COUNT)
        assert all(0.0 <= fields["blocks"][key] <= 1.0 for key in ("precision", "recall", "f"))


def test_cli_runs_one_method_beside_a_peer(aeb_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("resiliparse", reason="peers come with the bench extra")
    dataset = tmp_path / "data"
    make_dataset(aeb_dir, dataset, gzipped=False)
    proc = run_cli(dataset, "--method", "cetr", "--compare", "resiliparse", "--json", tmp_path / "m.json")
    assert proc.returncode == 0, proc.stderr
    rows = table_rows(proc.stdout)
    assert list(rows) == ["cetr", "resiliparse"]
    assert rows["resiliparse"][5:8] == ["-", "-", "-"]
    metrics = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert_sane(metrics, PAGE_COUNT)
    assert "blocks" in metrics and "blocks" not in metrics["peers"]["resiliparse"]


def test_cli_default_output_has_no_block_scores(aeb_dir: Path, tmp_path: Path) -> None:
    dataset = tmp_path / "data"
    make_dataset(aeb_dir, dataset, gzipped=False)
    proc = run_cli(dataset)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[3].split() == [
        "extractor",
        "pages",
        "F1",
        "precision",
        "recall",
        "pages/s",
        "peak",
        "MB",
        "failed",
    ]
    assert list(table_rows(proc.stdout)) == ["cleancrawl"]


def test_cli_rejects_an_unknown_method_and_predictions_of_all(tmp_path: Path) -> None:
    proc = run_cli(tmp_path, "--method", "nosuchmethod")
    assert proc.returncode == 2 and "nosuchmethod" in proc.stderr
    proc = run_cli(tmp_path, "--method", "all", "--predictions", tmp_path / "p.json")
    assert proc.returncode == 2 and "--predictions" in proc.stderr


def test_cli_repeats_timed_passes_and_says_so(aeb_dir: Path, tmp_path: Path) -> None:
    dataset = tmp_path / "data"
    make_dataset(aeb_dir, dataset, gzipped=False)
    once = run_cli(dataset, "--json", tmp_path / "once.json", "--predictions", tmp_path / "once-p.json")
    proc = run_cli(
        dataset, "--repeat", "2", "--json", tmp_path / "m.json", "--predictions", tmp_path / "p.json"
    )
    assert once.returncode == 0 and proc.returncode == 0, proc.stderr
    assert "speeds: one timed pass per extractor, each after 3 untimed warm-up pages" in once.stdout
    assert "speeds: best of 2 timed passes per extractor (their order rotated each round)" in proc.stdout
    metrics, metrics_once = (json.loads((tmp_path / name).read_text()) for name in ("m.json", "once.json"))
    assert metrics.keys() == metrics_once.keys()
    assert_sane(metrics, PAGE_COUNT)
    assert (tmp_path / "p.json").read_bytes() == (tmp_path / "once-p.json").read_bytes()


@pytest.mark.parametrize("option", [("--repeat", "0"), ("--warmup", "-1")])
def test_cli_rejects_too_few_passes_or_warm_up_pages(tmp_path: Path, option: tuple[str, str]) -> None:
    proc = run_cli(tmp_path, *option)
    assert proc.returncode == 2 and option[0] in proc.stderr
