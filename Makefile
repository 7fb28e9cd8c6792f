# The one entry point: `make run` serves the API on a local Neo4j it starts itself; `make test` runs the
# whole suite against a throwaway Neo4j. Both set everything up on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test bench eval lint neo4j-dist clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,embed]'
	@touch $@

install: $(STAMP)

# Resolve Neo4j Community + APOC Core from Maven Central into .cognition/dist (once; Maven caches it).
neo4j-dist: install
	$(BIN)/python -c 'from graph.neo4j_local import ensure_distribution as e; print(e())'

run: neo4j-dist
	$(BIN)/cognition serve

test: neo4j-dist
	$(BIN)/pytest $(PYTEST_ARGS)

bench: neo4j-dist
	$(BIN)/python -m bench $(BENCH_ARGS)

# Recall on the LoCoMo dev split (../shared/data/locomo-dev.json or COGNITION_EVAL_DATA), on a Neo4j of its own
# (ports COGNITION_EVAL_PORTS, default 37687,37474). EVAL_ARGS=--quick for a smoke run.
eval: neo4j-dist
	$(BIN)/python -m bench.eval_recall $(EVAL_ARGS)

lint: install
	$(BIN)/ruff check graph service digest cypher tests bench
	$(BIN)/mypy

clean:
	-$(BIN)/cognition neo4j stop --instance test
	rm -rf .cognition/neo4j/test
