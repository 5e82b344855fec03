# pomdpq: build, test and reproduce. `make help` lists the targets.
#
# Variables: GO (go), JUPYTER (jupyter), PYTHON (python3, standard library
# only), NB_TIMEOUT (seconds per notebook cell, 1800), NOTEBOOKS (space-separated
# notebook paths to run instead of all of notebooks/*.ipynb), NB_JOBS (notebooks
# executed at a time by make test / notebooks, 2; make reproduce runs them one
# at a time), TEST_JOBS (parts of make test run at a time, 3), FUZZTIME (per
# fuzz target of make fuzz, 5m), CHROMIUM (the browser of the browser test,
# /usr/bin/chromium).
#
# Tests come in two sizes (docs/testing.md): `make test` runs the quick form
# of every Go test (go test -short: testing.Short() skips or shortens the
# heavy acceptance runs), a fuzz smoke run and all notebooks but NB_LONG,
# in parallel; `make test-long` runs every Go test in full and the NB_LONG
# notebooks. CI (.ci/run) runs both, so every check runs in CI.

SHELL := /bin/bash
.DEFAULT_GOAL := help

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
GO ?= go
JUPYTER ?= jupyter
PYTHON ?= python3
CHROMIUM ?= /usr/bin/chromium
NB_JOBS ?= 2
TEST_JOBS ?= 3
FUZZTIME ?= 5m
export GO JUPYTER PYTHON CHROMIUM

# The project-local kernelspec (.jupyter/kernels/pomdpq) is found through
# JUPYTER_PATH; debugpy's frozen-modules warning is silenced.
export JUPYTER_PATH := $(ROOT)/.jupyter$(if $(JUPYTER_PATH),:$(JUPYTER_PATH))
export PYDEVD_DISABLE_FILE_VALIDATION := 1

TOOLS_STAMP := .tools/stamp
KERNELSPEC := .jupyter/kernels/pomdpq/kernel.json
# The notebooks that only make test-long executes (make test still checks
# their committed outputs): 06 regenerates the heavy scale tables, which
# go test -short skips too.
NB_LONG := notebooks/06-scale-sampling.ipynb
NB_SHORT = $(filter-out $(NB_LONG),$(sort $(wildcard notebooks/*.ipynb)))

GOFILES = $(shell find . -name '*.go' -not -path './.tools/*' -not -path './out/*' -not -path './.git/*')

.PHONY: help tools kernel kernel-user jupyter chromium test test-go test-scripts notebooks test-browser web \
	reproduce bench fmt vet clean distclean check-committed notebooks-update test-cluster \
	test-long test-go-long test-fuzz fuzz notebooks-short notebooks-long

help:
	@echo "make reproduce   set up what is missing, reproduce every table and notebook into out/"
	@echo "make test        go vet + gofmt check, go test -short ./..., a fuzz smoke run, script"
	@echo "                 tests, the notebooks (all but NB_LONG) executed and checked, the"
	@echo "                 browser test; independent parts in parallel (docs/testing.md)"
	@echo "make test-long   every Go test in full (the heavy acceptance runs) and the NB_LONG"
	@echo "                 notebooks; .ci/run runs make test, then make test-long"
	@echo "make fuzz        every fuzz target for FUZZTIME (5m) each"
	@echo "make tools       build GoNB and goimports (versions from go.mod) into .tools/bin"
	@echo "make kernel      write the 'Go (pomdpq)' kernelspec into .jupyter/ (kernel-user: user-wide)"
	@echo "make jupyter     check for Jupyter; install the Debian packages if root on Debian"
	@echo "make notebooks   execute and check the notebooks only (into out/test/notebooks)"
	@echo "make test-browser  run the quickstart in headless Chromium through jupyter notebook,"
	@echo "                 and a broken copy that must fail; the analyze reports; the web page"
	@echo "                 (make web first) driven end to end (screenshots in out/browser)"
	@echo "make web         build the static web page (engine in WebAssembly) into out/web;"
	@echo "                 open it with: python3 -m http.server -d out/web"
	@echo "make bench       run the Go benchmarks into out/bench.txt"
	@echo "make test-cluster  a sharded run through a single-node Slurm on localhost (installs"
	@echo "                 slurm-wlm and munge if missing; 1.5–3 min), compared with one process"
	@echo "make fmt | vet | clean | distclean"

# --- set-up ---------------------------------------------------------------

$(TOOLS_STAMP): go.mod go.sum kernel/install.sh kernel/go-shim.sh
	kernel/install.sh --tools-only
	@touch $@

tools: $(TOOLS_STAMP)

$(KERNELSPEC): $(TOOLS_STAMP) kernel/install.sh
	kernel/install.sh --kernel-only

kernel: $(KERNELSPEC)

kernel-user: $(TOOLS_STAMP)
	kernel/install.sh --kernel-only --user

jupyter:
	@scripts/ensure-jupyter.sh

# Only the browser test needs a browser (make reproduce does not).
chromium:
	@scripts/ensure-chromium.sh

# --- checks -----------------------------------------------------------------

vet:
	$(GO) vet ./...
	@unformatted="$$(gofmt -l $(GOFILES))"; \
	if [[ -n "$$unformatted" ]]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi

# After the tests, the outside oracles (tests that read third-party inputs kept
# beside the repository) and their in-repository twins, saying whether they
# ran or skipped here.
test-go:
	$(GO) test -short ./...
	@$(GO) test -run '^TestOracleInventory$$' -v . | sed -n 's/^ *oracles_test.go:[0-9]*: //p'

# Every Go test in full: what -short skips or shortens (docs/testing.md lists
# them). The timeout is the test binary's guard against a hang, not a
# performance bound (lib/repro alone takes minutes of CPU).
test-go-long:
	$(GO) test -timeout 60m ./...

# Five thousand new inputs for every fuzz target (found at run time), a
# count rather than a duration (scripts/fuzz-smoke.sh says why); make fuzz
# gives each FUZZTIME (a duration such as 5m, or a count such as 100000x).
test-fuzz:
	FUZZTIME=5000x scripts/fuzz-smoke.sh

fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz-smoke.sh

test-scripts:
	$(PYTHON) scripts/test_nbcheck.py

notebooks: jupyter kernel
	rm -rf out/test/notebooks
	NB_JOBS=$(NB_JOBS) scripts/run-notebooks.sh out/test/notebooks

# make test's share of the notebooks (a --subset run: all but NB_LONG), and
# make test-long's (NB_LONG).
notebooks-short: jupyter kernel
	rm -rf out/test/notebooks
	NOTEBOOKS="$(NB_SHORT)" NB_JOBS=$(NB_JOBS) scripts/run-notebooks.sh out/test/notebooks

notebooks-long: jupyter kernel
	rm -rf out/test/notebooks-long
	NOTEBOOKS="$(NB_LONG)" NB_JOBS=$(NB_JOBS) scripts/run-notebooks.sh out/test/notebooks-long

# The committed notebooks carry their outputs (they read well on a code
# host); check that those outputs are free of errors and show the same key
# numbers as notebooks/checks, so they cannot drift from the code unnoticed.
check-committed:
	@shopt -s nullglob; nbs=(notebooks/*.ipynb); \
	if (( $${#nbs[@]} )); then $(PYTHON) scripts/nbcheck.py --checks notebooks/checks "$${nbs[@]}"; fi

# Re-execute the notebooks in place, so that their committed outputs follow
# the code (then review and commit them).
notebooks-update: jupyter kernel
	rm -rf out/update && scripts/run-notebooks.sh out/update
	cp out/update/*.ipynb notebooks/

# The web page (web/): index.html, the engine compiled to WebAssembly and
# Go's wasm_exec.js from the toolchain (lib/wasm since Go 1.24, misc/wasm
# before), nothing else. Served by any static file server.
WEB_OUT := out/web

web:
	@mkdir -p $(WEB_OUT)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(WEB_OUT)/pomdpq.wasm ./web/wasm
	cp web/index.html $(WEB_OUT)/index.html
	@root="$$($(GO) env GOROOT)"; \
	for f in "$$root/lib/wasm/wasm_exec.js" "$$root/misc/wasm/wasm_exec.js"; do \
		if [[ -f "$$f" ]]; then cp "$$f" $(WEB_OUT)/wasm_exec.js; break; fi; \
	done; \
	if [[ ! -f $(WEB_OUT)/wasm_exec.js ]]; then echo "wasm_exec.js not found under $$root"; exit 1; fi
	@echo "$(WEB_OUT): pomdpq.wasm $$(wc -c < $(WEB_OUT)/pomdpq.wasm) bytes ($$(gzip -9 -c $(WEB_OUT)/pomdpq.wasm | wc -c) gzipped)"

# The browser tests (internal/browsertest, skipped by plain go test): the
# report of pomdpq analyze opened through file://, and the
# classic Notebook server and headless Chromium running a copy of the quickstart
# (no error, every kind of display, the ε slider redraws), and a broken copy,
# on which the check must fail naming the broken cells. Screenshots and the
# server's log go to out/browser/. TestWebPage loads out/web (make web) from a
# localhost server and runs the page's analysis of maze4x3.
test-browser: jupyter chromium kernel web
	POMDPQ_BROWSER=1 $(GO) test -count=1 -timeout 30m -v -run '^(TestNotebooksInBrowser|TestReportInBrowser|TestReportMitInBrowser|TestWebPage)$$' ./internal/browsertest

# The set-up first, one at a time (it may install packages); then the
# independent parts TEST_JOBS at a time, the longest (the notebooks) first,
# each line whole (make's --output-sync=line).
test: vet jupyter chromium kernel
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=line notebooks-short test-go test-browser test-fuzz test-scripts check-committed; \
	status=$$?; echo "make test: the parallel parts took $$(($$(date +%s) - start)) s (exit $$status)"; exit $$status

test-long: test-go-long notebooks-long

# Not part of `make test` (it starts daemons and may install packages);
# .ci/run runs it after.
test-cluster:
	GO=$(GO) scripts/test-cluster.sh

# --- results ----------------------------------------------------------------

reproduce: jupyter kernel
	scripts/reproduce.sh

bench:
	@mkdir -p out
	$(GO) test -run '^$$' -bench . -benchmem ./... | tee out/bench.txt

fmt:
	gofmt -w $(GOFILES)

clean:
	rm -rf out

distclean: clean
	rm -rf .tools .jupyter
