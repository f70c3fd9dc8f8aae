# citegate — every target creates the venv and installs on first use.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck unit integration bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/citegate demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check stream tests

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest tests/unit -q

integration: $(STAMP)
	$(BIN)/pytest tests/integration -q

test: lint typecheck
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/citegate bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
