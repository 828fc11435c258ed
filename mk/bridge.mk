# The websocket bridge (issue 4): tests, benchmark, and `make run`.

TEST_TARGETS  += test-bridge
BENCH_TARGETS += bench-bridge
RUN_TARGET    := run-bridge

# Extra flags for `make run`, e.g. BRIDGE_ARGS="--host 0.0.0.0 --origin http://192.168.1.5:30000"
BRIDGE_ARGS ?=

.PHONY: test-bridge bench-bridge run-bridge

# A client written from docs/protocol.md alone, in Node's `ws` (pinned in its package-lock.json).
NODE_CLIENT_DONE := tests/bridge/node-client/node_modules/.package-lock.json

$(NODE_CLIENT_DONE): tests/bridge/node-client/package.json tests/bridge/node-client/package-lock.json
	cd tests/bridge/node-client && npm ci --no-audit --no-fund --loglevel=error

test-bridge: setup $(NODE_CLIENT_DONE)
	$(CLOCK) bridge -- $(PY) -m pytest -q tests/bridge bridge/background_battle_bridge

bench-bridge: setup
	$(PY) tests/bench/bench_bridge.py

# Sets up and builds the page with its output in a log (shown only when it fails), then serves
# web/dist/: one line of make's own before the bridge's.
RUN_LOG := build/run.log

run-bridge:
	@mkdir -p build && echo "make run: setting up and building the page (log: $(RUN_LOG))"
	@$(MAKE) --no-print-directory setup site >$(RUN_LOG) 2>&1 || \
	  { cat $(RUN_LOG); echo "make run: the build failed (log above, also in $(RUN_LOG))"; exit 1; }
	@$(VENV)/bin/background-battle-bridge --web web/dist $(BRIDGE_ARGS)
