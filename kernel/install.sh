#!/usr/bin/env bash
# Builds the GoNB Jupyter kernel and goimports from the versions pinned in
# go.mod, and writes the "pomdpq" kernelspec that lets a notebook import
# github.com/pomdpq/pomdpq/... with no set-up cell. See kernel/README.md.
#
# Usage: kernel/install.sh [--user] [--tools-only] [--kernel-only]
#
#   (default)      build tools into .tools/bin and write the kernelspec into
#                  the project-local Jupyter data dir .jupyter/ (Jupyter finds
#                  it through JUPYTER_PATH=<repo>/.jupyter, which the Makefile sets)
#   --user         write the kernelspec user-wide instead: $JUPYTER_DATA_DIR,
#                  else `jupyter --data-dir`, else ~/.local/share/jupyter
#   --tools-only   only build the tools
#   --kernel-only  only write the kernelspec (the tools must exist)
#
# Environment: GO (default: go on PATH, else /usr/local/go/bin/go).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
bin="$root/.tools/bin"
shimdir="$root/.tools/kernel-bin"

user=0
do_tools=1
do_kernel=1
for arg in "$@"; do
	case "$arg" in
	--user) user=1 ;;
	--tools-only) do_kernel=0 ;;
	--kernel-only) do_tools=0 ;;
	-h | --help)
		sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "kernel/install.sh: unknown argument $arg (try --help)" >&2
		exit 2
		;;
	esac
done

GO="${GO:-}"
if [[ -z "$GO" ]]; then
	if command -v go >/dev/null 2>&1; then
		GO="$(command -v go)"
	elif [[ -x /usr/local/go/bin/go ]]; then
		GO=/usr/local/go/bin/go
	else
		echo "kernel/install.sh: no Go toolchain found; install Go 1.26 (see README.md)" >&2
		exit 1
	fi
fi
goroot_bin="$("$GO" env GOROOT)/bin"

if [[ $do_tools == 1 ]]; then
	mkdir -p "$bin"
	# Versions come from the tool directives in go.mod: no version listing, no @latest.
	(cd "$root" && GOTOOLCHAIN=local "$GO" build -o "$bin/" \
		github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports)
	# The go shim for the kernel (see kernel/go-shim.sh and kernel/README.md).
	module="$(sed -n 's/^module[[:space:]]*//p' "$root/go.mod" | head -n1)"
	mkdir -p "$shimdir"
	sed -e "s|@GO@|$goroot_bin/go|g" -e "s|@MODULE@|$module|g" "$here/go-shim.sh" >"$shimdir/go.tmp"
	chmod +x "$shimdir/go.tmp"
	mv "$shimdir/go.tmp" "$shimdir/go"
	echo "built gonb $(cd "$root" && "$GO" list -m -f "{{.Version}}" github.com/janpfeifer/gonb) and goimports into $bin"
	# Warm the build cache with the library and the notebook display layer
	# (gonum/plot, gota): a notebook's first cell then compiles in seconds
	# instead of about a minute on a fresh machine.
	(cd "$root" && GOTOOLCHAIN=local "$GO" build ./lib/... github.com/janpfeifer/gonb/gonbui)
fi

if [[ $do_kernel == 1 ]]; then
	for tool in bin/gonb bin/goimports kernel-bin/go; do
		if [[ ! -x "$root/.tools/$tool" ]]; then
			echo "kernel/install.sh: $root/.tools/$tool is missing; run kernel/install.sh --tools-only (or make tools) first" >&2
			exit 1
		fi
	done
	if [[ $user == 1 ]]; then
		data="${JUPYTER_DATA_DIR:-}"
		if [[ -z "$data" ]] && command -v jupyter >/dev/null 2>&1; then
			data="$(jupyter --data-dir 2>/dev/null || true)"
		fi
		data="${data:-$HOME/.local/share/jupyter}"
	else
		data="$root/.jupyter"
	fi
	kdir="$data/kernels/pomdpq"
	mkdir -p "$kdir"
	# JSON-escape the few paths we embed (backslashes and quotes).
	esc() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'; }
	# ${PATH} is expanded by jupyter_client (>= 7) from the environment of the
	# Jupyter server when it starts the kernel.
	cat >"$kdir/kernel.json" <<EOF
{
  "argv": [
    "$(esc "$bin/gonb")",
    "--kernel",
    "{connection_file}",
    "--go_work=$(esc "$root")"
  ],
  "display_name": "Go (pomdpq)",
  "language": "go",
  "interrupt_mode": "message",
  "env": {
    "PATH": "$(esc "$shimdir"):$(esc "$bin"):$(esc "$goroot_bin"):\${PATH}",
    "GOTOOLCHAIN": "local"
  },
  "metadata": {
    "pomdpq_root": "$(esc "$root")"
  }
}
EOF
	echo "wrote kernelspec $kdir/kernel.json"
	if [[ $user == 0 ]]; then
		echo "Jupyter finds it with: export JUPYTER_PATH=$root/.jupyter"
	fi
fi
