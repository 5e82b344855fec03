package repro

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestModelFilesPOMDPX: the classic-models table takes POMDPX files like
// .pomdp and .json files (any letter case), and nothing else.
func TestModelFilesPOMDPX(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.pomdpx", "a.POMDP", "c.json", "D.PomdpX", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := ModelFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, filepath.Base(f))
	}
	if want := []string{"a.POMDP", "b.pomdpx", "c.json", "D.PomdpX"}; !slices.Equal(got, want) {
		t.Errorf("ModelFiles = %v, want %v", got, want)
	}
}
