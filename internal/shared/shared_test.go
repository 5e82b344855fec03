package shared

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records Skip and Fatalf instead of
// stopping the goroutine.
type recorder struct {
	testing.TB
	skipped, failed, logged string
}

func (r *recorder) Log(args ...any) { r.logged += fmt.Sprintln(args...) }

func (r *recorder) Helper()                      {}
func (r *recorder) Skip(args ...any)             { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatalf(f string, args ...any) { r.failed = fmt.Sprintf(f, args...) }

// layout makes root/parent/repo (with this module's go.mod) and, when
// withShared, root/parent/shared/data/pomdp/x.POMDP and
// root/parent/shared/tools/t-1.tar.gz; it changes the working
// directory to repo/lib/pkg and returns the repository folder.
func layout(t *testing.T, withShared bool) string {
	t.Helper()
	parent := t.TempDir()
	repo := filepath.Join(parent, "repo")
	pkg := filepath.Join(repo, "lib", "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module "+module+"\n\ngo 1.26.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A nested module of another name is not the root.
	if err := os.WriteFile(filepath.Join(repo, "lib", "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if withShared {
		dir := filepath.Join(parent, "shared", "data", "pomdp")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "x.POMDP"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		tools := filepath.Join(parent, "shared", "tools")
		if err := os.MkdirAll(tools, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tools, "t-1.tar.gz"), []byte("t"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(pkg)
	return repo
}

// TestPath: present → the path; absent → a one-line skip naming the input
// and the twin; absent with CI=true → a failure, not a skip.
func TestPath(t *testing.T) {
	t.Run("present", func(t *testing.T) {
		t.Setenv("CI", "true")
		repo := layout(t, true)
		if root, err := Root(); err != nil || root != repo {
			t.Fatalf("Root = %q, %v; want %q", root, err, repo)
		}
		r := &recorder{TB: t}
		got := Path(r, "TestTwin", "pomdp", "x.POMDP")
		if want := filepath.Join(repo, "..", "shared", "data", "pomdp", "x.POMDP"); got != want || r.skipped != "" || r.failed != "" {
			t.Errorf("Path = %q (skip %q, fail %q), want %q", got, r.skipped, r.failed, want)
		}
		if _, ok := Find("pomdp", "y.POMDP"); ok {
			t.Error("Find found a file that does not exist")
		}
		// Tools' sources are beside the data, in ../shared/tools.
		if got, ok := FindTool("t-1.tar.gz"); !ok || got != filepath.Join(repo, "..", "shared", "tools", "t-1.tar.gz") {
			t.Errorf("FindTool = %q, %v; want the tarball under ../shared/tools", got, ok)
		}
		if _, ok := FindTool("pomdp"); ok {
			t.Error("FindTool found a folder of ../shared/data")
		}
	})
	t.Run("absent", func(t *testing.T) {
		t.Setenv("CI", "")
		layout(t, false)
		if _, ok := FindTool(); ok {
			t.Error("FindTool found ../shared/tools in a layout without it")
		}
		r := &recorder{TB: t}
		Path(r, "TestTwin", "pomdp", "x.POMDP")
		if r.failed != "" || strings.Contains(r.skipped, "\n") || !strings.HasPrefix(r.skipped, "outside oracle skipped: ") ||
			!strings.Contains(r.skipped, "../shared/data/pomdp/x.POMDP absent") || !strings.Contains(r.skipped, "in-repository twin: TestTwin") {
			t.Errorf("skip %q, fail %q; want one line naming the input and the twin", r.skipped, r.failed)
		}
	})
	t.Run("absent in CI", func(t *testing.T) {
		t.Setenv("CI", "true")
		layout(t, false)
		r := &recorder{TB: t}
		Path(r, "TestTwin", "pomdp", "x.POMDP")
		if r.skipped != "" || !strings.HasPrefix(r.failed, "outside oracle cannot run: ") || !strings.Contains(r.failed, "CI=true") || !strings.Contains(r.failed, "TestTwin") {
			t.Errorf("skip %q, fail %q; want a failure naming CI and the twin", r.skipped, r.failed)
		}
	})
	t.Run("outside the repository", func(t *testing.T) {
		t.Chdir(t.TempDir())
		if _, err := Root(); err == nil {
			t.Error("Root found a repository in an empty temporary folder")
		}
		if _, ok := Find(); ok {
			t.Error("Find succeeded outside the repository")
		}
	})
}

// TestSeeds: the fuzz seeds present are returned; the absent ones are
// named on one logged line with the twin, or fail the test with CI=true.
func TestSeeds(t *testing.T) {
	for _, tc := range []struct {
		name       string
		withShared bool
		ci         string
		files      []string
		found      int
		log, fail  string // substrings; "" means none wanted
	}{
		{"all present", true, "true", []string{"x.POMDP"}, 1, "", ""},
		{"one absent", true, "", []string{"x.POMDP", "y.POMDP"}, 1, "fuzz seeds skipped, 1 of 2 absent: third-party input ../shared/data/pomdp/{y.POMDP} absent", ""},
		{"absent in CI", false, "true", []string{"x.POMDP"}, 0, "", "CI=true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			layout(t, tc.withShared)
			r := &recorder{TB: t}
			got := Seeds(r, "testdata/twin.POMDP", "pomdp", tc.files...)
			if len(got) != tc.found {
				t.Errorf("Seeds = %v, want %d paths", got, tc.found)
			}
			if tc.log == "" && r.logged != "" || tc.log != "" && (!strings.Contains(r.logged, tc.log) || strings.Count(r.logged, "\n") != 1 || !strings.Contains(r.logged, "twin: testdata/twin.POMDP")) {
				t.Errorf("logged %q, want one line with %q and the twin", r.logged, tc.log)
			}
			if tc.fail == "" && r.failed != "" || tc.fail != "" && !strings.Contains(r.failed, tc.fail) {
				t.Errorf("failed %q, want %q", r.failed, tc.fail)
			}
		})
	}
}
