"""Benchmarks and the local test web they run against: real sites with ground truth, generated sites, servers.

Nothing here is imported by the crawler, the pipelines or the extraction library; `make bench*` targets run
the modules of this package from the repository root (`python -m benchmarks.NAME`).
"""
