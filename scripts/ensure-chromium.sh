#!/usr/bin/env bash
# Makes sure Chromium is available for the browser test (make test-browser).
#
# If $CHROMIUM (default /usr/bin/chromium) runs, nothing is done. Otherwise, as
# root on Debian, Debian's chromium package is installed with apt-get; anywhere
# else the script says how to point the test at a Chromium or Chrome and fails.
# Only make test-browser (and so make test) calls it: make reproduce does not
# need a browser.
#
# Environment: CHROMIUM (default /usr/bin/chromium).
set -euo pipefail

CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

have_chromium() {
	[[ -x "$CHROMIUM" ]] && "$CHROMIUM" --headless --no-sandbox --version >/dev/null 2>&1
}

if have_chromium; then
	echo "chromium: $("$CHROMIUM" --headless --no-sandbox --version 2>/dev/null) at $CHROMIUM"
	exit 0
fi

if [[ "$CHROMIUM" == /usr/bin/chromium && -f /etc/debian_version ]] && command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
	echo "chromium: installing Debian package chromium"
	export DEBIAN_FRONTEND=noninteractive
	start=$(date +%s)
	apt-get update -q
	apt-get install -y -q chromium
	echo "chromium: installed in $(($(date +%s) - start)) s"
	have_chromium && exit 0
	echo "chromium: still not usable after installing the Debian package" >&2
	exit 1
fi

if [[ "$CHROMIUM" == /usr/bin/chromium ]]; then
	why="and this is not a Debian machine where this script may install one (that needs root and apt-get)"
else
	why="(CHROMIUM is set; nothing is installed for a browser elsewhere)"
fi
cat >&2 <<MSG
chromium: no usable browser at $CHROMIUM, $why.
The browser test (make test-browser, part of make test) needs Chromium or
Chrome: install it, then run make again with CHROMIUM=/path/to/chromium.
MSG
exit 1
