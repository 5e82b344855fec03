package browsertest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// proc identifies a process by its id and start time, so that a recycled id
// is never mistaken for it.
type proc struct {
	pid   int
	start string // field 22 of /proc/PID/stat
}

// stat returns the parent id and start time of pid.
func stat(pid int) (ppid int, start string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	// The command name (field 2) is in parentheses and may contain spaces.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(string(b[i+1:])) // f[0] is field 3 (state)
	if len(f) < 20 {
		return 0, "", false
	}
	ppid, err = strconv.Atoi(f[1])
	if err != nil {
		return 0, "", false
	}
	return ppid, f[19], true
}

// pids lists the ids of all processes.
func pids() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// descendants returns the processes descended from root (not root itself).
func descendants(root int) []proc {
	children := map[int][]proc{}
	for _, pid := range pids() {
		if ppid, start, ok := stat(pid); ok {
			children[ppid] = append(children[ppid], proc{pid, start})
		}
	}
	var out []proc
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c.pid)
		}
	}
	return out
}

// kill sends SIGKILL to p if it is still the same process.
func (p proc) kill() {
	if _, start, ok := stat(p.pid); ok && start == p.start {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
}

func cmdline(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

// processesMentioning returns the live processes (other than this one) whose
// command line contains marker, a private temporary path.
func processesMentioning(marker string) []proc {
	self := os.Getpid()
	var out []proc
	for _, pid := range pids() {
		if pid == self || !strings.Contains(cmdline(pid), marker) {
			continue
		}
		if _, start, ok := stat(pid); ok {
			out = append(out, proc{pid, start})
		}
	}
	return out
}

// Leftovers describes the live processes whose command line contains one of
// markers (private temporary directories such as [Server.Dir] or a browser's
// profile directory), one "pid N: command line" line each; zombies are not
// counted. A test calls it after stopping everything, and fails on a non-empty
// result.
func Leftovers(markers ...string) []string {
	var out []string
	self := os.Getpid()
	for _, pid := range pids() {
		if pid == self {
			continue
		}
		cl := cmdline(pid)
		if cl == "" { // zombies and kernel threads have no command line
			continue
		}
		for _, m := range markers {
			if m != "" && strings.Contains(cl, m) {
				out = append(out, fmt.Sprintf("pid %d: %s", pid, cl))
				break
			}
		}
	}
	return out
}
