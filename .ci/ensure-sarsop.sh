#!/usr/bin/env bash
# Makes sure SARSOP's solver pomdpsol is built for the tests that run it
# (cmd/pomdpq TestSARSOPLoop): if .tools/sarsop/sarsop/src/pomdpsol is
# missing, SARSOP's source is unpacked from ../shared/tools/sarsop-*.tar.gz
# (third-party, outside the repository) into .tools/sarsop/ and built there
# (about 80 s on 2 cores). Without ../shared/tools it says so in one line and
# exits 0: the tests then skip (unless CI=true). Only .ci/run calls it;
# make test does not need ../shared.
#
# Environment: SHARED (default ../shared relative to the repository root),
# MAKEFLAGS_SARSOP (default -j2).
set -euo pipefail
cd "$(dirname "$0")/.."

SHARED="${SHARED:-../shared}"
dest=.tools/sarsop
bin="$dest/sarsop/src/pomdpsol"

if [[ -x "$bin" ]]; then
	echo "sarsop: $bin is built"
	exit 0
fi
shopt -s nullglob
tarballs=("$SHARED"/tools/sarsop-*.tar.gz)
if (( ${#tarballs[@]} == 0 )); then
	echo "sarsop: no $SHARED/tools/sarsop-*.tar.gz (third-party source outside the repository); SARSOP not built, its tests will skip"
	exit 0
fi
for t in make g++ gcc tar; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "sarsop: $t is needed to build SARSOP from ${tarballs[-1]} and is missing" >&2
		exit 1
	fi
done
start=$(date +%s)
rm -rf "$dest"
mkdir -p "$dest"
tar xzf "${tarballs[-1]}" -C "$dest"
# -fcommon: the sources define the globals IP and IR in two files, which GCC
# 10 and later refuse by default.
if ! make -C "$dest/sarsop/src" ${MAKEFLAGS_SARSOP:--j2} CC="gcc -fcommon" CXX="g++ -fcommon" >"$dest/build.log" 2>&1; then
	tail -20 "$dest/build.log" >&2
	echo "sarsop: building ${tarballs[-1]} failed (log: $dest/build.log)" >&2
	exit 1
fi
if [[ ! -x "$bin" ]]; then
	echo "sarsop: the build did not produce $bin (log: $dest/build.log)" >&2
	exit 1
fi
echo "sarsop: built $bin from $(basename "${tarballs[-1]}") in $(($(date +%s) - start)) s"
