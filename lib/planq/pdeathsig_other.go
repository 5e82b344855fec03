//go:build !linux && !js

package planq

import "syscall"

// dieWithParent does nothing where the kernel has no parent-death signal
// (outside Linux): watchGroup alone kills the solver when pomdpq dies.
func dieWithParent(*syscall.SysProcAttr) {}
