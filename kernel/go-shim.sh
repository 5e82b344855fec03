#!/bin/sh
# The `go` command seen by the pomdpq Jupyter kernel. kernel/install.sh copies
# this file to .tools/kernel-bin/go with @GO@ and @MODULE@ filled in; the
# kernelspec puts that directory first on the kernel's PATH. Everything is passed
# to the real go command unchanged, with one addition, explained in
# kernel/README.md ("Why a go shim"):
#
# GoNB runs `go get` (no arguments) in its temporary module before compiling each
# cell. `go get` does not read go.work, so an import of, say, gonum or gonbui that
# the temporary go.mod does not yet require makes it ask the module proxy for the
# latest version, which the proxy refuses for some modules. When the temporary
# module has the replace rule that -go_work wrote for @MODULE@ but does not yet
# require it, the shim adds that requirement first; the module graph then
# includes the versions pinned in @MODULE@'s go.mod and `go get` resolves every
# import from them, with no version listing.
real='@GO@'
mod='@MODULE@'
mod_re=$(printf '%s' "$mod" | sed 's/[.]/\\./g')
if [ "$1" = get ] && [ -f go.work ] && [ -f go.mod ] &&
	grep -Fq "$mod =>" go.mod &&
	! grep -Eq "^[[:space:]]*(require[[:space:]]+)?$mod_re[[:space:]]+v" go.mod; then
	"$real" mod edit "-require=$mod@v0.0.0-00010101000000-000000000000" || exit $?
fi
exec "$real" "$@"
