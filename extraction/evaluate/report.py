"""Score runs against a dataset and present them: text tables for people, JSON for scripts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from extraction import BUILD
from extraction.evaluate.datasets import Dataset
from extraction.evaluate.metric import (
    BlockSummary,
    PageScore,
    SnippetScore,
    Summary,
    score_blocks,
    score_page,
    score_snippets,
    summarize,
    summarize_blocks,
)
from extraction.evaluate.runner import Run


@dataclass(slots=True, frozen=True)
class Evaluation:
    """One run's scores: overall, per page type, on snippets (None when the dataset has none) and on
    blocks (None for a run without blocks: a peer, or cleancrawl run as the default extractor)."""

    run: Run
    overall: Summary
    per_type: dict[str, Summary]
    snippets: SnippetScore | None
    blocks: BlockSummary | None = None


def evaluate(run: Run, dataset: Dataset) -> Evaluation:
    """Score every page of `dataset` with the run's prediction (and its blocks, when it kept them)."""
    scores = {page.page_id: score_page(page.truth, run.predictions[page.page_id]) for page in dataset.pages}
    overall = summarize(list(scores.values()))
    return Evaluation(
        run, overall, _per_type(dataset, scores), _snippets(run, dataset), _blocks(run, dataset)
    )


def _blocks(run: Run, dataset: Dataset) -> BlockSummary | None:
    """Seed 000's block-level scores (`metric.score_blocks`), or None when the run kept no blocks."""
    if not run.blocks:
        return None
    scores = [
        score_blocks(page.truth, ((block.text, block.content) for block in run.blocks[page.page_id]))
        for page in dataset.pages
    ]
    return summarize_blocks(scores)


def _per_type(dataset: Dataset, scores: dict[str, PageScore]) -> dict[str, Summary]:
    """Summaries per `page_type`, sorted by type name; empty when the dataset has no types."""
    by_type: dict[str, list[PageScore]] = {}
    for page in dataset.pages:
        if page.page_type:
            by_type.setdefault(page.page_type, []).append(scores[page.page_id])
    return {kind: summarize(by_type[kind]) for kind in sorted(by_type)}


def _snippets(run: Run, dataset: Dataset) -> SnippetScore | None:
    """Snippet counts pooled over all pages (each snippet weighs the same), or None without snippets."""
    if not dataset.has_snippets:
        return None
    total = SnippetScore()
    for page in dataset.pages:
        total += score_snippets(run.predictions[page.page_id], page.snippets_with, page.snippets_without)
    return total


def render(dataset: Dataset, evaluations: Sequence[Evaluation], warmup: int = 0) -> str:
    """The full text report: header, main table (the methods' table when a run has block scores), and the
    per-type and snippet tables when they apply; `warmup` is the untimed calls before each timed pass."""
    methods = any(e.blocks is not None for e in evaluations)
    header = _header(dataset) + "\n" + _timing_line(evaluations, warmup)
    parts = [header, _method_table(evaluations) if methods else _main_table(evaluations)]
    if dataset.has_page_types:
        parts.append(_type_table(evaluations))
    if dataset.has_snippets:
        parts.append(_snippet_table(evaluations))
    return "\n\n".join(parts) + "\n"


def _header(dataset: Dataset) -> str:
    """Which data was scored, what was left out, and how cleancrawl ran (compiled or not)."""
    line = f"dataset {dataset.path}: {len(dataset.pages)} pages"
    if dataset.flagged_excluded:
        line += f" ({dataset.flagged_excluded} pages listed in quality_flags.json left out)"
    return f"{line}; cleancrawl {BUILD}"


def _timing_line(evaluations: Sequence[Evaluation], warmup: int) -> str:
    """How the speeds were measured: passes, rotation and warm-up."""
    passes = max((e.run.passes for e in evaluations), default=1)
    warm = f"each after {warmup} untimed warm-up pages" if warmup else "without warm-up"
    if passes == 1:
        return f"speeds: one timed pass per extractor, {warm}"
    return f"speeds: best of {passes} timed passes per extractor (their order rotated each round), {warm}"


def _main_table(evaluations: Sequence[Evaluation]) -> str:
    """One row per extractor: quality, speed (extractor calls only) and peak memory added during its run."""
    headers = ["extractor", "pages", "F1", "precision", "recall", "pages/s", "peak MB", "failed"]
    rows = [[*_quality_cells(e), *_cost_cells(e)] for e in evaluations]
    note = (
        "pages/s: extractor calls only (pages preloaded); peak MB: RSS high-water mark during the run minus "
        "RSS at its start; failed: pages whose extractor raised, scored as empty predictions"
    )
    return format_table(headers, rows) + "\n" + note


def _quality_cells(e: Evaluation) -> list[str]:
    """Name, pages, F1, precision, recall and pages/s: the first cells of both tables."""
    overall = e.overall
    return [
        e.run.name,
        str(overall.pages),
        f"{overall.f1:.3f}",
        f"{overall.precision:.3f}",
        f"{overall.recall:.3f}",
        f"{e.run.pages_per_second:.1f}",
    ]


def _cost_cells(e: Evaluation) -> list[str]:
    """Peak memory and failures: the last cells of both tables."""
    return [f"{e.run.peak_memory_mb:.1f}", str(e.run.failures)]


def _method_table(evaluations: Sequence[Evaluation]) -> str:
    """One row per method (and peer): the main table's figures and seed 000's block-level P, R and F."""
    headers = ["method", "pages", "F1", "precision", "recall", "pages/s"]
    headers += ["block P", "block R", "block F", "peak MB", "failed"]
    rows = [[*_quality_cells(e), *_block_cells(e.blocks), *_cost_cells(e)] for e in evaluations]
    note = (
        "pages/s: method calls only, a site-level method's learning from the other pages of the site "
        "included; block P/R/F: seed 000's, a block being truly content when most of its token 4-grams "
        "are in the ground truth (- for peers, which give text only)"
    )
    return format_table(headers, rows) + "\n" + note


def _block_cells(blocks: BlockSummary | None) -> list[str]:
    """The block-level precision, recall and F, or dashes."""
    if blocks is None:
        return ["-", "-", "-"]
    return [f"{blocks.precision:.3f}", f"{blocks.recall:.3f}", f"{blocks.f:.3f}"]


def _type_table(evaluations: Sequence[Evaluation]) -> str:
    """F1 per page type: types as rows, extractors as columns."""
    kinds = list(evaluations[0].per_type)
    headers = ["page type", "pages", *(e.run.name for e in evaluations)]
    rows = [
        [kind, str(evaluations[0].per_type[kind].pages), *(f"{e.per_type[kind].f1:.3f}" for e in evaluations)]
        for kind in kinds
    ]
    return "F1 per page type\n" + format_table(headers, rows)


def _snippet_table(evaluations: Sequence[Evaluation]) -> str:
    """Share of `with` snippets found and of `without` snippets absent, per extractor."""
    headers = ["extractor", "with found", "without absent"]
    rows = [[e.run.name, _share(e.snippets, True), _share(e.snippets, False)] for e in evaluations]
    title = "snippets (case-sensitive substring match after folding whitespace, pooled over all pages)"
    return title + "\n" + format_table(headers, rows)


def _share(score: SnippetScore | None, wanted: bool) -> str:
    """A snippet share as `0.812 (1234/1520)`, or `-` when there is nothing to count."""
    if score is None:
        return "-"
    tally = score.found if wanted else score.absent
    return f"{tally.hits / tally.total:.3f} ({tally.hits}/{tally.total})" if tally.total else "-"


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Plain fixed-width table: first column left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([cells[0].ljust(widths[0]), *rest])

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(row) for row in rows)])


def metrics_json(dataset: Dataset, evaluations: Sequence[Evaluation]) -> dict[str, Any]:
    """Ours at top level (pages, f1, precision, recall, pages_per_second, peak_memory_mb...), peers below."""
    ours, *peers = evaluations
    return {
        **_fields(ours),
        "dataset": str(dataset.path),
        "flagged_excluded": dataset.flagged_excluded,
        "peers": {e.run.name: _fields(e) for e in peers},
    }


def _fields(evaluation: Evaluation) -> dict[str, Any]:
    """The JSON fields of one extractor."""
    run, overall = evaluation.run, evaluation.overall
    fields: dict[str, Any] = {
        **_summary_fields(overall),
        "pages_per_second": round(run.pages_per_second, 3),
        "peak_memory_mb": round(run.peak_memory_mb, 1),
        "peak_rss_mb": round(run.peak_rss_mb, 1),
        "failures": run.failures,
    }
    if evaluation.per_type:
        fields["per_type"] = {kind: _summary_fields(s) for kind, s in evaluation.per_type.items()}
    if evaluation.blocks is not None:
        fields["blocks"] = {
            "precision": round(evaluation.blocks.precision, 6),
            "recall": round(evaluation.blocks.recall, 6),
            "f": round(evaluation.blocks.f, 6),
        }
    if evaluation.snippets is not None:
        fields["snippets"] = {
            "with_found": _rounded(evaluation.snippets.found.share),
            "without_absent": _rounded(evaluation.snippets.absent.share),
        }
    return fields


def comparison_json(
    dataset: Dataset, methods: Sequence[Evaluation], peers: Sequence[Evaluation]
) -> dict[str, Any]:
    """`--method all`: every method's fields under "methods", the peers' under "peers"."""
    return {
        "dataset": str(dataset.path),
        "flagged_excluded": dataset.flagged_excluded,
        "methods": {e.run.name: _fields(e) for e in methods},
        "peers": {e.run.name: _fields(e) for e in peers},
    }


def _rounded(share: float | None) -> float | None:
    """A share rounded like the F1 fields, None kept (nothing to count)."""
    return None if share is None else round(share, 6)


def _summary_fields(summary: Summary) -> dict[str, Any]:
    """pages, f1, precision and recall of a Summary, rounded for reading."""
    return {
        "pages": summary.pages,
        "f1": round(summary.f1, 6),
        "precision": round(summary.precision, 6),
        "recall": round(summary.recall, 6),
    }


def predictions_json(run: Run) -> dict[str, dict[str, str]]:
    """`{ID: {"articleBody": text}}`, the ground-truth layout, so a prediction file can be re-scored."""
    return {page_id: {"articleBody": text} for page_id, text in run.predictions.items()}
