package planq

import "syscall"

// dieWithParent asks the kernel to SIGKILL the child when the thread that
// started it exits (pomdpq's threads live as long as pomdpq). The signal
// is not inherited by the child's own children: watchGroup covers those.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
