#!/usr/bin/env bash
# Reproduces the paper's results into out/ (the Makefile's `reproduce` target,
# which first builds the kernel and makes sure Jupyter is there).
#
#   1. go run ./cmd/pomdpq reproduce all --out out/tables
#      (the tables, and out/tables/agreement.csv: per table the rows agreeing
#      exactly, statistically, by pattern, structural, differing with and
#      without an explanation by the table's one reading, not judged,
#      settings and ours only; readings.txt says what each reading did)
#   2. go run ./cmd/pomdpq reproduce classic-models --out out/tables
#      (our own table, no paper column: every model of datasets/models for
#      m = 1 and m ≤ 2 at the largest T within 5 s and 2 GiB per run here,
#      into out/tables/classic-models.csv and classic-models-notes.txt, a few
#      minutes; the issue's full table, 60 s and 4 GiB per run, takes about
#      40 minutes: CLASSIC_SECONDS=60 CLASSIC_MEM=4G; CLASSIC=0 skips it)
#   3. every notebook executed into out/notebooks/ and rendered into out/html/,
#      then checked (scripts/run-notebooks.sh)
#   4. a summary: for each table, the rows of each status (every row once)
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
cols = ["exact", "statistical", "pattern", "structural", "explained", "unexplained", "not_judged", "settings", "formula"]
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
if not rows or not {"table", *cols} <= set(rows[0]):
    sys.exit("agreement.csv needs the columns table," + ",".join(cols))
w = max(len("table"), *(len(r["table"]) for r in rows))
heads = ["exact", "stat.", "pattern", "structural", "explained", "unexplained", "not judged", "settings", "formula"]
print("%-*s  %s" % (w, "table", "  ".join(heads)))
total = dict.fromkeys(cols, 0)
def line(name, r):
    print("%-*s  %s" % (w, name, "  ".join("%*d" % (len(h), int(r[c])) for h, c in zip(heads, cols))))
for r in rows:
    for c in cols:
        total[c] += int(r[c])
    line(r["table"], r)
line("all", total)
agree = total["exact"] + total["statistical"] + total["pattern"]
judged = agree + total["explained"] + total["unexplained"]
print("%d of %d judged rows agree with the paper (%d exactly, %d statistically, %d by pattern); "
      "%d differ with an explanation by the table's one reading, %d without (see the note column); "
      "%d structural (fixed by the model's sizes), %d formula checks (arithmetic on the paper's constants), "
      "%d not judged, %d settings (inputs echoed back), not counted" % (
      agree, judged, total["exact"], total["statistical"], total["pattern"],
      total["explained"], total["unexplained"], total["structural"], total["formula"], total["not_judged"], total["settings"]))
PY
else
	echo "no out/tables/agreement.csv: nothing to summarize"
fi
exit $status
