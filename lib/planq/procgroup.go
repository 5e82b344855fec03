//go:build !js

package planq

import (
	"os/exec"
	"syscall"
)

// ownGroup makes cmd the leader of its own process group, so that
// killGroup reaches the solver's children too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
