# The Agora — developer entry points. `make run` and `make test` do all set-up themselves.
SHELL := /bin/bash
.DEFAULT_GOAL := help

CARGO ?= cargo
NPM ?= npm
AGORA_RELEASE := target/release/agora
AGORA_DEBUG := target/debug/agora

.PHONY: help run build build-web node-deps test test-rust test-web test-e2e test-fuzz test-cluster lint fmt \
        lint-rest cluster-checks \
        gen-api check-contract bench db-reset clean

help:
	@echo "make run            build everything, migrate, load demo content, serve on http://127.0.0.1:8080"
	@echo "make test           every check: lint, contract drift, unit, API, both engines, end-to-end, fuzzing"
	@echo "make build          release build (server binary: $(AGORA_RELEASE)) and the web client"
	@echo "make bench          load benchmarks (wrk, nginx baseline, memory, Lighthouse)"
	@echo "make test-cluster   two instances on PostgreSQL + S3 behind nginx, checked through the balancer and under faults"
	@echo "make lint | fmt | gen-api | check-contract | db-reset"

# npm packages, installed from the lock file when missing or older than it.
node_modules/.package-lock.json: package-lock.json package.json web-client/package.json ssr-renderer/package.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

node-deps: node_modules/.package-lock.json

# The web client and the sidecar, built again when one of their sources (or the npm packages)
# changed since the last build.
WEB_SOURCES := $(shell find web-client/src web-client/scripts ssr-renderer/src -type f 2>/dev/null) \
  web-client/index.html web-client/vite.config.ts web-client/tsconfig.json web-client/tsconfig.node.json \
  ssr-renderer/vite.config.ts ssr-renderer/tsconfig.json
WEB_BUILT := target/web-build.stamp
$(WEB_BUILT): node_modules/.package-lock.json $(WEB_SOURCES)
	$(NPM) run build
	@mkdir -p $(@D) && touch $@

build-web: $(WEB_BUILT)

build: build-web
	$(CARGO) build --release --locked -p agora

run: build
	$(AGORA_RELEASE) migrate
	$(AGORA_RELEASE) seed --demo
	$(AGORA_RELEASE) serve

lint: lint-rest
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

# The checks of `make lint` other than clippy's: formatting, unused dependencies, eslint + prettier.
lint-rest: node-deps
	$(CARGO) fmt --all -- --check
	scripts/unused-deps.sh
	$(NPM) run lint

# The test builds compile the workspace's crates with clippy's driver, which lints them as it
# compiles them (what `cargo clippy -- -D warnings` does, through the same variables): `make test`
# needs no separate `cargo clippy`, which would check all ~600 crates a second time (4 min on
# 2 cores from a fresh clone). The dependencies are compiled as usual, shared with plain builds.
test test-rust test-e2e test-cluster test-fuzz: export RUSTC_WORKSPACE_WRAPPER := clippy-driver
test test-rust test-e2e test-cluster test-fuzz: export CLIPPY_ARGS := -D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

fmt: node-deps
	$(CARGO) fmt --all
	$(NPM) exec -w web-client -- prettier --write .
	$(NPM) exec -w ssr-renderer -- prettier --write .

# Regenerate the contract from the code, then the TypeScript types from the contract.
gen-api: node-deps
	$(CARGO) run -q --locked -p agora -- openapi > openapi.json
	$(NPM) run gen-api

# Fails when openapi.json or the generated types differ from what the code produces.
# OPENAPI: the command printing the contract (`make test` passes the binary it built).
OPENAPI ?= $(CARGO) run -q --locked -p agora -- openapi
check-contract: node-deps
	@tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	$(OPENAPI) > $$tmp/openapi.json; \
	if ! diff -u openapi.json $$tmp/openapi.json; then \
	  echo "openapi.json differs from the code: regenerate with 'make gen-api'"; exit 1; fi; \
	$(NPM) exec -w web-client -- openapi-typescript ../openapi.json -o $$tmp/schema.d.ts >/dev/null; \
	$(NPM) exec -w web-client -- prettier --stdin-filepath src/api/schema.d.ts < $$tmp/schema.d.ts > $$tmp/schema.fmt.d.ts; \
	if ! diff -u web-client/src/api/schema.d.ts $$tmp/schema.fmt.d.ts; then \
	  echo "web-client/src/api/schema.d.ts differs from openapi.json: regenerate with 'make gen-api'"; exit 1; fi; \
	node web-client/scripts/gen-rules.mjs $$tmp/rules.gen.ts; \
	$(NPM) exec -w web-client -- prettier --stdin-filepath src/api/rules.gen.ts < $$tmp/rules.gen.ts > $$tmp/rules.fmt.ts; \
	if ! diff -u web-client/src/api/rules.gen.ts $$tmp/rules.fmt.ts; then \
	  echo "web-client/src/api/rules.gen.ts differs from openapi.json: regenerate with 'make gen-api'"; exit 1; fi; \
	echo "contract: openapi.json, generated types and field rules are up to date"

test-web: build-web
	$(NPM) test

# The commands of the checks below, without their builds (`make test` builds once, first).
RUST_TESTS := scripts/with-postgres.sh scripts/with-s3.sh $(CARGO) test --workspace --locked
# The same tests in two parts that `make test` runs side by side: the suite (tests/suite, on
# both engines), and everything else: unit tests, doc tests and each test alone in its binary
# (app/tests/*.rs, the memory tests, which measure their own process's peak).
# The suite's tests mostly wait (on mail, the outbox, claims, servers starting), so it runs six
# at a time rather than one per core: 2 cores, 281 tests, 112 s with two threads, 56 s with six
# (no faster with ten or sixteen: its longest tests take 8 s).
SUITE_TESTS := scripts/with-postgres.sh scripts/with-s3.sh $(CARGO) test --locked -p agora --test suite \
  -- --test-threads 6
OTHER_TESTS := $(CARGO) test --workspace --locked --lib --bins \
  $(patsubst app/tests/%.rs,--test %,$(wildcard app/tests/*.rs)) && $(CARGO) test --workspace --locked --doc
CLUSTER_CHECKS := scripts/together.sh \
  'cluster: scripts/with-s3.sh scripts/test-cluster.sh $(AGORA_DEBUG)' \
  'mail-crash: scripts/with-postgres.sh scripts/mail-crash-check.sh $(AGORA_DEBUG)' \
  'digest-crash: MODE=digest scripts/with-postgres.sh scripts/mail-crash-check.sh $(AGORA_DEBUG)'
FAULT_RUNS := SATURATE_SECONDS=30 scripts/with-s3.sh scripts/fault-runs.sh $(AGORA_DEBUG)
E2E := scripts/e2e.sh $(AGORA_DEBUG) && scripts/otel-check.sh $(AGORA_DEBUG)
FUZZ_VENV := target/fuzz-venv
FUZZ := SCHEMATHESIS_PYTHON=$(FUZZ_VENV)/bin/python3 scripts/with-postgres.sh scripts/fuzz.sh $(AGORA_DEBUG)

# Rust unit, API and store conformance tests; PostgreSQL too when a server can be started, and
# the S3 storage backend against a local S3-compatible server.
test-rust: build-web
	$(RUST_TESTS)

# Two instances on PostgreSQL and S3 behind nginx (deploy/nginx.conf), checked through the
# balancer; mail through instance crashes; the fault runs (sidecar saturated for 30 s, PostgreSQL
# and S3 down under load). Skipped, saying so, when PostgreSQL or nginx is not installed (unless
# REQUIRE_POSTGRES).
test-cluster: build-web
	$(CARGO) build --locked -p agora
	$(CLUSTER_CHECKS)
	$(FAULT_RUNS)

# The cluster checks alone, on what is built (a round of `make test`).
cluster-checks:
	$(CLUSTER_CHECKS)

test-e2e: build-web
	$(CARGO) build --locked -p agora
	$(E2E)

# The local S3-compatible server (moto, in its own virtualenv), installed once before checks
# that each start one run at the same time.
S3_SERVER := target/s3-venv/bin/moto_server
$(S3_SERVER): scripts/s3-requirements.txt
	scripts/with-s3.sh true

# Contract fuzzing (schemathesis, in its own virtualenv) on SQLite and PostgreSQL.
$(FUZZ_VENV)/bin/st: scripts/fuzz-requirements.txt
	python3 -m venv $(FUZZ_VENV)
	$(FUZZ_VENV)/bin/pip install -q --disable-pip-version-check -r scripts/fuzz-requirements.txt
	@touch $@

test-fuzz: build-web $(FUZZ_VENV)/bin/st
	$(CARGO) build --locked -p agora
	$(FUZZ)

# Every check. Everything is built first, in one build (compiling fills both cores) that is also
# clippy's run (see above): the test binaries and the server binary the other checks run, which
# cargo builds for the integration tests with the tests' features (a `cargo build` beside it
# would compile the modules and the crates whose features the tests change a second time).
# The set-up (npm packages and the web build, the fuzzer's and the S3 server's virtualenvs)
# runs beside it: the Rust build needs none of it, and the set-up mostly waits on downloads.
# Then the checks run in rounds of checks that share two cores well: the static checks; the
# Rust tests, the cluster checks and fuzzing, which mostly wait (on databases, on claims to
# lapse, on instances to restart); the browser suite, which keeps both cores busy; the fault
# runs, which load the machine on purpose. Each line of a round is prefixed with its check's
# name.
test:
	scripts/together.sh 'build: $(CARGO) test --workspace --locked --no-run -q' \
	  'setup: $(MAKE) build-web $(FUZZ_VENV)/bin/st $(S3_SERVER)'
	scripts/together.sh 'lint: $(MAKE) -s lint-rest' \
	  'contract: $(MAKE) -s check-contract OPENAPI="$(AGORA_DEBUG) openapi"' 'web: $(NPM) test'
	scripts/together.sh 'suite: $(SUITE_TESTS)' 'rust: $(OTHER_TESTS)' \
	  'cluster: $(MAKE) -s cluster-checks' 'fuzz: $(FUZZ)'
	$(E2E)
	$(FAULT_RUNS)
	@echo "all checks passed"

bench: build
	$(CARGO) build --release --locked -p bench-ceiling
	bench/run.sh $(AGORA_RELEASE) target/release/bench-ceiling
	bench/announce.sh $(AGORA_RELEASE)
	bench/publish.sh $(AGORA_RELEASE)
	bench/scale.sh $(AGORA_RELEASE)
	mkdir -p bench/results
	CLUSTER_PUBLISHES=50 CLUSTER_REPORT=bench/results/cluster.json \
	  scripts/with-s3.sh scripts/test-cluster.sh $(AGORA_RELEASE)

db-reset:
	rm -f data/agora.db data/agora.db-wal data/agora.db-shm

clean:
	$(CARGO) clean
	rm -rf web-client/dist ssr-renderer/dist
