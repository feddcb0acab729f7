# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean chromium pyodide vendor screenshot

# Pyodide (CPython in WebAssembly) for the verify page: the pinned npm package's core files
# only, into a gitignored folder the app serves at /pyodide/. The stamp names the version, so
# changing PYODIDE_VERSION fetches again and nothing else does.
PYODIDE_VERSION := 314.0.8
PYODIDE_DIR := fairdeal/web/pyodide
PYODIDE_STAMP := $(PYODIDE_DIR)/.fetched-$(PYODIDE_VERSION)
PYODIDE_CORE := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
PYODIDE_CACHE := .cache/pyodide

$(PYODIDE_STAMP):
	@command -v npm >/dev/null || (apt-get update && apt-get install -y npm)
	rm -rf $(PYODIDE_DIR) $(PYODIDE_CACHE) && mkdir -p $(PYODIDE_DIR) $(PYODIDE_CACHE)
	cd $(PYODIDE_CACHE) && npm pack --silent pyodide@$(PYODIDE_VERSION) >/dev/null
	tar -xzf $(PYODIDE_CACHE)/pyodide-$(PYODIDE_VERSION).tgz -C $(PYODIDE_CACHE) $(addprefix package/,$(PYODIDE_CORE))
	mv $(addprefix $(PYODIDE_CACHE)/package/,$(PYODIDE_CORE)) $(PYODIDE_DIR)/
	rm -rf $(PYODIDE_CACHE)
	@touch $(PYODIDE_STAMP)

pyodide: $(PYODIDE_STAMP)

# @noble/hashes' SHA-256, for the table page where the browser has no Web Crypto (plain http on a
# LAN address): the pinned npm package's ES modules that sha2.js needs, into gitignored
# fairdeal/web/vendor/ (served at /vendor/). Its one bare import is pointed at its own file.
NOBLE_VERSION := 1.8.0
NOBLE_DIR := fairdeal/web/vendor/noble-hashes
NOBLE_STAMP := $(NOBLE_DIR)/.fetched-$(NOBLE_VERSION)
NOBLE_FILES := sha2.js _md.js _u64.js utils.js crypto.js

$(NOBLE_STAMP):
	@command -v npm >/dev/null || (apt-get update && apt-get install -y npm)
	rm -rf $(NOBLE_DIR) .cache/noble && mkdir -p $(NOBLE_DIR) .cache/noble
	cd .cache/noble && npm pack --silent @noble/hashes@$(NOBLE_VERSION) >/dev/null
	tar -xzf .cache/noble/noble-hashes-$(NOBLE_VERSION).tgz -C .cache/noble package/LICENSE $(addprefix package/esm/,$(NOBLE_FILES))
	mv $(addprefix .cache/noble/package/esm/,$(NOBLE_FILES)) .cache/noble/package/LICENSE $(NOBLE_DIR)/
	sed -i "s#'@noble/hashes/crypto'#'./crypto.js'#" $(NOBLE_DIR)/utils.js
	rm -rf .cache/noble
	@touch $(NOBLE_STAMP)

vendor: $(NOBLE_STAMP)

# Reinstall only when the project's metadata changed.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[service,test]'
	@touch $(STAMP)

# The service on SQLite in ./data (the demo of the protocol alone: `fairdeal demo`).
run: $(STAMP) $(PYODIDE_STAMP) $(NOBLE_STAMP)
	$(BIN)/fairdeal serve

# The browser tests need Chromium: Debian's package (CI runs as root; Playwright downloads nothing).
chromium:
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

# Two workers, a test file each at a time (--dist loadfile keeps a file's module fixtures in one
# process): the browser files wait on Chromium while the other core replays records.
test: $(STAMP) chromium $(PYODIDE_STAMP) $(NOBLE_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

# The README's picture of the table (spec/screenshots/table.jpg): the test server, a Crazy Eights
# table of you and three bots, played in Chromium to the suit tokens of an eight (fixed seeds).
screenshot: $(STAMP) chromium $(NOBLE_STAMP)
	$(BIN)/python tests/browser/screenshot.py

bench: $(STAMP)
	$(BIN)/python bench/derive.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache $(PYODIDE_DIR) fairdeal/web/vendor .cache
