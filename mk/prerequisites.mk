# What `make test` and `make run` need besides the .venv: Python with venv, Node with npm, a
# Chromium/Chrome for the browser tests, and Firefox ESR and WebKitGTK for the other engines. Each check stops make at once with one line saying what
# to do (tools/prerequisites.py; `browser` tries `playwright install chromium` before giving up).

.PHONY: python-ready node browser engines

python-ready:
	@$(PYTHON) tools/prerequisites.py python

node:
	@$(PYTHON) tools/prerequisites.py node

# Debian's firefox-esr, webkit2gtk-driver and xvfb: one line naming what to install when missing.
engines:
	@$(PYTHON) tools/prerequisites.py engines

# Found at once with the system's Python; only when there is none is the .venv set up, for
# `playwright install chromium`.
browser:
	@$(PYTHON) tools/prerequisites.py browser >/dev/null 2>&1 || \
	  { $(MAKE) --no-print-directory setup && $(PY) tools/prerequisites.py browser --install >/dev/null; }

TEST_TARGETS += test-tools
.PHONY: test-tools
test-tools: setup
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
	$(CLOCK) tools -- $(PY) -m pytest -q tests/tools
