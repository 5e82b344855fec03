//go:build !js

package planq

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// ownGroup makes cmd the leader of its own process group, so that
// killGroup reaches the solver's children too, and, on Linux, asks the
// kernel to SIGKILL it when pomdpq dies (dieWithParent).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// watchGroup starts a watcher: a shell, in a process group of its own,
// that reads from a pipe whose only writer is this process and, when the
// pipe closes, SIGKILLs process group pgid. The pipe closes when this
// process exits in any way, SIGKILL included, so the solver's group dies
// with pomdpq even where no signal reaches it (a child the solver forked
// keeps running after its parent is gone; the parent-death signal covers
// the shell only). stop ends the watcher without killing anything; call
// it once the group has been killed and reaped.
func watchGroup(pgid int) (stop func(), err error) {
	r, w, err := os.Pipe() // close-on-exec: no other child inherits w
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("/bin/sh", "-c", `read x; kill -KILL -"$1" 2>/dev/null`, "pomdpq-solver-watcher", strconv.Itoa(pgid))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // no terminal signal reaches it
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	return func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		w.Close()
	}, nil
}
