# citegate — every target creates the venv and installs on first use.
PYTHON ?= python3.11
PROMTOOL ?= promtool
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck rules unit integration faults clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/citegate demo --replay

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check stream tests

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest tests/unit -q

integration: $(STAMP)
	$(BIN)/pytest tests/integration -q

# The fault suite (embedded broker + local PostgreSQL, loopback only): prints one table of
# figures and exits 1 when a target is missed. `make test` runs it as tests/integration/test_faults.py.
faults: $(STAMP)
	$(BIN)/python -m tests.faults.suite

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

test: lint typecheck rules
	$(BIN)/pytest -q


clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
