"""Evaluation harness: score `extraction.extract` and peer extractors on a benchmark dataset.

Run it as `python -m extraction.evaluate DATASET_DIR [--compare trafilatura,readability,...]`.
"""
