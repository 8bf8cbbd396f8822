# Table Companion: `make test`, `make app`, `make docs`, `make bench`.
# Works on a fresh Debian machine with Python 3.11; CI runs `bash .ci/run` (CI=true).

PYTHON       ?= python3
VENV         := .venv
PY           := $(VENV)/bin/python
STAMP        := $(VENV)/.installed
APP_IP       ?= 127.0.0.1
APP_PORT     ?= 8866
# PREHEAT=1 starts a kernel per app up front: faster first render, but one idle kernel
# per notebook (memory and CPU on a small machine).
PREHEAT      ?= 0
# TOKEN=1 makes `companion app` generate a secret token and refuse visitors without it (it
# prints the URL carrying the token); use it whenever APP_IP is not 127.0.0.1.
TOKEN        ?= 0
# Server settings live in server/voila.py (allowed host names, kernel culling, kernel cap);
# `make app` runs `companion app`, which passes them on.
# The server answers only to localhost/127.0.0.1, plus APP_IP and this machine's name when
# APP_IP is a LAN address, plus the names in APP_HOSTS (comma-separated, e.g. table.lan).
APP_HOSTS    ?=
# OPEN_TABLE=1: any page may create campaigns and see the database's path even when APP_IP
# is not 127.0.0.1 (companion app --open-table; on 127.0.0.1 the table is always open).
OPEN_TABLE   ?= 0
# Most apps (kernels, ~60 MB each) running at once; a closed tab's kernel goes within 90 s.
MAX_KERNELS  ?= 16
DOCS_ADDR    ?= 127.0.0.1:8000
PYODIDE_VERSION ?= 314.0.7
PYODIDE_DIR  := docs/assets/pyodide
PYODIDE_STAMP := $(PYODIDE_DIR)/.version-$(PYODIDE_VERSION)
NPM_CACHE    := build/npm
CORE_ZIP     := docs/assets/wheels/companion-core.zip
CHROMIUM     := /usr/bin/chromium
# apt-get needs root; use sudo only when we are not root already.
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Silence the "MkDocs 2" banner a plugin prints on every build.
export NO_MKDOCS_2_WARNING := 1
export DISABLE_MKDOCS_2_WARNING := true

.PHONY: system check stress-test check-static-apps help install test lint app docs docs-assets docs-serve docs-live bench chromium postgres hub-deps clean \
	static-apps phone-apps

help:
	@echo "make app        serve the Voila apps on http://$(APP_IP):$(APP_PORT)/ (the start app first)"
	@echo "make test       ruff + mypy + every test, in parallel (builds the site, installs Chromium)"
	@echo "make check      ruff + mypy + the tests that need no browser or site (about 3 min)"
	@echo "make docs       build the reference site into site/ (offline Pyodide included)"
	@echo "make docs-serve serve the built site (apps included) on http://$(DOCS_ADDR)/"
	@echo "make bench      run the dice, store, Dice Monarchs, app, table socket, busy-table and site-visit benchmarks"

# --- environment --------------------------------------------------------------------
$(PY):
	$(PYTHON) -m venv $(VENV) || { $(APT_GET) python3-venv && $(PYTHON) -m venv $(VENV); }

# Re-install only when pyproject.toml changes (the install is editable).
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[widgets,docs,dev,store]'
	touch $@

install: $(STAMP)

# `$(APT_GET) pkg...` updates the package lists and installs. make test installs the system
# packages and the venv side by side; on a plain Debian the venv needs python3-venv too,
# and two apt-get at once fail on apt's locks: flock makes the second wait its turn.
APT_GET      := flock /tmp/table-companion-apt.lock sh -c \
	'$(SUDO) apt-get update && $(SUDO) apt-get install -y "$$@"' apt-get
# Whether each system package is there, checked the same way by every target that needs it.
HAVE_CHROMIUM := test -x $(CHROMIUM)
HAVE_POSTGRES := ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1
HAVE_NPM      := command -v npm >/dev/null

chromium:
	@$(HAVE_CHROMIUM) || $(APT_GET) chromium

# The store's tests start a throwaway PostgreSQL cluster (Debian's initdb/pg_ctl).
postgres:
	@$(HAVE_POSTGRES) || $(APT_GET) postgresql

# Every system package make test needs (Chromium, PostgreSQL, npm), in one apt-get
# (one update of the package lists, whichever are missing).
system:
	@missing=""; \
	$(HAVE_CHROMIUM) || missing="$$missing chromium"; \
	$(HAVE_POSTGRES) || missing="$$missing postgresql"; \
	$(HAVE_NPM) || missing="$$missing npm"; \
	test -z "$$missing" || $(APT_GET) $$missing

# The club deployment's tests (tests/hub) run a real JupyterHub: JupyterHub and its dummy
# authenticator into the venv, configurable-http-proxy from npm into build/npm-hub/ (the
# tests install the same when missing, and fail rather than skip if they cannot).
HUB_NPM      := build/npm-hub
hub-deps: $(STAMP)
	@$(PY) -c "import jupyterhub, dummyauthenticator" 2>/dev/null || \
		$(PY) -m pip install -q --disable-pip-version-check "jupyterhub==6.1.*" jupyterhub-dummyauthenticator
	@$(HAVE_NPM) || $(APT_GET) npm
	@test -x $(HUB_NPM)/node_modules/.bin/configurable-http-proxy || \
		npm install --prefix $(HUB_NPM) --no-audit --no-fund configurable-http-proxy@5

# --- checks -------------------------------------------------------------------------
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# Test processes (pytest-xdist): one per core by default; TEST_WORKERS=1 runs in-process.
TEST_WORKERS ?= auto
# worksteal: a worker that runs out takes queued tests from the other, so a slow browser test
# near the end does not leave one core idle.
PYTEST_PARALLEL := $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist worksteal)
# SCREENSHOTS=1 keeps a screenshot of each app state the browser tests reach (test-artifacts/).
SCREENSHOTS ?= 0

# Everything CI runs. The site tests need the built site, the browser tests need Chromium.
# Lint (one core) and the site's build (one core) run side by side: one after the other,
# a core stood idle for a minute of every CI run. The system packages (one apt-get) and
# the Python packages (pip) install side by side for the same reason: on a machine
# without Chromium, its install (about 40 s in ci30) came before pip's, not beside it.
test:
	@$(MAKE) --no-print-directory -j2 system $(STAMP)
	@$(MAKE) --no-print-directory hub-deps
	@$(MAKE) --no-print-directory -j2 lint docs
	TC_SCREENSHOTS=$(SCREENSHOTS) $(PY) -m pytest $(PYTEST_PARALLEL) --durations=25 tests/

# The fast loop while developing: lint, types and every test that needs no browser and no
# built site, in parallel (PostgreSQL included: the store's tests start their own cluster).
check: lint postgres
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "not browser and not site" tests/

# --- apps ---------------------------------------------------------------------------
# The same command a GM runs after `pipx install "table-companion[app]"` (companion/app/):
# it prints the address (with the token, if any) and where campaigns are kept.
app: $(STAMP)
	APP_HOSTS='$(APP_HOSTS)' $(VENV)/bin/companion app --port=$(APP_PORT) --ip=$(APP_IP) \
		--max-kernels=$(MAX_KERNELS) \
		$(if $(filter 1,$(PREHEAT)),--preheat) \
		$(if $(filter 1,$(OPEN_TABLE)),--open-table) \
		$(if $(filter 1,$(TOKEN)),--token)

# --- reference site -----------------------------------------------------------------
$(PYODIDE_STAMP):
	@$(HAVE_NPM) || $(APT_GET) npm
	bash tools/fetch_pyodide.sh $(PYODIDE_VERSION) $(NPM_CACHE) $(PYODIDE_DIR)
	touch $@

# Always re-packed (cheap); the zip is rewritten only when its content changes.
docs-assets: $(STAMP) $(PYODIDE_STAMP)
	$(PY) tools/build_core_zip.py $(CORE_ZIP)

docs: docs-assets
	$(PY) -m mkdocs build --strict --site-dir site
	$(MAKE) --no-print-directory static-apps

# Every app of widgets/ into site/apps/<app>.html (Pyodide + Jupyter's stand-alone widget
# manager; offline after one visit). Needs the site's Pyodide (docs-assets).
static-apps: $(STAMP) $(PYODIDE_STAMP)
	$(PY) tools/build_static_apps.py site

# The phone apps companion app serves at /phone/ (issue 44: no kernel per phone), into
# build/phone (a wheel built after this carries them as companion/app/phone/).
phone-apps: $(STAMP)
	@$(HAVE_NPM) || $(APT_GET) npm
	$(PY) tools/build_phone_apps.py build/phone --npm-cache $(NPM_CACHE)

# The built site as any static host serves it (the apps and offline copy included).
docs-serve: docs
	@echo "Table Companion site: http://$(DOCS_ADDR)/  (apps: http://$(DOCS_ADDR)/apps/)"
	$(PY) tools/serve_site.py --bind $(firstword $(subst :, ,$(DOCS_ADDR))) \
		--port $(lastword $(subst :, ,$(DOCS_ADDR))) site

# Live-reloading preview of the pages while writing them (no apps).
docs-live: docs-assets
	$(PY) -m mkdocs serve --dev-addr $(DOCS_ADDR) --watch companion --watch tools

# The static apps' browser tests alone (make test runs them too).
check-static-apps: docs chromium
	$(PY) -m pytest tests/static_apps

# A flaky-test hunt (issue 27): run TESTS (default: every browser test) RUNS times in a row
# with two CPU hogs beside them, stopping at the first failure. A browser test lands only
# after 20 runs in a row pass this way.
RUNS  ?= 20
TESTS ?= -m browser tests/
stress-test: $(STAMP) chromium postgres
	@command -v stress >/dev/null || { $(APT_GET) stress; }
	@stress --cpu 2 >/dev/null 2>&1 & hog=$$!; trap "kill $$hog" EXIT; \
	for run in $$(seq $(RUNS)); do \
		echo "== run $$run of $(RUNS) under load"; \
		$(PY) -m pytest -q -x $(TESTS) || exit 1; \
	done

bench: $(STAMP) chromium docs
	$(PY) benchmarks/run.py
	$(PY) benchmarks/store_bench.py
	$(PY) benchmarks/monarchs_bench.py
	$(PY) benchmarks/table_bench.py
	$(PY) benchmarks/table_socket_bench.py
	$(PY) benchmarks/contention_bench.py
	$(PY) benchmarks/site_visit_bench.py

clean:
	rm -rf site $(PYODIDE_DIR) docs/assets/wheels $(NPM_CACHE) $(STAMP)
