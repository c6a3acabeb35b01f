# Strata build entry points. `make serve` and `make test` are the two commands a fresh machine needs.
SHELL := /bin/bash
NODE ?= node
PORT ?= 8086
TEST_CONCURRENCY ?= 2

.PHONY: install build serve test test-only lint clean binary binary-if-tools perf

node_modules/.install-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

build: install
	npx tsc -p tsconfig.json

# Data (WAL, meta, engine files) under ./data unless SERVICE__... env vars say otherwise.
# Node runs with its default heap settings, as perf/http-ingest-bench.ts starts it: a larger
# young generation (--max-semi-space-size=64, used before) only raised peak RSS by ~20 MiB now
# that parsing runs in a worker and the event loop allocates little per point (perf/README.md).
serve: build
	@mkdir -p data
	SERVICE__STORAGE__WAL_DIR=$${SERVICE__STORAGE__WAL_DIR:-./data/wal} \
	SERVICE__STORAGE__META_DIR=$${SERVICE__STORAGE__META_DIR:-./data/meta} \
	SERVICE__CHDB__SESSION_DATA_PATH=$${SERVICE__CHDB__SESSION_DATA_PATH:-./data/engine} \
	SERVICE__SERVER__PORT=$${SERVICE__SERVER__PORT:-$(PORT)} \
	$(NODE) build/cli/main.js serve $(SERVE_ARGS)

# Fresh install (npm ci), build, lint, then every *.test.js with Node's test runner.
test:
	npm ci --no-audit --no-fund
	@touch node_modules/.install-stamp
	$(MAKE) --no-print-directory test-only

# The tests run with TMPDIR set to a fresh directory that must be empty afterwards: a test that
# leaves a temporary directory behind fails the run (.ci/no-temp-leaks.sh).
test-only: build lint-only binary-if-tools
	.ci/no-temp-leaks.sh $(NODE) --test --test-concurrency=$(TEST_CONCURRENCY) $$(find build -name '*.test.js' | sort)

lint: build lint-only

lint-only:
	$(NODE) .ci/lint.mjs

clean:
	rm -rf build dist

# Single executable for this platform (Node SEA, no download): dist/strata. Needs the devDependencies
# esbuild and postject (or STRATA_SEA_TOOLS=<a node_modules dir holding them>). See cli/sea/build.mjs.
binary: build
	$(NODE) cli/sea/build.mjs

# For the tests (cli/binary.test.ts): build dist/strata when esbuild and postject are installed.
binary-if-tools: build
	@if $(NODE) cli/sea/build.mjs --check-tools >/dev/null 2>&1; then $(NODE) cli/sea/build.mjs; \
	else echo "binary: esbuild/postject not installed; dist/strata not built (cli/binary.test.ts skips)"; fi
