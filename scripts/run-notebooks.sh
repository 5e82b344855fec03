#!/usr/bin/env bash
# Executes notebooks headlessly with the pomdpq kernel and checks them.
#
# Usage: scripts/run-notebooks.sh OUT_DIR [HTML_DIR]
#
# Every notebooks/*.ipynb (or those named in $NOTEBOOKS, space-separated) is
# executed by `jupyter nbconvert --execute` into OUT_DIR/NAME.ipynb, with the
# kernel's log in OUT_DIR/NAME.log; with HTML_DIR, each executed notebook is
# also rendered to HTML_DIR/NAME.html. Then scripts/nbcheck.py checks every
# notebook asked for (one that did not run fails it too) against
# notebooks/checks/NAME.json (see notebooks/README.md); with $NOTEBOOKS set, the
# run is a --subset, and the checks of the other notebooks need not run. The
# exit status is non-zero if a notebook could not be executed or a check failed.
#
# Environment: JUPYTER (default jupyter), PYTHON (default python3),
# NB_TIMEOUT (seconds per cell, default 1800), NB_JOBS (notebooks executed
# at a time, each in its own kernel, default 1; make test uses 2). The kernelspec must be installed
# (make kernel) and findable through JUPYTER_PATH (the Makefile sets it).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: scripts/run-notebooks.sh OUT_DIR [HTML_DIR]}"
html="${2:-}"
JUPYTER="${JUPYTER:-jupyter}"
PYTHON="${PYTHON:-python3}"
timeout="${NB_TIMEOUT:-1800}"
export PYDEVD_DISABLE_FILE_VALIDATION=1

subset=()
if [[ -n "${NOTEBOOKS:-}" ]]; then
	read -r -a nbs <<<"$NOTEBOOKS"
	subset=(--subset)
else
	shopt -s nullglob
	nbs=("$root"/notebooks/*.ipynb)
	shopt -u nullglob
fi
if [[ ${#nbs[@]} -eq 0 ]]; then
	echo "no notebooks in notebooks/: nothing to execute"
	exit 0
fi

mkdir -p "$out"
[[ -n "$html" ]] && mkdir -p "$html"
jobs_max="${NB_JOBS:-1}"
if ! [[ "$jobs_max" =~ ^[1-9][0-9]*$ ]]; then
	echo "NB_JOBS must be a positive integer, not '$jobs_max'" >&2
	exit 2
fi

# run_one executes notebook $1 into $out (and renders it into $html); on
# failure it leaves $out/NAME.failed behind, for the summary below.
run_one() {
	local nb="$1" name log start
	name="$(basename "$nb" .ipynb)"
	log="$out/$name.log"
	start=$(date +%s)
	# --allow-errors keeps going after a failing cell so that the executed
	# notebook is always written; nbcheck.py then fails on its error outputs.
	if "$JUPYTER" nbconvert --to notebook --execute --allow-errors \
		--ExecutePreprocessor.kernel_name=pomdpq \
		--ExecutePreprocessor.timeout="$timeout" \
		--output-dir "$out" --output "$name" "$nb" >"$log" 2>&1; then
		echo "executed $name in $(($(date +%s) - start)) s -> $out/$name.ipynb"
		if [[ -n "$html" ]]; then
			if ! "$JUPYTER" nbconvert --to html --output-dir "$html" "$out/$name.ipynb" >>"$log" 2>&1; then
				echo "rendering $name to HTML failed; see $log" >&2
				touch "$out/$name.failed"
			fi
		fi
	else
		echo "executing $name FAILED after $(($(date +%s) - start)) s; last lines of $log:" >&2
		tail -n 25 "$log" >&2
		touch "$out/$name.failed"
	fi
}

outputs=()
for nb in "${nbs[@]}"; do
	name="$(basename "$nb" .ipynb)"
	# A stale output of an earlier run must not stand in for this one.
	rm -f "$out/$name.ipynb" "$out/$name.failed"
	outputs+=("$out/$name.ipynb")
	# NB_JOBS notebooks at a time (each in a kernel of its own).
	while (($(jobs -rp | wc -l) >= jobs_max)); do
		wait -n || true
	done
	run_one "$nb" &
done
wait
failed=()
for nb in "${nbs[@]}"; do
	name="$(basename "$nb" .ipynb)"
	if [[ -e "$out/$name.failed" ]]; then
		failed+=("$name")
	fi
done

status=0
# Every notebook asked for is checked: one whose execution failed before
# nbconvert wrote it fails as "did not run".
"$PYTHON" "$root/scripts/nbcheck.py" --checks "$root/notebooks/checks" ${subset[@]+"${subset[@]}"} "${outputs[@]}" || status=1
if [[ ${#failed[@]} -gt 0 ]]; then
	echo "notebooks that did not run: ${failed[*]}" >&2
	status=1
fi
exit $status
