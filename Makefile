# Two commands do all set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run test lint types pytest migrate demo bench clean fmt screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/firestep serve

migrate: $(STAMP)
	$(BIN)/firestep migrate

demo: $(STAMP)
	$(BIN)/firestep demo

lint: $(STAMP)
	$(BIN)/ruff check app rules playsheets tests bench migrations
	$(BIN)/ruff format --check app rules playsheets tests bench migrations
	$(BIN)/lint-imports

types: $(STAMP)
	$(BIN)/mypy app rules playsheets

pytest: $(STAMP)
	$(BIN)/pytest -n 2 $(PYTEST_ARGS)

test: lint types pytest

bench: $(STAMP)
	$(BIN)/python bench/table_queries.py

screenshots: $(STAMP)
	FIRESTEP_DOCS_SCREENSHOTS=1 $(BIN)/pytest -q -p no:cacheprovider tests/frontend/test_docs_screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

fmt: $(STAMP)
	$(BIN)/ruff check --fix -q app rules playsheets tests bench migrations
	$(BIN)/ruff format -q app rules playsheets tests bench migrations
