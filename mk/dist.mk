# The GM's install (issue 18): one application wheel with the core, the bridge and the built page.
#   make dist           -> dist/background_battle-<version>-py3-none-any.whl (page from `make site`)
#   make test-install   -> that wheel installed alone into a fresh venv, played in Chromium

DIST_DIR := dist
DIST_LOG := build/dist.log

.PHONY: dist test-install

# The build's output goes to a log, shown only when it fails.
dist: site
	@rm -rf build $(DIST_DIR)/background_battle-*.whl && mkdir -p build
	@$(PY) -m build --wheel --no-isolation --outdir $(DIST_DIR) . >$(DIST_LOG) 2>&1 || \
	  { cat $(DIST_LOG); echo "make dist: the wheel's build failed (log above)"; exit 1; }
	@ls $(DIST_DIR)/background_battle-*.whl

test-install: dist browser
	$(CLOCK) install -- $(PY) -m pytest -q tests/install

TEST_TARGETS += test-install
