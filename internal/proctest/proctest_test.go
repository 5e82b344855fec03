package proctest

import (
	"os/exec"
	"slices"
	"syscall"
	"testing"
)

// TestGroup starts a shell in a process group of its own with a child,
// sees both as members, kills the group, and sees it empty once the
// shell is reaped (the child, reparented, ends when scheduled).
func TestGroup(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		members      int
	}{
		{"leader only", "exec sleep 3600", 1},
		{"leader and child", "sleep 3600 & exec sleep 3601", 2},
	} {
		cmd := exec.Command("sh", "-c", tc.script)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pgid := cmd.Process.Pid
		Until(t, func() bool { return len(GroupMembers(pgid)) == tc.members }, tc.name+": the group's members did not start")
		if Gone(pgid) || !slices.Contains(GroupMembers(pgid), pgid) {
			t.Errorf("%s: leader %d counted gone while it runs", tc.name, pgid)
		}
		if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		WaitGroupEmpty(t, pgid)
		if !Gone(pgid) || len(GroupMembers(pgid)) != 0 {
			t.Errorf("%s: group %d not empty after the kill: %v", tc.name, pgid, GroupMembers(pgid))
		}
	}
}
