# The two set-up commands (README): `make main` and `make test`.
# Both create .venv, install CPU torch first (from local disk where available),
# then the package with its extras: `make main` the `train` extra only (what it runs;
# about 1 minute on the 2-core machine); `make test` adds `dev` (the test, docs and notebook
# tools), the `distributed` extra (Ray RLlib) so that the RLlib smoke test runs (the whole
# install took 2.5 minutes on the 2-core machine), and the `openspiel` extra (open_spiel,
# a 16 MB wheel) for tests/test_openspiel.py.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
DSTAMP := $(VENV)/.installed-distributed

.PHONY: install main test browser docs docs-serve speed bench notebooks clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[train]'
	touch $(STAMP)

$(DEVSTAMP): $(STAMP)
	$(BIN)/pip install -q -e '.[train,dev]'
	touch $(DEVSTAMP)

$(DSTAMP): $(DEVSTAMP)
	$(BIN)/pip install -q -e '.[train,dev,distributed,openspiel]'
	touch $(DSTAMP)

# The package with the training and development extras (tests, docs, notebooks).
install: $(DEVSTAMP)

# Train a baseline on the default game and print the results table.
main: $(STAMP)
	$(BIN)/ether-envs main

# Debian's chromium and chromium-driver for the browser tests of `ether-envs serve` (only if
# missing; never fails: without them those tests are skipped with the reason).
browser:
	-bash .ci/install-browser

# The whole test suite (what .ci/run runs), with Ray RLlib and OpenSpiel installed, after the
# documentation site builds in strict mode (a broken link or reference fails it).
test: $(DSTAMP) browser docs
	$(BIN)/python -m pytest -n 2 --durations=15

# The documentation site (mkdocs.yml) into site/, strict and offline (not --quiet: it hides the
# warnings that strict mode counts); docs-serve previews it at
# http://127.0.0.1:8000 and rebuilds on every change.
docs: $(DEVSTAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(DEVSTAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

# Env speed: steps/s of every game's engine and wrapped env beside connect_four_v3, with the
# speed floor's verdict (CONTRIBUTING.md). `make bench` is a deprecated alias.
speed: $(DEVSTAMP)
	$(BIN)/python -m ether_envs.speed

bench:
	@echo "note: 'make bench' is deprecated; use 'make speed'" >&2
	@$(MAKE) --no-print-directory speed

# Re-execute the notebooks in place (they are committed with their outputs).
notebooks: $(DEVSTAMP)
	cd notebooks && PYTHONPATH=$(CURDIR) $(abspath $(BIN))/jupyter-execute --inplace *.ipynb

clean:
	rm -rf $(VENV) runs models results site .cache
