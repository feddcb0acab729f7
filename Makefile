# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean chromium pyodide

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

# Reinstall only when the project's metadata changed.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[service,test]'
	@touch $(STAMP)

# The service on SQLite in ./data (the demo of the protocol alone: `fairdeal demo`).
run: $(STAMP) $(PYODIDE_STAMP)
	$(BIN)/fairdeal serve

# The browser tests need Chromium: Debian's package (CI runs as root; Playwright downloads nothing).
chromium:
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

# Two workers, a test file each at a time (--dist loadfile keeps a file's module fixtures in one
# process): the browser files wait on Chromium while the other core replays records.
test: $(STAMP) chromium $(PYODIDE_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

bench: $(STAMP)
	$(BIN)/python bench/derive.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache $(PYODIDE_DIR) .cache
