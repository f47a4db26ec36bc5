# Two commands do all set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run club test test-loaded lint types pytest migrate demo bench clean fmt screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# setuptools' notice on every editable install of a package that maps folders (setup.py: frontend/ as
# app.frontend), ten lines advising care with same-named folders, is for its own developers: not shown.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation"

# Serving needs only the app's own dependencies; the test tools install with the first `make test`.
$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/python -m pip install -q --upgrade pip
	$(EDITABLE) $(BIN)/python -m pip install -q -e .
	touch $(STAMP)

# openapi-python-client, which tests/app/test_generated_client.py runs, holds typer below the version firestep's
# own command line runs on: it gets an environment of its own, so the tests run the typer that ships.
TOOLS := $(VENV)/tools
$(TEST_STAMP): $(STAMP)
	$(EDITABLE) $(BIN)/python -m pip install -q -e ".[test]"
	$(BIN)/python -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install -q "openapi-python-client>=0.29,<0.30"
	touch $(TEST_STAMP)

# A checkout keeps its data in ./var (app/core/config.py: an installed firestep uses the user's data folder).
run: $(STAMP)
	mkdir -p var
	$(BIN)/firestep serve

# A club night: HTTPS on every interface with the club's own authority (see /trust).
club: $(STAMP)
	mkdir -p var
	$(BIN)/firestep serve --club

migrate: $(STAMP)
	mkdir -p var
	$(BIN)/firestep migrate

demo: $(STAMP)
	mkdir -p var
	$(BIN)/firestep demo

lint: $(TEST_STAMP)
	$(BIN)/ruff check app rules playsheets tests bench migrations
	$(BIN)/ruff format --check app rules playsheets tests bench migrations
	$(BIN)/lint-imports

types: $(TEST_STAMP)
	$(BIN)/mypy app rules playsheets

# One worker a core (WORKERS=3 make test sets another number): a third worker on CI's two cores was no faster
# (a quiet fresh-clone run, 3 workers: 10:58 for the parallel phase, its tests 1,820 s; with two, 10:47 and
# 1,223 s): the suite keeps both cores busy.
# worksteal: a worker that runs out of tests takes queued ones from another, so no core idles at the end.
# Then the tests that hold the app to a wall-clock limit, alone on the machine (exit 5: none selected), from the
# modules that mark one: collecting every module again would take longer than those tests take.
# Python's compiled modules kept for the run (a machine that sets PYTHONDONTWRITEBYTECODE, as CI's image does, has
# every process compile the app again: each worker, each served or installed copy's command, ~0.3 s of CPU each),
# the app's compiled before the workers start, on both cores.
# The tests' files (their SQLite databases above all) in a folder of memory where the machine has one (/dev/shm),
# removed after: in WAL mode each SQLite commit is an fsync (0.3 ms on CI's disk, 15 us in memory), and no test
# is about a power cut's durability, as .ci/run's PostgreSQL runs with fsync=off (a tenth of the API tests' time).
WORKERS ?= $(shell nproc)
TIMED_MODULES = $(shell grep -rl --include='test_*.py' 'mark\.timed' tests)
TESTS_TMP := $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo $${TMPDIR:-/tmp})
pytest: export PYTHONDONTWRITEBYTECODE :=
pytest: $(TEST_STAMP)
	$(BIN)/python -m compileall -q -j 0 app rules playsheets migrations > /dev/null
	export TMPDIR=$$(mktemp -d $(TESTS_TMP)/firestep-tests.XXXXXX) && trap 'rm -rf "$$TMPDIR"' EXIT && \
	$(BIN)/pytest -n $(WORKERS) --dist worksteal -m "not timed" --tier-budget --durations=30 $(PYTEST_ARGS) && \
	{ $(BIN)/pytest -m timed $(PYTEST_ARGS) $(TIMED_MODULES) || [ $$? -eq 5 ]; }

test: lint types pytest

# The same on a deliberately busy machine: two busy processes beside the workers, stopped when it ends.
test-loaded: $(TEST_STAMP)
	.ci/loaded $(MAKE) test

bench: $(TEST_STAMP)
	$(BIN)/python bench/table_queries.py

screenshots: $(TEST_STAMP)
	FIRESTEP_DOCS_SCREENSHOTS=1 $(BIN)/pytest -q -p no:cacheprovider tests/frontend/test_screens.py tests/frontend/test_map_play.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

fmt: $(TEST_STAMP)
	$(BIN)/ruff check --fix -q app rules playsheets tests bench migrations
	$(BIN)/ruff format -q app rules playsheets tests bench migrations
