# cleancrawl developer and CI commands. Every target bootstraps .venv on first use.
SHELL := /bin/bash
.DEFAULT_GOAL := test
.DELETE_ON_ERROR:

# Shared data sets (one setting for the whole project: CLEANCRAWL_SHARED).
SHARED ?= $(or $(CLEANCRAWL_SHARED),../shared)
DATASET ?= $(SHARED)/datasets/aeb
PEERS ?= trafilatura,readability,justext,resiliparse
# Extra arguments for `make evaluate` and `make fuzz`, e.g. ARGS='--json out.json', ARGS='--inputs 2000'.
ARGS ?=
# Seed URLs of `make crawl`, comma-separated.
SEEDS ?=

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
COMPILED := $(VENV)/.compiled
BOOT_PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3 2>/dev/null)
PYTHON_DOCS := /usr/share/doc/python3.11/html
POSTGRESQL_DOCS := /usr/share/doc/postgresql-doc-15/html
DEBIAN_HANDBOOK := /usr/share/doc/debian-handbook/html/en-US
GIT_DOCS := /usr/share/doc/git-doc
LXML_DOCS := /usr/share/doc/python-lxml-doc/html

.PHONY: test lint check evaluate bench bench-methods crawl bench-crawl bench-store bench-recrawl bench-scale bench-focus fuzz soak sites-data services docs-data clean distclean

# The virtualenv: rebuilt only when pyproject.toml or setup.py is newer than the stamp, so a second run calls
# no pip. pip is upgraded first: the one bundled with Python 3.11 fails on normalised extras (lxml[html_clean]).
# The dependencies install here without compiling; $(COMPILED) compiles once.
$(STAMP): pyproject.toml setup.py
	@test -n "$(BOOT_PYTHON)" || { echo "no python3.11 or python3 on PATH" >&2; exit 1; }
	@test -x $(PY) || $(BOOT_PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	CLEANCRAWL_PURE_PYTHON=1 $(PY) -m pip install --quiet -e '.[dev,bench]'
	@touch $@

# The extraction hot path compiled with mypyc (setup.py), again whenever a source of the package changes:
# a compiled module older than its source would run the old code. Old builds go first, so that
# CLEANCRAWL_PURE_PYTHON=1 leaves pure Python. No C compiler: pip warns and the package stays pure Python.
$(COMPILED): $(STAMP) $(wildcard extraction/*.py)
	find extraction -name '*.so' -delete
	$(PY) -m pip install --quiet --no-deps -e .
	@$(PY) -c 'import extraction; print("extraction:", extraction.BUILD)'
	@touch $@

test: $(COMPILED) services docs-data
	CLEANCRAWL_SHARED="$(SHARED)" $(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

check: lint test

# Our extractor alone over one data set (the main job until the crawl lands).
evaluate: $(COMPILED)
	$(PY) -m extraction.evaluate "$(DATASET)" $(ARGS)

# Our extractor beside the peers, on both data sets.
bench: $(COMPILED)
	$(PY) -m extraction.evaluate "$(SHARED)/datasets/aeb" --compare $(PEERS) --repeat 3
	$(PY) -m extraction.evaluate "$(SHARED)/datasets/wcxb-dev" --compare $(PEERS) --exclude-flagged --repeat 3

# The seed papers' methods side by side: on aeb (evaluator) and on a crawl of whizzy (one crawl per method).
bench-methods: $(COMPILED)
	$(PY) -m extraction.evaluate "$(SHARED)/datasets/aeb" --method all
	CLEANCRAWL_SHARED="$(SHARED)" $(PY) -m benchmarks.crawl --sites whizzy --methods all

# Crawl the seeds' sites into DATABASE_URL (crawler/settings.py), e.g. make crawl SEEDS=http://127.0.0.1:8000/
crawl: $(COMPILED)
	@test -n "$(SEEDS)" || { echo "usage: make crawl SEEDS=URL[,URL...]" >&2; exit 1; }
	$(PY) -m scrapy crawl site -a seeds=$(SEEDS)

# The crawl against a plain Scrapy crawl of whizzy and the Python docs: time, memory, storage, F1 and peers.
bench-crawl: $(COMPILED) docs-data
	CLEANCRAWL_SHARED="$(SHARED)" $(PY) -m benchmarks.crawl

# cleancrawl's store against a baseline store of the same crawl (issue 13), on SQLite and PostgreSQL: whizzy,
# the Python docs and a generated 20,000-page site (cached in .cache/store): sizes, search quality, targets.
bench-store: $(COMPILED) services docs-data
	CLEANCRAWL_SHARED="$(SHARED)" $(PY) -m benchmarks.store

# Revisit policies over a simulated month of an evolving site (issue 14; benchmarks/recrawl.py): fixed interval,
# adaptive on the raw HTML (Nutch), adaptive on informative content; fetches, 304s, freshness, the targets.
# About 20 minutes; a smoke run: make bench-recrawl ARGS=--quick.
bench-recrawl: $(COMPILED)
	$(PY) -m benchmarks.recrawl $(ARGS)

# Scale-out (issue 18; benchmarks/scale.py): 1, 2 and 3 processes on one Redis frontier and one PostgreSQL store,
# a generated site served by nginx; pages/s, duplicate fetches at the server, peak RSS per process; then two
# processes with one killed mid-crawl (pages lost, logs in .cache/scale/killed) and the targets; then 1, 2 and 3
# processes on the PostgreSQL manual, a real site whose pages a fleet meets in other orders. About 40 minutes.
bench-scale: $(COMPILED) services docs-data
	$(PY) -m benchmarks.scale $(ARGS)
	$(PY) -m benchmarks.scale --site postgresql-docs --fleets 1,2,3 --kill 0

# Focused crawling (issue 16; benchmarks/focus.py): breadth-first, best-first on URL and anchor keywords, cleancrawl
# focused without and with the block signal, on whizzy's categories, Python library chapters, the PostgreSQL
# manual's parts and SQLAlchemy's sections (the last two skipped until make sites-data installs them):
# harvest@50/100/200, pages to 80% of a topic's pages, the targets. About 14 minutes; fewer: make bench-focus
# ARGS='--sites postgresql-docs'.
bench-focus: $(COMPILED) docs-data
	CLEANCRAWL_SHARED="$(SHARED)" $(PY) -m benchmarks.focus $(ARGS)

# Fuzz extraction and the spider's handler with mutated real pages (benchmarks/fuzz.py); findings and their
# replay commands in .cache/fuzz, e.g. make fuzz ARGS='--inputs 2000 --workers 2'.
fuzz: $(COMPILED)
	CLEANCRAWL_SHARED="$(SHARED)" $(PY) -m benchmarks.fuzz run $(ARGS)

# Soak (issue 15; benchmarks/soak.py): a generated 50,000-page site behind the fault server (5xx, resets, slow
# drips, oversized bodies, wrong charsets) crawled into SQLite, PostgreSQL, then two processes into one
# PostgreSQL; pages stored against servable, duplicates, peak RSS. Not part of `make test`: about 45 minutes
# a run here; a smaller site or fewer runs: make soak ARGS='--pages 5000 --runs sqlite'.
soak: $(COMPILED) services
	$(PY) -m benchmarks.soak $(ARGS)

# Real test sites beyond the shared three (benchmarks/sites.py): Debian documentation packages (installed when
# root), fetched mirrors (CLEANCRAWL_MIRRORS, default ../.mirror), ground truth in .cache/sites. Never fails.
sites-data: $(STAMP)
	CLEANCRAWL_SHARED="$(SHARED)" $(PY) -m benchmarks.sites build --install || true
	CLEANCRAWL_SHARED="$(SHARED)" $(PY) -m benchmarks.sites list

# Local PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) for the suites that need them. Starts what is
# stopped when it can; never fails: tests that need a missing service fail loudly on their own.
services:
	@if (: </dev/tcp/127.0.0.1/5432) 2>/dev/null; then echo "services: postgresql up"; \
	elif command -v pg_ctlcluster >/dev/null 2>&1 && [ -n "$$(ls /etc/postgresql 2>/dev/null)" ]; then \
	  echo "services: starting postgresql"; \
	  pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql | sort -V | tail -n 1) main start \
	    || echo "services: could not start postgresql"; \
	else echo "services: postgresql not running and cannot be started here"; fi
	@if (: </dev/tcp/127.0.0.1/6379) 2>/dev/null; then echo "services: redis up"; \
	elif command -v redis-server >/dev/null 2>&1; then \
	  echo "services: starting redis"; \
	  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
	    --dir /var/lib/redis --logfile /var/log/redis/ci.log || echo "services: could not start redis"; \
	  for _ in 1 2 3 4 5 6 7 8 9 10; do (: </dev/tcp/127.0.0.1/6379) 2>/dev/null && break; sleep 0.5; done; \
	else echo "services: redis not running and cannot be started here"; fi

# Documentation packages, real sites for the tests: the Python 3.11 docs (Sphinx), the PostgreSQL 15 manual
# (DocBook, whose pages a crawl can group into clusters in several ways), the Debian Administrator's Handbook
# (DocBook, Publican: side notes in its sections), git's manual pages (AsciiDoc) and lxml's manual (docutils:
# a side menu that lists every page by its title). Installed when missing and possible; never fails.
DOCS_PACKAGES := python3.11-doc:$(PYTHON_DOCS)/index.html postgresql-doc-15:$(POSTGRESQL_DOCS)/index.html \
  debian-handbook:$(DEBIAN_HANDBOOK)/index.html git-doc:$(GIT_DOCS)/git-add.html \
  python-lxml-doc:$(LXML_DOCS)/tutorial.html
docs-data:
	@missing=""; for entry in $(DOCS_PACKAGES); do \
	  [ -f "$${entry#*:}" ] || missing="$$missing $${entry%%:*}"; done; \
	if [ -z "$$missing" ]; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "docs-data: installing$$missing"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; } \
	    || echo "docs-data: could not install$$missing"; \
	else echo "docs-data:$$missing missing and cannot be installed here"; fi

clean:
	rm -rf build dist *.egg-info $(COMPILED) .mypy_cache .ruff_cache .pytest_cache .hypothesis
	find extraction -name '*.so' -delete
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
