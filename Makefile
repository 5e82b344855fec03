# pomdpq: build, test and reproduce. `make help` lists the targets.
#
# Variables: GO (go), JUPYTER (jupyter), PYTHON (python3, standard library
# only), NB_TIMEOUT (seconds per notebook cell, 1800), NOTEBOOKS (space-separated
# notebook paths to run instead of all of notebooks/*.ipynb), CHROMIUM (the
# browser of the browser test, /usr/bin/chromium).

SHELL := /bin/bash
.DEFAULT_GOAL := help

ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
GO ?= go
JUPYTER ?= jupyter
PYTHON ?= python3
CHROMIUM ?= /usr/bin/chromium
export GO JUPYTER PYTHON CHROMIUM

# The project-local kernelspec (.jupyter/kernels/pomdpq) is found through
# JUPYTER_PATH; debugpy's frozen-modules warning is silenced.
export JUPYTER_PATH := $(ROOT)/.jupyter$(if $(JUPYTER_PATH),:$(JUPYTER_PATH))
export PYDEVD_DISABLE_FILE_VALIDATION := 1

TOOLS_STAMP := .tools/stamp
KERNELSPEC := .jupyter/kernels/pomdpq/kernel.json
GOFILES = $(shell find . -name '*.go' -not -path './.tools/*' -not -path './out/*' -not -path './.git/*')

.PHONY: help tools kernel kernel-user jupyter chromium test test-go test-scripts notebooks test-browser web \
	reproduce bench fmt vet clean distclean check-committed notebooks-update test-cluster

help:
	@echo "make reproduce   set up what is missing, reproduce every table and notebook into out/"
	@echo "make test        go vet + gofmt check, go test ./..., script tests, and every notebook"
	@echo "                 executed with the pomdpq kernel and checked (what .ci/run runs)"
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
	$(GO) test ./...
	@$(GO) test -run '^TestOracleInventory$$' -v . | sed -n 's/^ *oracles_test.go:[0-9]*: //p'

test-scripts:
	$(PYTHON) scripts/test_nbcheck.py

notebooks: jupyter kernel
	rm -rf out/test/notebooks
	scripts/run-notebooks.sh out/test/notebooks

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

test: vet test-go test-scripts check-committed notebooks test-browser

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
