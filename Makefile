# Background Battle — one Makefile; each shell adds its own targets in mk/*.mk.
# `make test` and `make run` set up what is missing (a .venv at the root, pinned tools), or stop
# at once with one line saying what to do (mk/prerequisites.mk).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

# Shells append to these in mk/*.mk.
TEST_TARGETS  :=
BENCH_TARGETS :=
RUN_TARGET    := run-demo

.PHONY: setup test lint typecheck test-core bench bench-core run run-demo clean

setup: $(STAMP)

# One editable install of the root project: the core and the bridge (setup.py adds the page to
# a wheel only, never to an editable install).
$(STAMP): requirements-dev.txt pyproject.toml setup.py core/pyproject.toml | python-ready
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install -q --disable-pip-version-check --no-build-isolation -e .
	touch $@

-include mk/*.mk

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: setup
	$(VENV)/bin/mypy

test-core: setup
	$(PY) -m pytest -q tests/core core/background_battle

test: node browser lint typecheck test-core $(TEST_TARGETS)

bench-core: setup
	$(PY) tests/bench/bench_core.py

bench: bench-core $(BENCH_TARGETS)

run: $(RUN_TARGET)

run-demo: setup
	$(VENV)/bin/background-battle demo

clean:
	rm -rf $(VENV) web/dist dist build
