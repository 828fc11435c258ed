# Background Battle — one Makefile; each shell adds its own targets in mk/*.mk.
# `make test` and `make run` set up what is missing (a .venv at the root, pinned tools), or stop
# at once with one line saying what to do (mk/prerequisites.mk).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# Runs one suite and notes how long it took (tools/suite_clock.py); `make test` prints the table.
CLOCK  := $(PYTHON) tools/suite_clock.py run

# Shells append to these in mk/*.mk.
TEST_TARGETS  :=
BENCH_TARGETS :=
RUN_TARGET    := run-demo

.PHONY: setup test test-fast suite-clock-start lint typecheck test-core bench bench-core run run-demo clean

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
	$(CLOCK) ruff -- $(VENV)/bin/ruff check .
	$(CLOCK) ruff-format -- $(VENV)/bin/ruff format --check .

typecheck: setup
	$(CLOCK) mypy -- $(VENV)/bin/mypy

test-core: setup
	$(CLOCK) core -- $(PY) -m pytest -q tests/core core/background_battle

test: node browser engines suite-clock-start lint typecheck test-core $(TEST_TARGETS)
	@$(PYTHON) tools/suite_clock.py report

# The quick suites (the core, the bridge's JavaScript client, the module's logic in Node): well
# under a minute, for while you work; `make test` runs everything.
test-fast: suite-clock-start test-core test-client test-foundry-node
	@$(PYTHON) tools/suite_clock.py report

suite-clock-start:
	@$(PYTHON) tools/suite_clock.py start

bench-core: setup
	$(PY) tests/bench/bench_core.py
	$(PY) tests/bench/bench_live_event.py

bench: bench-core $(BENCH_TARGETS)

run: $(RUN_TARGET)

run-demo: setup
	$(VENV)/bin/background-battle demo

clean:
	rm -rf $(VENV) web/dist dist build
