// Package pomdpq_test holds repository-wide checks: the repository must be
// self-sufficient in a fresh clone, so committed files may not point at
// places outside it.
package pomdpq_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
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
// that run it (.ci/ensure-sarsop.sh, which does nothing without
// ../shared) and the lines of the Makefile and .ci/run about it (they
// mention SARSOP). Nowhere else: code, notebooks (outputs included),
// scripts and user documentation must work and read well without it.
func sharedAllowed(file, line string) bool {
	if strings.HasSuffix(file, "_test.go") || strings.HasPrefix(file, "internal/shared/") || file == ".ci/ensure-sarsop.sh" {
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
		{"shared/spec/notes.txt", false, true},
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

// References to Markdown files. A committed file may cite a Markdown
// document only if the repository contains it: the specifications kept
// beside the repository during development are not part of a clone, and
// the repository's own pages are under docs/.
var (
	// upperMD matches a Markdown file named in capitals (README.md), with an
	// optional relative directory and #anchor. Group 1 is the path, group 2
	// the anchor.
	upperMD = regexp.MustCompile(`(?:^|[^\w./-])((?:[\w.-]+/)*[A-Z][A-Z0-9_]{3,}\.md)(#[\p{L}\p{N}_-]+)?`)
	// docsMD matches a page of docs/ ("docs/conventions.md#stand-ins",
	// "../docs/agreement.md").
	docsMD = regexp.MustCompile(`(?:^|[^\w./-])((?:\.\./)*docs/[\w.-]+\.md)(#[\p{L}\p{N}_-]+)?`)
	// mdLink matches the target of a Markdown link or image, [text](target).
	mdLink = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	// url matches an absolute URL, whose paths are not the repository's.
	url = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>()\[\]]+`)
	// heading matches an ATX heading; anchorTag an explicit HTML anchor.
	heading   = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	anchorTag = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	// linkText and htmlTag reduce a heading to its rendered text.
	linkText = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag  = regexp.MustCompile(`<[^>]+>`)
)

// repo is the set of committed files and their directories, and the
// anchors of the Markdown files read so far.
type repo struct {
	files, dirs map[string]bool
	anchors     map[string]map[string]bool
}

func newRepo(files []string) *repo {
	r := &repo{files: map[string]bool{}, dirs: map[string]bool{"": true}, anchors: map[string]map[string]bool{}}
	for _, f := range files {
		r.files[f] = true
		for d := path.Dir(f); d != "."; d = path.Dir(d) {
			r.dirs[d] = true
		}
	}
	return r
}

// exists reports whether p (slash-separated, relative to the root) is a
// committed file or a directory holding one.
func (r *repo) exists(p string) bool {
	p = path.Clean(p)
	if p == "." {
		return true
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return false // outside the repository
	}
	return r.files[p] || r.dirs[p]
}

// resolve returns the path that ref names when written in file: relative
// to file's directory or, for prose (up = true), to any directory above it
// up to the root. ok is false when none exists.
func (r *repo) resolve(file, ref string, up bool) (string, bool) {
	dir := path.Dir(file)
	for {
		p := path.Clean(path.Join(dir, ref))
		if r.exists(p) {
			return p, true
		}
		if !up || dir == "." {
			return "", false
		}
		dir = path.Dir(dir)
	}
}

// hasAnchor reports whether the Markdown file md (a committed path) has a
// heading or an explicit anchor with the given GitHub anchor.
func (r *repo) hasAnchor(md, anchor string) bool {
	a, ok := r.anchors[md]
	if !ok {
		data, err := os.ReadFile(filepath.FromSlash(md))
		if err != nil {
			return false
		}
		a = anchorsOf(string(data))
		r.anchors[md] = a
	}
	return a[anchor]
}

// anchorsOf returns the anchors GitHub gives the headings of a Markdown
// document (slug, then slug-1, slug-2, … for repeats), outside fenced code
// blocks, and its explicit <a id> / <a name> anchors.
func anchorsOf(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fence := ""
	for _, line := range strings.Split(doc, "\n") {
		trim := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			continue
		}
		for _, m := range anchorTag.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			s := slug(m[1])
			if n := seen[s]; n > 0 {
				out[fmt.Sprintf("%s-%d", s, n)] = true
			} else {
				out[s] = true
			}
			seen[s]++
		}
	}
	return out
}

// slug returns GitHub's anchor for a heading: the rendered text (links
// reduced to their text, tags dropped) in lower case, without the
// characters that are not letters, marks, digits, connectors, spaces or
// hyphens, and with each space replaced by a hyphen.
func slug(h string) string {
	h = linkText.ReplaceAllString(h, "$1")
	h = htmlTag.ReplaceAllString(h, "")
	var b strings.Builder
	for _, c := range strings.ToLower(h) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || unicode.In(c, unicode.L, unicode.M, unicode.N, unicode.Pc):
			b.WriteRune(c)
		}
	}
	return b.String()
}

// committedFiles lists the committed files (git ls-files), or skips.
func committedFiles(t *testing.T) []string {
	t.Helper()
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
	return files
}

// docText is a piece of a committed file checked for references: the
// whole file, or one cell (source or outputs) of a notebook.
type docText struct {
	where    string // "file" or "file (cell N)"
	text     string
	markdown bool // Markdown: its links are checked too
}

// docTexts splits a committed file into the texts checked for references.
// A notebook gives one text per cell: markdown cells are Markdown, code
// cells are checked with their outputs as prose.
func docTexts(file string, data []byte) ([]docText, error) {
	if !strings.HasSuffix(file, ".ipynb") {
		return []docText{{file, string(data), strings.HasSuffix(file, ".md")}}, nil
	}
	var nb struct {
		Cells []struct {
			Type    string `json:"cell_type"`
			Source  any    `json:"source"`
			Outputs []struct {
				Text any            `json:"text"`
				Data map[string]any `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, err
	}
	var out []docText
	for i, c := range nb.Cells {
		where := fmt.Sprintf("%s (cell %d)", file, i)
		out = append(out, docText{where, joinText(c.Source), c.Type == "markdown"})
		for _, o := range c.Outputs {
			texts := []string{joinText(o.Text)}
			for mime, v := range o.Data {
				if strings.HasPrefix(mime, "text/") { // not images
					texts = append(texts, joinText(v))
				}
			}
			out = append(out, docText{where + " output", strings.Join(texts, "\n"), false})
		}
	}
	return out, nil
}

// joinText joins a notebook source: a string or a list of lines.
func joinText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, s := range v {
			if s, ok := s.(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}

// badRefs returns a message for every reference of text (a piece of the
// committed file file) to a Markdown file, a Markdown section or, in
// Markdown, a link target that the repository does not contain.
func (r *repo) badRefs(file string, d docText) []string {
	var bad []string
	seen := map[string]bool{}
	report := func(msg string) {
		if !seen[msg] { // a link's target and its text may name the same file
			seen[msg] = true
			bad = append(bad, msg)
		}
	}
	for n, line := range strings.Split(d.text, "\n") {
		at := fmt.Sprintf("%s:%d", d.where, n+1)
		line = url.ReplaceAllString(line, "")
		for _, re := range []*regexp.Regexp{upperMD, docsMD} {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				ref, anchor := m[1], strings.TrimPrefix(m[2], "#")
				if strings.Contains(ref, "shared/data/") && sharedAllowed(file, line) {
					continue // a test citing the third-party inputs it reads
				}
				if msg := r.check(file, ref, anchor, true); msg != "" {
					report(at + ": " + msg)
				}
			}
		}
		if !d.markdown {
			continue
		}
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			ref, anchor, _ := strings.Cut(target, "#")
			if ref == "" {
				if strings.HasSuffix(file, ".md") && !r.hasAnchor(file, anchor) {
					report(fmt.Sprintf("%s: link to #%s: no such section in %s", at, anchor, file))
				}
				continue // a notebook's own anchors are Jupyter's
			}
			if msg := r.check(file, ref, anchor, false); msg != "" {
				report(at + ": " + msg)
			}
		}
	}
	return bad
}

// check returns why ref#anchor, written in file, names nothing in the
// repository ("" when it does).
func (r *repo) check(file, ref, anchor string, up bool) string {
	p, ok := r.resolve(file, ref, up)
	if !ok {
		return fmt.Sprintf("%q is not a file of the repository: cite docs/ (docs/README.md lists the pages)", ref)
	}
	if anchor != "" && strings.HasSuffix(p, ".md") && !r.hasAnchor(p, anchor) {
		return fmt.Sprintf("%s#%s: %s has no section with that anchor", ref, anchor, p)
	}
	return ""
}

// TestDocReferences fails, naming file:line (and the cell of a notebook),
// for every reference to a Markdown file that the repository does not
// contain (such as the development specifications CONVENTIONS and
// BENCHMARKS, which a clone does not have), to a section of a Markdown
// file that has no such heading, and, in Markdown, for every relative link
// whose target is not committed. Notebook outputs are checked like their
// sources.
func TestDocReferences(t *testing.T) {
	files := committedFiles(t)
	r := newRepo(files)
	for _, file := range files {
		if file == "repo_test.go" {
			continue // its examples name missing files on purpose
		}
		if fi, err := os.Lstat(filepath.FromSlash(file)); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			continue
		}
		texts, err := docTexts(file, data)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		for _, d := range texts {
			for _, msg := range r.badRefs(file, d) {
				t.Error(msg)
			}
		}
	}
}

// TestDocReferencePatterns checks the reference checker on examples.
func TestDocReferencePatterns(t *testing.T) {
	r := newRepo([]string{"README.md", "docs/a.md", "docs/README.md", "lib/x/doc.go", "notebooks/n.ipynb", "datasets/models/README.md", "datasets/embed.go"})
	r.anchors["docs/a.md"] = anchorsOf("# A\n\n## Stand-ins\n\n```\n## Not a heading\n```\n\n## Stand-ins\n<a id=\"kept\"></a>\n")
	r.anchors["README.md"] = anchorsOf("# pomdpq\n## Tests and test inputs\n")
	spec := "NOT_SHIPPED" + ".md" // a capitalised page the repository does not have (split so that this file cites none)
	tests := []struct {
		file, text string
		markdown   bool
		bad        int
	}{
		{"lib/x/doc.go", "// see " + spec + ", \"Distances\"", false, 1},
		{"lib/x/doc.go", "// see ../shared/spec/" + spec, false, 1},
		{"lib/x/doc.go", "// see docs/a.md#stand-ins and docs/a.md#stand-ins-1", false, 0},
		{"lib/x/doc.go", "// see docs/a.md#kept, docs/a.md#a.", false, 0},
		{"lib/x/doc.go", "// see docs/a.md#not-a-heading", false, 1},
		{"lib/x/doc.go", "// see docs/b.md", false, 1},
		{"lib/x/doc.go", "// see README.md#tests-and-test-inputs and datasets/models/README.md", false, 0},
		{"datasets/embed.go", "// see models/README.md", false, 0},
		{"lib/x/doc.go", "// see https://example.org/" + spec, false, 0},
		{"lib/x/doc_test.go", "// the inputs' shared/data/pomdp/README.md", false, 0},
		{"lib/x/doc.go", "// the inputs' shared/data/pomdp/README.md", false, 1},
		{"notebooks/n.ipynb (cell 3)", "see [c](../docs/a.md#stand-ins) and [d](../docs/a.md)", true, 0},
		{"notebooks/n.ipynb (cell 3)", "see [c](docs/a.md) and [e](../lib/x)", true, 1},
		{"notebooks/n.ipynb (cell 3)", "see [c](../docs/a.md#nope) and [top](#intro)", true, 1},
		{"docs/README.md", "[a](a.md#stand-ins), [b](b.md), [r](../README.md), [u](https://x.org/y.md)", true, 1},
		{"docs/a.md", "[same](#stand-ins) [none](#nope)", true, 1},
		{"lib/x/doc.go", "[b](b.md) is not a link outside Markdown", false, 0},
	}
	for _, tc := range tests {
		file, _, _ := strings.Cut(tc.file, " (")
		got := r.badRefs(file, docText{tc.file, tc.text, tc.markdown})
		if len(got) != tc.bad {
			t.Errorf("%s: %q: %d bad references %q, want %d", tc.file, tc.text, len(got), got, tc.bad)
		}
	}
	for h, want := range map[string]string{
		"Stand-ins":                           "stand-ins",
		"RockSample(4,4)":                     "rocksample44",
		"Exact clock-aware m = 1":             "exact-clock-aware-m--1",
		"01 Pseudometric and value bounds":    "01-pseudometric-and-value-bounds",
		"`lib/pomdp` and [the docs](x.md)":    "libpomdp-and-the-docs",
		"Q_op vs Q_clk: ε-quotients, ≈ ½":     "q_op-vs-q_clk-ε-quotients--½",
		"Tiger, listen only <a id=\"x\"></a>": "tiger-listen-only-",
	} {
		if got := slug(h); got != want {
			t.Errorf("slug(%q) = %q, want %q", h, got, want)
		}
	}
}
