"""Evaluation harness: score `extraction.extract` and peer extractors on a benchmark dataset.

    python -m extraction.evaluate DATASET_DIR [--predictions OUT.json] [--json METRICS.json]
        [--compare trafilatura,trafilatura-fast,trafilatura-comments,readability,justext,resiliparse]
        [--method NAME|all] [--exclude-flagged] [--limit N]

`--method NAME` runs that method of `extraction.methods` instead of the default; `--method all` runs every
method and prints one comparison table with seed 000's block-level precision, recall and F.

Modules: `datasets` (layout and loading), `metric` (the article-extraction-benchmark shingle metric, the
snippet checks and the block-level scores), `peers` (cleancrawl and the comparison extractors, imported
lazily), `runner` (timing and peak memory of one extractor's or method's run), `report` (tables and JSON).
All extractors run in one process over the same pages, which are loaded (and gunzipped) before any timing
starts.
"""
