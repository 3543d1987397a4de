# Potluck: `make run` serves the lobby, `make test` runs the whole test suite.
PY ?= python3
# `make test` runs the tests on this many pytest-xdist workers (auto: one per core).
TEST_WORKERS ?= auto
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/potluck serve

test: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

bench: $(STAMP)
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.load

clean:
	rm -rf $(VENV) data .pytest_cache
