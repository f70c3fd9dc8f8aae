# citegate — every target creates the venv and installs on first use.
SHELL  := /bin/bash
PYTHON ?= python3.11
PROMTOOL ?= promtool
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# PyTorch for `citegate learn` and its tests, CPU build, installed first so `.[learn]` finds it
# satisfied. On these machines pip takes this version from local disk. Elsewhere a plain
# `torch` from PyPI is the CUDA build on Linux (several GB): point TORCH_SPEC at PyTorch's CPU
# wheel index (`make TORCH_SPEC='torch==2.13.0 --index-url <cpu index>'`, docs/checkers.md).
TORCH  ?= 2.13.0
TORCH_SPEC ?= torch==$(TORCH)

.PHONY: lexicon demo test lint typecheck rules unit integration coverage faults fuzz clean

# First run only: say what is happening before the slow part, and let pip show its progress.
$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH" >&2; exit 2; }
	@echo "make: first run: creating $(VENV) and installing citegate with its dev tools (about a minute)"
	$(PYTHON) -m venv $(VENV)
	@echo "make: upgrading pip"
	$(BIN)/pip install --quiet --upgrade pip
	@echo "make: installing PyTorch $(TORCH) (CPU build; for \`citegate learn\` and its tests)"
	$(BIN)/pip install --progress-bar off $(TORCH_SPEC) | grep --line-buffered -E '^(Collecting|Successfully)'; exit $${PIPESTATUS[0]}
	@echo "make: installing citegate and its dependencies (pip shows each package)"
	$(BIN)/pip install --progress-bar off -e '.[dev,learn]' | grep --line-buffered -E '^(Collecting|Successfully)'; exit $${PIPESTATUS[0]}
	@touch $(STAMP)
	@echo "make: $(VENV) is ready"

# The lexical tables compiled for reading in place (build output, never committed): they load
# in milliseconds and hold about 30 MB less than the text tables, which the core reads instead
# while a compiled file is missing or stale (docs/performance.md#memory).
TABLES := $(patsubst %.txt.gz,%.dawg,$(wildcard stream/verify/data/lexicon-*.txt.gz))
$(TABLES): %.dawg: %.txt.gz stream/lexicon/compiled.py $(STAMP)
	$(BIN)/python -m stream.lexicon.compiled $<

demo: $(STAMP) $(TABLES)
	$(BIN)/citegate demo --replay

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check stream tests

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(TABLES)
	$(BIN)/pytest tests/unit -q

integration: $(STAMP) $(TABLES)
	$(BIN)/pytest tests/integration -q

# The fault suite (embedded broker + local PostgreSQL, loopback only): prints one table of
# figures and exits 1 when a target is missed. `make test` runs it as tests/integration/test_faults.py.
faults: $(STAMP) $(TABLES)
	$(BIN)/python -m tests.faults.suite

# Coverage-guided fuzzing (atheris) of every input edge, one harness after the other, under
# nice: FUZZ_SECONDS per harness (default 600), FUZZ_ONLY=markers,verify for some of them.
# What it finds lands in .fuzz/artifacts/<harness>/ and the run exits 1. `make test` runs a
# 2-second smoke of each (tests/fuzz/test_fuzz.py).
FUZZ_SECONDS ?= 600
FUZZ_ONLY ?=
fuzz: $(STAMP) $(TABLES)
	nice -n 10 $(BIN)/python -m tests.fuzz.run --seconds $(FUZZ_SECONDS) $(if $(FUZZ_ONLY),--only $(FUZZ_ONLY))

# Prometheus rules: syntax, the config that loads them, and their unit tests. promtool comes
# with Debian's `prometheus` package (.ci/run installs it); without it this is skipped locally
# and fails under CI=true.
rules:
	@if ! command -v $(PROMTOOL) >/dev/null 2>&1; then \
	  if [ "$$CI" = "true" ]; then \
	    echo "rules: FAILED: $(PROMTOOL) not found (CI=true); install Debian's prometheus package" >&2; \
	    exit 1; \
	  fi; \
	  echo "rules: SKIPPED: $(PROMTOOL) not found; install it (apt-get install prometheus) to check deploy/prometheus"; \
	  exit 0; \
	fi; \
	set -e; \
	$(PROMTOOL) check rules deploy/prometheus/rules/*.yml; \
	(cd deploy/prometheus && $(PROMTOOL) check config prometheus.yml); \
	$(PROMTOOL) test rules deploy/prometheus/tests/*.yml

# Line and branch coverage of stream/ (in the pytest process; worker subprocesses are not
# traced). The floor sits a few points under today's figure (79 %): coverage may rise, not fall.
COVERAGE_FLOOR ?= 75
COV := --cov=stream --cov-branch --cov-report=term:skip-covered --cov-fail-under=$(COVERAGE_FLOOR)

test: lint typecheck rules $(TABLES)
	$(BIN)/pytest -q $(COV)

coverage: $(STAMP) $(TABLES)
	$(BIN)/pytest -q $(COV) --cov-report=html
	@echo "coverage: open htmlcov/index.html"


# Regenerate the lexical tables of stream/verify/data/ from their sources (deterministic:
# the same sources give byte-identical files). WordNet 3.0 comes from Debian's wordnet-base.
WORDNET ?= /usr/share/wordnet
lexicon: $(STAMP)
	@test -f $(WORDNET)/data.noun || { echo "lexicon: need WordNet 3.0 in $(WORDNET) (apt-get install wordnet-base)" >&2; exit 2; }
	$(BIN)/pip install --quiet '.[lexicon]'
	$(BIN)/python -m stream.lexicon.build --wordnet $(WORDNET)
	$(BIN)/python -m stream.lexicon.compiled

clean:
	rm -f $(TABLES)
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache htmlcov .coverage .fuzz
