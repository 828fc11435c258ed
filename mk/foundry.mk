# Foundry VTT module: release zip and tests (issue 5).
#   make foundry-module [FOUNDRY_REPO=owner/name]   -> foundry-module/dist/{module.json,background-battle.zip}
#   make test-foundry                               -> node unit tests + Chromium tests with the real bridge
#                                                      (and the module's load, a round and Apply in
#                                                      Firefox ESR: test_module_in_firefox.py)

FOUNDRY_REPO ?= $(shell git config --get remote.origin.url 2>/dev/null | sed -E 's#^(git@github\.com:|https://github\.com/)##; s#\.git$$##')

.PHONY: foundry-module test-foundry test-foundry-node test-foundry-browser

foundry-module:
	@test -n "$(FOUNDRY_REPO)" || { echo "Set FOUNDRY_REPO=owner/name (the GitHub repository of the releases)"; exit 2; }
	$(PYTHON) foundry-module/build_release.py --repo "$(FOUNDRY_REPO)" --out foundry-module/dist

test-foundry-node: node
	$(CLOCK) foundry-node -- node --test tests/foundry/

# the built page too: the GM's page and Foundry on one bridge (test_influence_fight.py)
test-foundry-browser: setup browser engines site
	$(CLOCK) foundry-browser -- $(PY) -m pytest -q tests/foundry

test-foundry: test-foundry-node test-foundry-browser

# Apply cut short at random moments, 20 seeded runs per Foundry generation (make test runs 3).
.PHONY: test-faults
test-faults: setup browser
	BB_FAULT_RUNS=20 $(PY) -m pytest -q -s tests/foundry/test_apply_faults.py -k cut_short

TEST_TARGETS += test-foundry

.PHONY: bench-foundry
bench-foundry: node
	node tests/bench/bench_foundry.mjs
	node tests/bench/bench_relay.mjs

BENCH_TARGETS += bench-foundry
