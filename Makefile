# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench clean chromium pyodide vendor axe screenshot

# Let Python keep the modules it compiles (some shells set PYTHONDONTWRITEBYTECODE): otherwise every
# server and command the tests start compiles fairdeal's modules again, and pytest rewrites every
# test file's asserts again in each worker.
unexport PYTHONDONTWRITEBYTECODE

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

# uqr's QR encoder, for the seat links' QR codes (lobby and table): the pinned npm package's one
# ES module, into gitignored fairdeal/web/vendor/uqr/ (served at /vendor/uqr/), its licence kept.
UQR_VERSION := 0.1.3
UQR_DIR := fairdeal/web/vendor/uqr
UQR_STAMP := $(UQR_DIR)/.fetched-$(UQR_VERSION)

$(UQR_STAMP):
	@command -v npm >/dev/null || (apt-get update && apt-get install -y npm)
	rm -rf $(UQR_DIR) .cache/uqr && mkdir -p $(UQR_DIR) .cache/uqr
	cd .cache/uqr && npm pack --silent uqr@$(UQR_VERSION) >/dev/null
	tar -xzf .cache/uqr/uqr-$(UQR_VERSION).tgz -C .cache/uqr package/LICENSE package/dist/index.mjs
	mv .cache/uqr/package/dist/index.mjs .cache/uqr/package/LICENSE $(UQR_DIR)/
	rm -rf .cache/uqr
	@touch $(UQR_STAMP)


# Card faces: Adrian Kennard's SVG deck (court figures drawn in the French pattern, released CC0),
# as the pinned npm package @heruka_urgyen/react-playing-cards ships it, MIT. Only the
# 52 faces of its two-colour set with big corner indexes (readable when a hand overlaps) and the
# back; the package's LICENSE and README (which names the deck and its licence) are kept. The
# files are named by the same codes as ours ("TD.svg"), so the pages map a code to its file.
CARDS_VERSION := 0.5.0
CARDS_DIR := fairdeal/web/vendor/playing-cards
CARDS_STAMP := $(CARDS_DIR)/.fetched-$(CARDS_VERSION)
CARDS_FACES := $(foreach s,C D H S,$(foreach r,A 2 3 4 5 6 7 8 9 T J Q K,$(r)$(s).svg))

$(CARDS_STAMP):
	@command -v npm >/dev/null || (apt-get update && apt-get install -y npm)
	rm -rf $(CARDS_DIR) .cache/cards && mkdir -p $(CARDS_DIR) .cache/cards
	cd .cache/cards && npm pack --silent @heruka_urgyen/react-playing-cards@$(CARDS_VERSION) >/dev/null
	@echo "tar -xzf heruka_urgyen-react-playing-cards-$(CARDS_VERSION).tgz: 52 faces of 2color-bf/, back.svg, LICENSE, README.md"
	@tar -xzf .cache/cards/heruka_urgyen-react-playing-cards-$(CARDS_VERSION).tgz -C $(CARDS_DIR) --transform 's#.*/##' \
	  package/LICENSE package/README.md package/src/images/back.svg $(addprefix package/src/images/2color-bf/,$(CARDS_FACES))
	rm -rf .cache/cards
	@touch $(CARDS_STAMP)

# The bot's avatar: one icon of Bootstrap Icons (MIT), the pinned npm package, with its LICENSE.
ICONS_VERSION := 1.13.2
ICONS_DIR := fairdeal/web/vendor/bootstrap-icons
ICONS_STAMP := $(ICONS_DIR)/.fetched-$(ICONS_VERSION)
ICONS_FILES := robot.svg

$(ICONS_STAMP):
	@command -v npm >/dev/null || (apt-get update && apt-get install -y npm)
	rm -rf $(ICONS_DIR) .cache/icons && mkdir -p $(ICONS_DIR) .cache/icons
	cd .cache/icons && npm pack --silent bootstrap-icons@$(ICONS_VERSION) >/dev/null
	tar -xzf .cache/icons/bootstrap-icons-$(ICONS_VERSION).tgz -C .cache/icons package/LICENSE $(addprefix package/icons/,$(ICONS_FILES))
	mv $(addprefix .cache/icons/package/icons/,$(ICONS_FILES)) .cache/icons/package/LICENSE $(ICONS_DIR)/
	rm -rf .cache/icons
	@touch $(ICONS_STAMP)

VENDOR_STAMPS := $(NOBLE_STAMP) $(UQR_STAMP) $(CARDS_STAMP) $(ICONS_STAMP)

# axe-core, for the browser tests only (tests/browser/axe.py injects it into the pages they check
# and runs it): the pinned npm package's one minified script and its licence, into gitignored
# .cache/axe-core/ (the app never serves it).
AXE_VERSION := 4.14.1
AXE_DIR := .cache/axe-core
AXE_STAMP := $(AXE_DIR)/.fetched-$(AXE_VERSION)

$(AXE_STAMP):
	@command -v npm >/dev/null || (apt-get update && apt-get install -y npm)
	rm -rf $(AXE_DIR) .cache/axe-pack && mkdir -p $(AXE_DIR) .cache/axe-pack
	cd .cache/axe-pack && npm pack --silent axe-core@$(AXE_VERSION) >/dev/null
	tar -xzf .cache/axe-pack/axe-core-$(AXE_VERSION).tgz -C .cache/axe-pack package/LICENSE package/axe.min.js
	mv .cache/axe-pack/package/axe.min.js .cache/axe-pack/package/LICENSE $(AXE_DIR)/
	rm -rf .cache/axe-pack
	@touch $(AXE_STAMP)

axe: $(AXE_STAMP)

vendor: $(VENDOR_STAMPS)

# Reinstall only when the project's metadata changed.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[service,test]'
	@touch $(STAMP)

# The example game plugin (examples/switch/), installed into the venv for the tests, which play
# it through every driver: a package outside fairdeal that registers a game (fairdeal.games).
PLUGIN_STAMP := $(VENV)/.plugin-switch
$(PLUGIN_STAMP): $(STAMP) examples/switch/pyproject.toml
	$(BIN)/python -m pip install --quiet --no-deps -e examples/switch
	@touch $(PLUGIN_STAMP)

# The TypeScript client test's npm packages (tests/ts-client: openapi-typescript writes its types from
# /openapi.json, typescript checks and builds it), as its package-lock.json pins them.
TS_CLIENT_STAMP := tests/ts-client/node_modules/.installed
$(TS_CLIENT_STAMP): tests/ts-client/package-lock.json
	@command -v npm >/dev/null || (apt-get update && apt-get install -y npm)
	cd tests/ts-client && npm ci --no-audit --no-fund --silent
	@touch $(TS_CLIENT_STAMP)

# The service on SQLite in ./data (the demo of the protocol alone: `fairdeal demo`).
run: $(STAMP) $(PYODIDE_STAMP) $(VENDOR_STAMPS)
	$(BIN)/fairdeal serve

# The browser tests need Chromium: Debian's packages (CI runs as root; Playwright downloads nothing).
# The tests drive chromium-headless-shell, the same engine without the desktop browser around it:
# a quarter less CPU a page, and the browser tests are most of the suite's time.
chromium:
	@command -v chromium >/dev/null && command -v chromium-headless-shell >/dev/null || \
		(apt-get update && apt-get install -y chromium chromium-headless-shell)

# Two workers, a test file each at a time (--dist loadfile keeps a file's module fixtures in one
# process): the browser files wait on Chromium while the other core replays records.
test: $(STAMP) $(PLUGIN_STAMP) $(TS_CLIENT_STAMP) chromium $(PYODIDE_STAMP) $(VENDOR_STAMPS) $(AXE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

# The README's picture of the table (spec/screenshots/table.jpg): the test server, a Crazy Eights
# table of you and three bots, played in Chromium to the suit tokens of an eight (fixed seeds).
screenshot: $(STAMP) chromium $(NOBLE_STAMP)
	$(BIN)/python tests/browser/screenshot.py

bench: $(STAMP)
	$(BIN)/python bench/derive.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache $(PYODIDE_DIR) fairdeal/web/vendor .cache tests/ts-client/node_modules
