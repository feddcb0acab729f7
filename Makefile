# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean chromium

# Reinstall only when the project's metadata changed.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[service,test]'
	@touch $(STAMP)

# The service on SQLite in ./data (the demo of the protocol alone: `fairdeal demo`).
run: $(STAMP)
	$(BIN)/fairdeal serve

# The browser tests need Chromium: Debian's package (CI runs as root; Playwright downloads nothing).
chromium:
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

test: $(STAMP) chromium
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/derive.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
