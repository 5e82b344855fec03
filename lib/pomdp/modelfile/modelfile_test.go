package modelfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/filebuild"
	"github.com/pomdpq/pomdpq/lib/pomdp/internal/pomdptest"
)

func TestLoadFileDispatch(t *testing.T) {
	m, err := Load(filepath.Join("..", "testdata", "tiger.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"t.pomdp", "T.POMDP", "t.json", "t.JSON"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := Save(path, m); err != nil {
				t.Fatal(err)
			}
			back, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := pomdptest.SameModel(back, m); err != nil {
				t.Error(err)
			}
		})
	}
	if _, err := Load(filepath.Join(dir, "model.txt")); err == nil || !strings.Contains(err.Error(), `unknown model file extension ".txt"`) {
		t.Errorf("Load(.txt): err = %v", err)
	}
	if err := Save(filepath.Join(dir, "model.txt"), m); err == nil || !strings.Contains(err.Error(), `unknown model file extension ".txt"`) {
		t.Errorf("Save(.txt): err = %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.pomdp")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing): err = %v, want fs.ErrNotExist", err)
	}
}

// TestLoadFileErrorNamesPath: errors from Load name the path and line.
func TestLoadFileErrorNamesPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.pomdp")
	if err := writeFile(path, "discount: 0.9\nvalues: reward\nstates: 2\nactions: 1\nobservations: 1\nT: 0 : 0 : 1 abc\n"); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	want := path + `:6:14: T: expected a probability, got "abc"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to contain %q", err, want)
	}
}

func TestModelName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"tiger.95.POMDP", "tiger.95"},
		{"/a/b/Tiger.pomdp", "Tiger"},
		{"x.json", "x"},
		{"noext", "noext"},
		{".pomdp", ".pomdp"},
		{"", ""},
	} {
		if got := filebuild.ModelName(tc.in); got != tc.want {
			t.Errorf("modelName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseErrorFormat(t *testing.T) {
	for _, tc := range []struct {
		e    pomdp.ParseError
		want string
	}{
		{pomdp.ParseError{File: "tiger.pomdp", Line: 12, Col: 4, Field: "T", Msg: `expected a probability, got "abc"`}, `pomdp: tiger.pomdp:12:4: T: expected a probability, got "abc"`},
		{pomdp.ParseError{File: "tiger.pomdp", Line: 12, Field: "T", Msg: "m"}, `pomdp: tiger.pomdp:12: T: m`},
		{pomdp.ParseError{File: "x.json", Field: "transitions[3].to", Msg: "m"}, `pomdp: x.json: transitions[3].to: m`},
		{pomdp.ParseError{Msg: "m"}, `pomdp: input: m`},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }

// TestLoadFilePOMDPX: Load reads .pomdpx by extension and XML content
// under another extension; Save writes .pomdpx.
func TestLoadFilePOMDPX(t *testing.T) {
	m, err := Load(filepath.Join("..", "testdata", "tiger.pomdpx"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"t.pomdpx", "T.POMDPX"} {
		path := filepath.Join(dir, name)
		if err := Save(path, m); err != nil {
			t.Fatal(err)
		}
		back, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := pomdptest.SameModel(back, m); err != nil {
			t.Error(err)
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "testdata", "tiger.pomdpx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sarsop.pomdp", "model.xml", "model.txt"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		back, err := Load(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := pomdptest.SameModel(back, m); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
