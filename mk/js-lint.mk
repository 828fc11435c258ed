# ESLint and Prettier over the repository's JavaScript (issue 21), pinned in the root
# package.json / package-lock.json (the page and the module build with their own packages).
#   make lint     -> also runs lint-js: ESLint (eslint.config.js), then Prettier's check
#   make format   -> rewrites the JavaScript in Prettier's style (.prettierrc.json), and the
#                    Python in ruff's

JS_TOOLS_DONE := node_modules/.package-lock.json
JS_BIN        := node_modules/.bin
# Every JavaScript file not ignored (.gitignore, .prettierignore; eslint.config.js's ignores).
JS_FILES      := "**/*.{js,mjs,cjs}"

.PHONY: lint-js format

$(JS_TOOLS_DONE): package.json package-lock.json | node
	npm ci --no-audit --no-fund --loglevel=error

lint: lint-js

lint-js: $(JS_TOOLS_DONE)
	$(CLOCK) eslint -- $(JS_BIN)/eslint --max-warnings 0 .
	$(CLOCK) prettier -- $(JS_BIN)/prettier --check $(JS_FILES)

format: setup $(JS_TOOLS_DONE)
	$(JS_BIN)/prettier --write --log-level warn $(JS_FILES)
	$(VENV)/bin/ruff format .
