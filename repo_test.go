// Package pomdpq_test holds repository-wide checks: the repository must be
// self-sufficient in a fresh clone, so committed files may not point at
// places outside it.
package pomdpq_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// machinePath matches an absolute path that exists only on some
	// machine: a path below a home, temporary or working folder (/work,
	// /root, /home, /Users, /tmp, macOS's /private/var and /var/folders,
	// Windows' C:\Users). A
	// preceding letter, digit or one of "_.~/+-" means the text is part of a
	// longer path or a URL, or base64 data, and is not matched.
	machinePath = regexp.MustCompile(`(^|[^A-Za-z0-9_.~/+-])(/work|/root|/home|/Users|/tmp|/private/var|/var/folders)/|\b[A-Za-z]:\\+Users\\`)
	// sharedPath matches a reference to the folder of specifications and
	// third-party data kept next to the repository during development
	// ("../shared/...", "shared/data", "shared/spec", "shared/paper").
	sharedPath = regexp.MustCompile(`\.\./shared/|\bshared/(data|spec|paper)\b`)
)

// sharedAllowed reports whether a reference to ../shared is allowed on a
// line of a file. The rule: tests may read third-party inputs from there
// (through internal/shared, which skips when it is absent), so *_test.go
// files and that helper (imported by tests only, TestSharedHelperTestsOnly)
// may name it; so may a Markdown document outside notebooks/ on a line
// that is about tests (it contains "test"), to tell developers where those
// inputs come from; and so may the script that builds SARSOP for the tests
// that run it (scripts/ensure-sarsop.sh, which does nothing without
// ../shared) and the lines of the Makefile and .ci/run about it (they
// mention SARSOP). Nowhere else: code, notebooks (outputs included),
// scripts and user documentation must work and read well without it.
func sharedAllowed(file, line string) bool {
	if strings.HasSuffix(file, "_test.go") || strings.HasPrefix(file, "internal/shared/") || file == "scripts/ensure-sarsop.sh" {
		return true
	}
	if (file == "Makefile" || file == ".ci/run") && strings.Contains(strings.ToLower(line), "sarsop") {
		return true
	}
	return strings.HasSuffix(file, ".md") && !strings.HasPrefix(file, "notebooks/") &&
		strings.Contains(strings.ToLower(line), "test")
}

// TestNoMachinePaths fails, naming file:line, for every committed text
// file (git ls-files) that contains an absolute machine-specific path, or a
// reference to ../shared where sharedAllowed does not allow one. Committed
// notebook outputs are checked like the rest.
func TestNoMachinePaths(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found: cannot list the committed files")
	}
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files failed (not a git checkout?): %v", err)
	}
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) < 10 {
		t.Skipf("git ls-files lists %d files; not a checkout of the repository", len(files))
	}
	for _, file := range files {
		if fi, err := os.Lstat(filepath.FromSlash(file)); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			// A committed symbolic link: its target is its content, and
			// checking it out replaces whatever the clone has there.
			target, _ := os.Readlink(filepath.FromSlash(file))
			if filepath.IsAbs(target) || machinePath.MatchString(target) {
				t.Errorf("%s: committed symbolic link to the machine-specific path %q: untrack it (git rm --cached) and ignore it", file, target)
			}
			continue
		}
		data, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			continue // deleted in the working tree
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue // binary
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := machinePath.FindString(line); m != "" {
				m = strings.TrimLeft(m, " \t\"'`([{<=:,;")
				t.Errorf("%s:%d: machine-specific path %q: cite the source or use a path relative to the repository", file, i+1, strings.TrimSpace(m))
			}
			if m := sharedPath.FindString(line); m != "" && !sharedAllowed(file, line) {
				t.Errorf("%s:%d: %q points outside the repository: only tests may read ../shared (see sharedAllowed)", file, i+1, m)
			}
		}
	}
}

// TestPathPatterns checks the two patterns on examples.
func TestPathPatterns(t *testing.T) {
	tests := []struct {
		text            string
		machine, shared bool
	}{
		// Split so that this file passes the check it defines.
		{"see /work" + "/shared/paper/paper.tex", true, true},
		{`"/tmp` + `/gonb_123/main.go:4"`, true, false},
		{"open /home" + "/alice/x.pomdp", true, false},
		{`C:\Users` + `\bob\model.pomdp`, true, false},
		{"https://example.org/home" + "/page", false, false},
		{"datasets/models/tiger95.pomdp", false, false},
		{"../datasets/models/maze4x3.pomdp", false, false},
		{"usr/local/go/bin and /usr/local/go/bin", false, false},
		{"iVBORw0KGgo+/tmp" + "/AAAA", false, false},
		{`filepath.Join("..", "shared", "data")`, false, false},
		{"../../shared/data/pomdp", false, true},
		{"shared/spec/KERNEL.md", false, true},
		{"shared helpers", false, false},
	}
	for _, tc := range tests {
		if got := machinePath.MatchString(tc.text); got != tc.machine {
			t.Errorf("machinePath(%q) = %v, want %v", tc.text, got, tc.machine)
		}
		if got := sharedPath.MatchString(tc.text); got != tc.shared {
			t.Errorf("sharedPath(%q) = %v, want %v", tc.text, got, tc.shared)
		}
	}
	if !sharedAllowed("lib/pomdp/cassandra_test.go", "x") || !sharedAllowed("internal/shared/shared.go", "x") ||
		sharedAllowed("lib/shared.go", "x") || sharedAllowed("notebooks/README.md", "tests read ../shared") ||
		!sharedAllowed("README.md", "Some tests read ../shared/data/pomdp") || sharedAllowed("README.md", "see ../shared/spec") {
		t.Error("sharedAllowed does not follow its documented rule")
	}
}
