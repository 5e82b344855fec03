package nb

import (
	"os"
	"path/filepath"
	"testing"
)

type cachedResult struct {
	Counts []int
	Name   string
}

// TestCached: the first call computes and stores, the next ones read the
// file; a corrupt file or an unwritable directory falls back to computing.
func TestCached(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	calls := 0
	compute := func() cachedResult { calls++; return cachedResult{Counts: []int{16, 14, 10}, Name: "tiger"} }
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		dir, key  string
		prepare   func()
		wantCalls int // calls of compute so far
	}{
		{"first call computes", dir, "k", nil, 1},
		{"second call reads", dir, "k", nil, 1},
		{"other key computes", dir, "k2", nil, 2},
		{"corrupt file recomputes", dir, "k", func() { os.WriteFile(filepath.Join(dir, "k.gob"), []byte("junk"), 0o644) }, 3},
		{"rewritten after corruption", dir, "k", nil, 3},
		{"unwritable dir computes", blocked, "k", nil, 4}, // blocked is a file: MkdirAll fails
		{"and computes again", blocked, "k", nil, 5},
	}
	for _, tt := range tests {
		if tt.prepare != nil {
			tt.prepare()
		}
		got := Cached(tt.dir, tt.key, compute)
		if got.Name != "tiger" || len(got.Counts) != 3 || got.Counts[2] != 10 {
			t.Errorf("%s: got %+v", tt.name, got)
		}
		if calls != tt.wantCalls {
			t.Errorf("%s: compute called %d times in all, want %d", tt.name, calls, tt.wantCalls)
		}
	}
}
