#!/usr/bin/env bash
# A CI-sized smoke run of every fuzz target of the repository: each target
# found at run time (`func FuzzX(` in a *_test.go file, so targets that move
# between packages are still found) is fuzzed for FUZZTIME (default 5000x:
# five thousand new inputs) with one worker, packages one after the other.
# A count, not a duration, by default: with a duration Go's fuzzing
# coordinator runs under a deadline, and on a loaded machine it can end a run
# with "context deadline exceeded" although no input failed; a count has no
# deadline. With a duration (make fuzz FUZZTIME=5m) such an ending, with no
# failing input written, is reported as a warning, not a failure. Its seed corpus (f.Add and
# testdata/fuzz) already runs in every `go test`; this adds new inputs. The
# long runs (≥ 5 minutes per target of a parser one changes) are
# `make fuzz FUZZTIME=5m`.
#
# Usage: scripts/fuzz-smoke.sh            (FUZZTIME=5000x, GO=go)
# Exit status: non-zero if a target fails (the failing input is written
# under the package's testdata/fuzz/, as go test -fuzz does) or none is found.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
GO="${GO:-go}"
fuzztime="${FUZZTIME:-5000x}"

# "dir name" pairs, sorted, from the test files that define fuzz targets.
mapfile -t targets < <(grep -rE --include='*_test.go' -o '^func Fuzz[A-Za-z0-9_]*\(' \
	--exclude-dir=.git --exclude-dir=out --exclude-dir=.tools . |
	sed -E 's|^\./(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\($|\1 \2|' | sort -u)
if [[ ${#targets[@]} -eq 0 ]]; then
	echo "fuzz-smoke: no fuzz targets found" >&2
	exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failed=()
start=$(date +%s)
built=""
for t in "${targets[@]}"; do
	read -r dir name <<<"$t"
	bin="$tmp/$(tr / _ <<<"$dir").test"
	# One instrumented test binary per package (go test -fuzz would link
	# one per target).
	if [[ "$built" != "$dir" ]]; then
		if ! "$GO" test -c -fuzz=. -o "$bin" "./$dir" >"$tmp/build.log" 2>&1; then
			cat "$tmp/build.log" >&2
			failed+=("./$dir (build)")
			continue
		fi
		built="$dir"
	fi
	# Run in the package's folder (its testdata/fuzz corpus, where a
	# failing input is written); the fuzz cache stays in the temporary folder.
	if ! out="$(cd "$dir" && "$bin" -test.run='^$' -test.fuzz="^${name}\$" -test.fuzztime="$fuzztime" \
		-test.parallel=1 -test.fuzzcachedir="$tmp/cache" 2>&1)"; then
		if grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
			echo "fuzz-smoke: warning ./$dir $name: the fuzzing engine's deadline ended the run; no input failed" >&2
			continue
		fi
		echo "$out" >&2
		echo "fuzz-smoke: FAIL ./$dir $name" >&2
		failed+=("./$dir $name")
	else
		# The last progress line says how many inputs were tried.
		execs="$(grep -o 'execs: [0-9]*' <<<"$out" | tail -n 1 || true)"
		echo "fuzz-smoke: ok ./$dir $name (${execs:-no progress line}; $fuzztime)"
	fi
done
echo "fuzz-smoke: ${#targets[@]} targets, ${#failed[@]} failed, $(($(date +%s) - start)) s"
[[ ${#failed[@]} -eq 0 ]]
