package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/pomdpq/pomdpq/internal/proctest"
)

// TestShardKilled kills a shard's process (SIGKILL) while it groups its
// slice: nothing is left in the output directory, so nothing looks like a
// complete part (the part is written only at the end, atomically).
//
// The kill lands before the end whatever the machine's load: the shard's
// stderr is a pipe filled beforehand but for pipeRoom bytes, room for its
// first progress line ("load done") and not for the next ("probes done",
// written before the part is saved), so once the first line is in the
// pipe the shard can only be grouping or blocked writing the second.
func TestShardKilled(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "classes-0.pq")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	size, _, errno := syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), fGetPipeSz, 0)
	if errno != 0 || int(size) <= pipeRoom {
		t.Fatalf("pipe size %d: %v", size, errno)
	}
	fill := int(size) - pipeRoom
	if _, err := w.Write(bytes.Repeat([]byte{'#'}, fill)); err != nil { // an empty pipe: never blocks
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "quotient", "--model", "tiger", "--family", "clock", "--m", "2", "--T", "4",
		"--eps", "0,0.5", "--progress=lines", "--shard", "0/3", "--save", part)
	cmd.Env = append(os.Environ(), "POMDPQ_TEST_AS_CLI=1")
	cmd.Stderr = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close() // the shard holds the write end
	proctest.Until(t, func() bool { return unread(r) > fill }, "the shard wrote no progress line")
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("the shard exited 0 though it was killed before it could save")
	}
	out, _ := io.ReadAll(r)
	lines := strings.TrimLeft(string(out), "#")
	if !strings.Contains(lines, "load done") || strings.Contains(lines, "probes done") || strings.Contains(lines, "save") {
		t.Errorf("the shard wrote %q before the kill, want its first phase line only", lines)
	}
	left, _ := os.ReadDir(dir)
	for _, e := range left {
		t.Errorf("a killed shard left %s", e.Name())
	}
	if _, err := runCLI(t, "merge", part, "--out", filepath.Join(dir, "plan.pq")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("merge of the killed shard's part: %v", err)
	}
}

const (
	// pipeRoom is what TestShardKilled leaves free in the shard's stderr
	// pipe: a "pomdpq: load done in 0.00s" line (27 bytes) fits, a second
	// line of any phase (24 bytes or more) does not, as a write of up to
	// PIPE_BUF bytes is atomic: it waits for room for all of it.
	pipeRoom = 48
	// fGetPipeSz is Linux's F_GETPIPE_SZ fcntl.
	fGetPipeSz = 1032
)

// unread returns the bytes waiting in pipe r (FIONREAD).
func unread(r *os.File) int {
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, r.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
		return 0
	}
	return int(n)
}
