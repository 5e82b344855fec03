#!/usr/bin/env bash
# Makes sure Jupyter (nbconvert, nbclient, jupyter_client) is available.
#
# If `jupyter nbconvert` already works, nothing is done. Otherwise, as root on
# Debian, the Debian packages are installed with apt-get; anywhere else the
# script explains how to get them (conda, environment.yml) and fails.
#
# Environment: JUPYTER (default jupyter).
set -euo pipefail

JUPYTER="${JUPYTER:-jupyter}"
packages=(jupyter-nbconvert jupyter-client python3-nbclient jupyter-notebook)

have_jupyter() {
	"$JUPYTER" nbconvert --version >/dev/null 2>&1 &&
		"$JUPYTER" kernelspec --version >/dev/null 2>&1
}

if have_jupyter; then
	echo "jupyter: nbconvert $("$JUPYTER" nbconvert --version 2>/dev/null) at $(command -v "$JUPYTER")"
	exit 0
fi

if [[ -f /etc/debian_version ]] && command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
	echo "jupyter: installing Debian packages ${packages[*]}"
	export DEBIAN_FRONTEND=noninteractive
	start=$(date +%s)
	apt-get update -q
	apt-get install -y -q "${packages[@]}"
	echo "jupyter: installed in $(($(date +%s) - start)) s"
	if [[ "$JUPYTER" == jupyter ]] && ! have_jupyter && [[ -x /usr/bin/jupyter ]]; then
		echo "jupyter: note: another 'jupyter' comes first on PATH; run make with JUPYTER=/usr/bin/jupyter" >&2
	fi
	have_jupyter && exit 0
	echo "jupyter: still not usable after installing the Debian packages" >&2
	exit 1
fi

cat >&2 <<MSG
jupyter: Jupyter with nbconvert is not available, and this is not a Debian
machine where this script may install it (that needs root and apt-get).
Install it with conda from the project's environment.yml:

    conda env create -f environment.yml
    conda activate pomdpq

then run make again (or point JUPYTER=/path/to/jupyter at an existing one).
MSG
exit 1
