package modelfile

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// TestReadMatchesLoadFile reads the committed model files through Read
// (bytes at hand, no file opened) and checks that each gives the model
// Load gives, and that a malformed document names the name given and
// the line.
func TestReadMatchesLoadFile(t *testing.T) {
	for _, name := range []string{"maze4x3.pomdp", "tiger.json", "tiger-listen.json"} {
		path := filepath.Join("..", "..", "..", "datasets", "models", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Read(strings.NewReader(string(data)), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Name != want.Name || !reflect.DeepEqual(got.Actions, want.Actions) || !reflect.DeepEqual(got.Observations, want.Observations) ||
			got.NumStates() != want.NumStates() || !reflect.DeepEqual(got.T, want.T) || !reflect.DeepEqual(got.Z, want.Z) {
			t.Errorf("%s: Read and Load disagree", name)
		}
	}
	tests := []struct {
		name, text string
		line       int
	}{
		{"bad.pomdp", "discount: 0.9\nvalues: reward\nstates: 2\nactions: 1\nobservations: 1\nT: 0 : 0 : 0 bogus\n", 6},
		{"bad.json", "{\n  \"states\": 3,\n  \"nonsense\": [\n", 0},
	}
	for _, tc := range tests {
		_, err := Read(strings.NewReader(tc.text), tc.name)
		var pe *pomdp.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a *ParseError", tc.name, err)
			continue
		}
		if pe.File != tc.name || (tc.line > 0 && pe.Line != tc.line) {
			t.Errorf("%s: error %q names file %q line %d, want %q line %d", tc.name, err, pe.File, pe.Line, tc.name, tc.line)
		}
	}
	if _, err := Read(strings.NewReader("x"), "model.txt"); err == nil || !strings.Contains(err.Error(), "unknown model file extension") {
		t.Errorf("model.txt: got %v, want the unknown extension error", err)
	}
}
