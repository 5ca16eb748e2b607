# fogofwar — the two commands a newcomer needs are `make demo` and `make test`.
# Both create .venv when it is missing and install what they need into it.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip

.PHONY: demo test lint typecheck unit bench golden docs clean help

help:
	@echo "make demo    - set up .venv and serve a Specter Ops table in the browser"
	@echo "make test    - set up .venv with test extras; ruff, mypy and the whole pytest suite"
	@echo "make bench   - print the figures of docs/performance.md (bench/)"
	@echo "make golden  - regenerate golden files on purpose and show the diff"
	@echo "make docs    - draw the docs' pictures (docs/pictures/*.svg) with the real renderers"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "fogofwar needs Python >= 3.11; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# The install builds the C kernels (setup.py) in place: a changed C file builds again.
NATIVE := setup.py src/fogofwar/core/_bitsets.c src/fogofwar/core/_collector.c

$(VENV)/.installed: $(BIN)/python pyproject.toml $(NATIVE)
	$(PIP) install --quiet -e .
	@touch $@

$(VENV)/.installed-test: $(BIN)/python pyproject.toml $(NATIVE)
	$(PIP) install --quiet -e '.[test,bench]'
	@touch $@ $(VENV)/.installed

# The main job: the web table, with a Specter Ops table (you are the agent, bots hunt);
# open the printed link in a browser. Ctrl-C stops it; every table is kept.
demo: $(VENV)/.installed
	$(BIN)/fogofwar serve --new specter-ops

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/lint-imports

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy

# The suite runs on every core (pytest-xdist; work stealing evens out the few long
# tests): on 2 cores it takes about half the time of one process.
unit: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n auto --dist worksteal

# pytest exits 5 when it collects no tests; make treats any non-zero exit as failure,
# so an empty suite can never pass as green.
test: lint typecheck unit

# The docs' pictures: what the commands print, saved as SVG by rich.
docs: $(VENV)/.installed
	$(BIN)/python docs/pictures/generate.py docs/pictures

# The figures of docs/performance.md, each printed by the command the page gives (about
# 6 minutes on 2 cores). Every bench in bench/ has more options: see its docstring.
BENCHES := \
	"bench_openspiel_peer.py 8" \
	"bench_card_games.py 20" \
	"bench_server.py --tables 200 --seconds 30" \
	"bench_server.py --tables 200 --seconds 30 --workers 2" \
	"bench_server.py --tables 50 --seconds 30 --set players=5" \
	"bench_study.py 100" \
	"bench_dice.py --quick" \
	"bench_ismcts.py --speed-only --depth 20 --after 60" \
	"bench_rl.py 3"

bench: $(VENV)/.installed-test
	$(PIP) install --quiet -e '.[openspiel]' || echo "(OpenSpiel not installed: its rows are skipped)"
	@for b in $(BENCHES); do echo "== bench/$$b"; $(BIN)/python bench/$$b || exit 1; done

golden: $(VENV)/.installed-test
	FOGOFWAR_REGEN=1 $(BIN)/python -m pytest -q -k golden || true
	git --no-pager diff --stat -- tests
	git --no-pager diff -- tests

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis build dist src/*.egg-info
