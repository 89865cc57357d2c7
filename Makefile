# Draw Steel monster workbench — build entry points.
#   make lab    JupyterLab on notebooks/ (creates .venv first if needed)
#   make app    the workbench page (every tool on one page, Voilà) on 127.0.0.1, no code cells
#   make test   the whole test suite: tests/ and notebooks/*.ipynb
#   make unit   tests/ without the browser tests: what CI runs on the newest Python too (PYTHON=python3.13)
#   make upgrade  newer versions within pyproject.toml's bounds into requirements.lock, then make test
# Needs only python3 (>= 3.11) on PATH; everything else goes into .venv, at the versions requirements.lock pins.

PYTHON ?= python3
# PYTHON=python3.13 works without that Python on PATH: a name that does not run there is looked up among pyenv's
# versions ($PYENV_ROOT/versions/*/bin/, the newest that has it). A Python other than the default gets its own
# .venv-X.Y (make test PYTHON=python3.13 leaves .venv alone); VENV=... names another.
ifneq ($(origin PYTHON),file)
  ifeq ($(shell command -v $(PYTHON) >/dev/null 2>&1 && $(PYTHON) -c '' 2>/dev/null && echo ok),)
    override PYTHON := $(or $(lastword $(shell ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/*/bin/$(PYTHON) 2>/dev/null | sort -V)),$(PYTHON))
  endif
  ifeq ($(origin VENV),undefined)
    VENV := .venv-$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo $(notdir $(PYTHON)))
  endif
endif
VENV   ?= .venv
PY     := $(VENV)/bin/python
UV     := $(VENV)/bin/uv
STAMP  := $(VENV)/.stamp
CHROMIUM ?= /usr/bin/chromium
CHROMIUM_SHELL ?= /usr/lib/chromium/chromium-headless-shell
LAB_ARGS ?=
APP_ARGS ?=
PYTEST_ARGS ?=
# make test runs in parallel (pytest-xdist): one worker more than the CPUs, since a browser test's worker waits on
# its page (the kernel, the server, Chromium) part of the time and the other workers' tests fill it; PYTEST_WORKERS=0
# runs in one process.
# --dist loadfile keeps a file's tests (a notebook's cells: one kernel) on one worker; tests/conftest.py
# makes all of tests/browser/ one unit (one Voilà server, one Chromium) and hands out the longest first.
ifeq ($(origin PYTEST_WORKERS),undefined)
  PYTEST_WORKERS := $(shell $(PYTHON) -c 'import os; cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") \
    else range(os.cpu_count() or 1); print(len(cpus) + 1)' 2>/dev/null || echo auto)
endif
# Left out of .venv: rfc3987-syntax (via jsonschema[format-nongpl]) builds a
# grammar at import, on every kernel that renders a plotly figure and on
# every server start; jsonschema works without it (it only checks IRI formats).
UV_EXCLUDES ?= rfc3987-syntax
# Every package of .venv at one version, with its hashes: what `make venv` installs. A universal resolution (any
# platform, Python 3.11 and later), from pyproject.toml's dependencies and its lab and test extras.
LOCK := requirements.lock
LOCK_COMPILE = $(UV) pip compile pyproject.toml --extra lab --extra test --universal --python-version 3.11 \
  --generate-hashes --excludes <(printf '%s\n' $(UV_EXCLUDES)) --custom-compile-command 'make lock' \
  --quiet -o $(LOCK)

# plotly.js's cartesian build (bar, box, scatter and a few more: all the workbench draws), from the npm registry,
# checked against its published sha512. `workbench app` serves it with the charts' own view
# (workbench/server/figure_view.js) instead of plotly's widget bundle, which carries the whole of plotly.js
# (a page compiles 1.5 MB instead of 4.8 MB). The version is the plotly.js that plotly.py's bundle carries
# (tests/test_cli_site.py checks it); an app installed without it (pip, no make) serves plotly's own bundle.
PLOTLY_JS_VERSION := 4.1.1
PLOTLY_CARTESIAN_SHA512 := a3c1ab15ebac9dcc012316c1ca7449a58e29920541e9c68cf892e9c2b2d86dbb0eedd67c149f9254dd85afe2fb9221bf67ac383f93b426eb3f42be4479f1d57a
PLOTLY_CARTESIAN := $(VENV)/share/drawsteel-workbench/plotly-cartesian-$(PLOTLY_JS_VERSION).min.js
PLOTLY_CARTESIAN_URL := https://registry.npmjs.org/plotly.js-cartesian-dist-min/-/plotly.js-cartesian-dist-min-$(PLOTLY_JS_VERSION).tgz

# Jupyter/IPython state during tests goes here, not into $HOME (tests/conftest.py
# narrows this further to a per-run temporary folder when it is loaded).
TEST_HOME := $(CURDIR)/$(VENV)/test-home
TEST_ENV  := JUPYTER_CONFIG_DIR=$(TEST_HOME)/jupyter/config \
             JUPYTER_DATA_DIR=$(TEST_HOME)/jupyter/data \
             JUPYTER_RUNTIME_DIR=$(TEST_HOME)/jupyter/runtime \
             JUPYTER_PLATFORM_DIRS=1 \
             IPYTHONDIR=$(TEST_HOME)/ipython \
             MPLCONFIGDIR=$(TEST_HOME)/matplotlib \
             XDG_CONFIG_HOME=$(TEST_HOME)/xdg-config \
             PYTHONDONTWRITEBYTECODE=
# PYTHONDONTWRITEBYTECODE= (empty: off) lets pytest keep the test modules it rewrites for its assertions in
# tests/__pycache__ instead of rewriting all of them in each worker at every run.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

.PHONY: help venv lab app test unit lint browser pdftotext lock upgrade clean

help:
	@echo "make lab      start JupyterLab on notebooks/ (http://127.0.0.1:8888, token in the URL)"
	@echo "make app      serve the workbench page (every tool on one page, Voilà) on 127.0.0.1, a free port"
	@echo "             unless APP_ARGS='--port 8866'; open the address it prints. app and test fetch plotly.js's"
	@echo "             cartesian build once (npm registry, sha512-checked) into .venv/share/drawsteel-workbench/"
	@echo "make test     run tests/ and notebooks/*.ipynb (installs .venv and a Chromium if missing);"
	@echo "             extra pytest arguments: make test PYTEST_ARGS='-k stamina -x'; one process:"
	@echo "             make test PYTEST_WORKERS=0"
	@echo "make unit     tests/ without tests/browser/ and the notebooks; on another Python: make unit PYTHON=python3.13"
	@echo "             (its own .venv-3.13; a Python not on PATH is found among pyenv's versions)"
	@echo "make lint     ruff and mypy (strict) over workbench/ and tests/; make test runs it first"
	@echo "make venv     create/refresh .venv from requirements.lock (re-installs when the lock changes)"
	@echo "make lock     re-resolve requirements.lock after a change to pyproject.toml's dependencies"
	@echo "make upgrade  the newest versions pyproject.toml allows into requirements.lock, then make test"
	@echo "make browser  make sure a Chromium for Playwright is available (printing and browser tests)"
	@echo "make clean    remove .venv, caches and test artifacts"

venv: $(STAMP)

# Re-install only when the lock, pyproject.toml or this Makefile is newer than the stamp. The lock is complete,
# so its packages go in as pinned and the project itself after them, without dependencies of its own; `uv pip
# check` then stops a lock that no longer satisfies pyproject.toml (a dependency added or bounded since).
# compileall: every Python process of a test run (kernels, Voilà, the CLI, pytest workers) then loads
# .pyc files instead of compiling jupyter, pandas, plotly ... from source, which it does every time where
# PYTHONDONTWRITEBYTECODE is set, a kernel's imports among them. Compiled once; afterwards only what is new.
$(STAMP): $(LOCK) pyproject.toml Makefile | $(UV)
	$(UV) pip install --python $(PY) --excludes <(printf '%s\n' $(UV_EXCLUDES)) -r $(LOCK)
	$(UV) pip install --python $(PY) --no-deps -e .
	@$(UV) pip check --python $(PY) >/dev/null 2>&1 || { $(UV) pip check --python $(PY); echo "error: requirements.lock does not satisfy pyproject.toml's dependencies: run make lock" >&2; exit 1; }
	$(PY) -m compileall -q -j 0 "$$($(PY) -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
	@touch $@

# .venv itself, with uv in it: what installs the lock, and what `make lock` resolves it with.
$(UV):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "error: $(PYTHON) is Python %d.%d; this project needs 3.11+ (try make PYTHON=python3.11 ...)" % sys.version_info[:2])'
	@test -x $(PY) || { echo "creating $(VENV) with $(PYTHON)"; $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --disable-pip-version-check uv

# The lab prints stat blocks (PDF/PNG) with the same Chromium the browser tests use.
lab: venv browser
	@mkdir -p notebooks
	$(VENV)/bin/jupyter lab notebooks/ --ServerApp.ip=127.0.0.1 --no-browser \
	  $$(if [ "$$(id -u)" = 0 ]; then echo --allow-root; fi) $(LAB_ARGS)

# Offline, the fetch fails and the pages use plotly's own (larger) bundle from .venv instead: said, not fatal.
app: venv
	@$(MAKE) --no-print-directory $(PLOTLY_CARTESIAN) 2>/dev/null || echo "make app: could not fetch plotly.js's cartesian build from the npm registry (offline?); the pages use plotly's own bundle"
	$(VENV)/bin/workbench app $(APP_ARGS)

# lint runs first, and mypy on one core while a collection on the other rewrites the test modules for pytest's
# assertions (kept in tests/__pycache__: see TEST_ENV), which each worker would otherwise do in turn on a fresh
# clone; the collection's own findings are the run's to report.
test: venv browser pdftotext $(PLOTLY_CARTESIAN)
	@mkdir -p $(TEST_HOME)
	@$(PY) -m compileall -q workbench  # the same for our own modules (only changed files are compiled)
	@$(TEST_ENV) $(PY) -m pytest --collect-only -q -p no:randomly -p no:cacheprovider >/dev/null 2>&1 & \
	  $(MAKE) --no-print-directory lint || { wait; exit 1; }; wait
	@echo "$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)"
	@$(TEST_ENV) $(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The unit tests alone: no Voilà page in a browser, no notebook. CI runs them on the newest Python as well as
# make test on the oldest (.ci/run). No lint: its findings do not depend on the Python that runs it.
unit: venv browser pdftotext $(PLOTLY_CARTESIAN)
	@mkdir -p $(TEST_HOME)
	@$(PY) -m compileall -q workbench
	@echo "$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile tests --ignore=tests/browser $(PYTEST_ARGS)"
	@$(TEST_ENV) $(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile tests --ignore=tests/browser $(PYTEST_ARGS)

$(PLOTLY_CARTESIAN): | $(STAMP)
	@mkdir -p $(dir $@)
	$(PY) -c 'import hashlib, io, sys, tarfile, urllib.request; \
	  data = urllib.request.urlopen(sys.argv[1], timeout=120).read(); \
	  sys.exit("error: " + sys.argv[1] + " does not match its sha512") if hashlib.sha512(data).hexdigest() != sys.argv[2] else None; \
	  open(sys.argv[3] + ".part", "wb").write(tarfile.open(fileobj=io.BytesIO(data)).extractfile("package/plotly-cartesian.min.js").read())' \
	  $(PLOTLY_CARTESIAN_URL) $(PLOTLY_CARTESIAN_SHA512) $@
	@mv $@.part $@

# The lock's own rule is not a dependency of the stamp's: a fresh clone installs the lock it has, as committed.
# `make lock` keeps every pin that still fits pyproject.toml (after a dependency is added or its bounds changed);
# `make upgrade` moves every pin to the newest version allowed, then the whole suite runs on them. Commit the
# lock once it passes; if a bound had to stay, say why in pyproject.toml.
lock: | $(UV)
	$(LOCK_COMPILE)

upgrade: | $(UV)
	$(LOCK_COMPILE) --upgrade
	$(MAKE) test

# Static checks, configured in pyproject.toml: any finding fails the target (and so make test).
lint: venv
	$(VENV)/bin/ruff check workbench tests
	$(VENV)/bin/mypy

# A Chromium for Playwright: the system one if present, else apt (as root), else
# Playwright's own download. Never skipped: fails if none of these works. Where apt can, Debian's headless
# shell comes too: the printer and the browser tests prefer it (workbench/export/printout.py).
browser: venv
	@if [ -x "$(CHROMIUM_SHELL)" ]; then \
	  echo "browser: using $(CHROMIUM_SHELL)"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "browser: installing Debian's chromium and chromium-headless-shell with apt-get"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq chromium chromium-headless-shell >/dev/null; \
	  test -x "$(CHROMIUM_SHELL)" || { echo "error: apt-get did not provide $(CHROMIUM_SHELL)" >&2; exit 1; }; \
	elif [ -x "$(CHROMIUM)" ]; then \
	  echo "browser: using $(CHROMIUM)"; \
	else \
	  echo "browser: installing Playwright's chromium"; \
	  $(PY) -m playwright install chromium; \
	  $(PY) -c 'import os, sys; from playwright.sync_api import sync_playwright; p = sync_playwright().start(); exe = p.chromium.executable_path; p.stop(); sys.exit(0 if os.path.exists(exe) else "error: no Chromium at " + exe)'; \
	fi

# pdftotext (Debian's poppler-utils): the print tests read the text of the PDFs the workbench writes.
pdftotext:
	@if command -v pdftotext >/dev/null; then \
	  true; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "pdftotext: installing Debian's poppler-utils with apt-get"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq poppler-utils >/dev/null; \
	else \
	  echo "error: the print tests need pdftotext: install poppler-utils (Debian/Ubuntu: apt-get install poppler-utils)" >&2; \
	  exit 1; \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts build dist *.egg-info
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
