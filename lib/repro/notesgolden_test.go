package repro

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkGoldenNotes compares the free-text notes of a regenerated table
// (Table.Notes, shown under the table by the notebooks) with
// testdata/golden/NAME.notes.txt, one note per paragraph; with -regen it
// rewrites the file. The row notes are pinned by the table's golden CSV.
func checkGoldenNotes(t *testing.T, tab *Table) {
	t.Helper()
	path := filepath.Join("testdata", "golden", tab.Name+".notes.txt")
	var buf bytes.Buffer
	for i, n := range tab.Notes {
		if i > 0 {
			buf.WriteString("\n")
		}
		buf.WriteString(strings.TrimSpace(n) + "\n")
	}
	if *regen {
		if buf.Len() == 0 {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) && buf.Len() == 0 {
		return
	}
	if err != nil {
		t.Fatalf("%v (run with -regen to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("the notes of %s differ from %s:\n got:\n%s\nwant:\n%s", tab.Name, path, buf.String(), want)
	}
}
