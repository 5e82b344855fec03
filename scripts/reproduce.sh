#!/usr/bin/env bash
# Reproduces the paper's results into out/ (the Makefile's `reproduce` target,
# which first builds the kernel and makes sure Jupyter is there).
#
#   1. go run ./cmd/pomdpq reproduce all --out out/tables
#      (the tables, and out/tables/agreement.csv with columns table,agree,total)
#   2. go run ./cmd/pomdpq reproduce classic-models --out out/tables
#      (our own table, no paper column: every model of datasets/models for
#      m = 1 and m ≤ 2 at the largest T within 5 s and 2 GiB per run here,
#      into out/tables/classic-models.csv and classic-models-notes.txt, a few
#      minutes; the issue's full table, 60 s and 4 GiB per run, takes about
#      40 minutes: CLASSIC_SECONDS=60 CLASSIC_MEM=4G; CLASSIC=0 skips it)
#   3. every notebook executed into out/notebooks/ and rendered into out/html/,
#      then checked (scripts/run-notebooks.sh)
#   4. a summary: for each table, the rows agreeing with the paper / all rows
#
# Every step runs even if an earlier one failed; the exit status is non-zero
# if any failed. Disagreeing rows are reported, not treated as failures.
#
# Environment: GO (default go), PYTHON (default python3), CLASSIC,
# CLASSIC_SECONDS, CLASSIC_MEM (step 2), and those of scripts/run-notebooks.sh.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
GO="${GO:-go}"
PYTHON="${PYTHON:-python3}"
out="$root/out"
status=0

echo "== tables: go run ./cmd/pomdpq reproduce all --out out/tables"
shopt -s nullglob
cmdsrc=(cmd/pomdpq/*.go)
shopt -u nullglob
if [[ ${#cmdsrc[@]} -eq 0 ]]; then
	echo "SKIPPED: cmd/pomdpq has no Go files yet, so no tables are reproduced (the notebooks still run)" >&2
else
	start=$(date +%s)
	mkdir -p "$out/tables"
	if "$GO" run ./cmd/pomdpq reproduce all --out "$out/tables"; then
		echo "tables written to out/tables in $(($(date +%s) - start)) s"
	else
		echo "go run ./cmd/pomdpq reproduce all FAILED" >&2
		status=1
	fi
fi

echo "== classic models: go run ./cmd/pomdpq reproduce classic-models --out out/tables"
if [[ "${CLASSIC:-1}" == 0 ]]; then
	echo "SKIPPED: CLASSIC=0"
elif [[ ${#cmdsrc[@]} -gt 0 ]]; then
	start=$(date +%s)
	mkdir -p "$out/tables"
	if "$GO" run ./cmd/pomdpq reproduce classic-models --seconds "${CLASSIC_SECONDS:-5}" --mem "${CLASSIC_MEM:-2G}" --out "$out/tables"; then
		echo "out/tables/classic-models.csv written in $(($(date +%s) - start)) s"
	else
		echo "go run ./cmd/pomdpq reproduce classic-models FAILED" >&2
		status=1
	fi
fi

echo "== notebooks: out/notebooks, out/html"
scripts/run-notebooks.sh "$out/notebooks" "$out/html" || status=1

echo "== agreement with the paper"
if [[ -f "$out/tables/agreement.csv" ]]; then
	"$PYTHON" - "$out/tables/agreement.csv" <<'PY' || status=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
if not rows or not {"table", "agree", "total"} <= set(rows[0]):
    sys.exit("agreement.csv needs the columns table,agree,total")
w = max(len("table"), *(len(r["table"]) for r in rows))
print("%-*s  %s" % (w, "table", "agree/total"))
agree = total = 0
for r in rows:
    a, t = int(r["agree"]), int(r["total"])
    agree, total = agree + a, total + t
    note = ""
    if a != t:
        e = int(r.get("explained") or 0)
        note = "  (%d differ%s, %d explained: see the note column)" % (t - a, "s" if t - a == 1 else "", e)
    print("%-*s  %d/%d%s" % (w, r["table"], a, t, note))
print("%-*s  %d/%d" % (w, "all", agree, total))
PY
else
	echo "no out/tables/agreement.csv: nothing to summarize"
fi
exit $status
