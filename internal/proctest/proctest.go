// Package proctest holds the process checks of tests that start solvers
// and children: whether a process or a process group is gone, and a wait
// for it that asserts no wall-clock deadline. A test that waits on a
// process that never goes is ended by the test binary's own -timeout,
// never by a deadline of its own (the machine may be busy; a late exit is
// not a wrong one). Linux only: it reads /proc.
package proctest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// poll is the interval between two looks at /proc.
const poll = 20 * time.Millisecond

// stat returns the state letter and the process group of process pid
// from /proc/PID/stat, ok false when there is no such process.
func stat(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, 0, false
	}
	// pid (comm) state ppid pgrp ...; comm may hold spaces and ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 {
		return 0, 0, false
	}
	g, err := strconv.Atoi(f[2])
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], g, true
}

// dead reports whether a state letter is that of an ended process (a
// zombie waiting to be reaped, or dead).
func dead(state byte) bool { return state == 'Z' || state == 'X' }

// Gone reports whether process pid has ended: no such process, or a
// zombie (killed, and not yet reaped by its parent or init).
func Gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	state, _, ok := stat(pid)
	return !ok || dead(state)
}

// GroupMembers returns the processes of process group pgid that still
// run (zombies excluded), in /proc order.
func GroupMembers(pgid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, g, ok := stat(pid); ok && g == pgid && !dead(state) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// WaitGone waits until every process of pids has ended (Gone). A process
// killed with SIGKILL ends as soon as the kernel schedules it, which on a
// busy machine may be a moment after the kill returned, so this polls;
// it has no deadline of its own and fails t only when the test's own
// deadline (go test -timeout) is about to pass.
func WaitGone(t testing.TB, pids ...int) {
	t.Helper()
	for _, pid := range pids {
		Until(t, func() bool { return Gone(pid) }, fmt.Sprintf("process %d still runs", pid))
	}
}

// WaitGroupEmpty waits until process group pgid has no running member
// (the group's leader reaped by wait and every other member killed), with
// no deadline of its own, as WaitGone.
func WaitGroupEmpty(t testing.TB, pgid int) {
	t.Helper()
	Until(t, func() bool { return len(GroupMembers(pgid)) == 0 }, fmt.Sprintf("process group %d still has members", pgid))
}

// Until polls cond until it holds, with no deadline of its own: it fails
// t with what only when the test's own deadline is about to pass.
func Until(t testing.TB, cond func() bool, what string) {
	t.Helper()
	type deadliner interface{ Deadline() (time.Time, bool) }
	var end time.Time
	if d, ok := t.(deadliner); ok {
		if dl, ok := d.Deadline(); ok {
			end = dl.Add(-5 * time.Second) // leave time to report
		}
	}
	for !cond() {
		if !end.IsZero() && time.Now().After(end) {
			t.Fatalf("%s at the test binary's deadline", what)
		}
		time.Sleep(poll)
	}
}
