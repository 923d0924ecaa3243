"""Evaluation harness: score `extraction.extract` and peer extractors on a benchmark dataset.

    python -m extraction.evaluate DATASET_DIR [--predictions OUT.json] [--json METRICS.json]
        [--compare trafilatura,trafilatura-fast,readability,justext,resiliparse]
        [--exclude-flagged] [--limit N]

Modules: `datasets` (layout and loading), `metric` (the article-extraction-benchmark shingle metric and the
snippet checks), `peers` (cleancrawl and the comparison extractors, imported lazily), `runner` (timing and
peak memory of one extractor's run), `report` (tables and JSON). All extractors run in one process over
the same pages, which are loaded (and gunzipped) before any timing starts.
"""
