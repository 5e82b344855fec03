package verdict

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite "+RulesFile)

// TestRulesFile checks that the committed rules file, which the notebook
// checker reads, is what RulesJSON writes now (run with -update after a
// change of the rule or of the cases; TestCases checks the verdicts against
// hand-derived ones, and scripts/test_nbcheck.py checks that Python gives
// the same verdicts).
func TestRulesFile(t *testing.T) {
	want, err := RulesJSON()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", filepath.FromSlash(RulesFile))
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./lib/verdict -run TestRulesFile -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not current: run go test ./lib/verdict -run TestRulesFile -update", RulesFile)
	}
}
