package pomdpq_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The rule of docs/architecture.md: every package of the module belongs to
// one layer, and a package may import only packages of the layers its own
// layer lists (its own layer included where listed). Go already forbids
// cycles; the rule forbids edges that run upwards or sideways, such as the
// analysis page importing the notebook layer.

// module is the module path; layer patterns are relative to it.
const module = "github.com/pomdpq/pomdpq"

// layer is a set of packages (by pattern) and the layers they may import.
type layer struct {
	name     string
	packages []string // "lib/pomdp" or, with a trailing "/...", a subtree too
	imports  []string // names of the layers they may import
}

// lower lists, for brevity, the layers from base up to analysis.
var lower = []string{"base", "model", "core", "analysis"}

// layers is the rule, from the bottom up.
var layers = []layer{
	{"base", []string{"lib/ot", "lib/fsc", "lib/partition", "lib/verdict", "datasets", "internal/memsample", "internal/shared"}, nil},
	{"model", []string{"lib/pomdp/...", "lib/bench", "internal/filebuild"}, []string{"base", "model"}},
	{"core", []string{"lib/law", "lib/distance", "lib/quotient", "lib/value", "lib/pbvi"}, []string{"base", "model", "core"}},
	{"analysis", []string{"lib/bb", "lib/clock", "lib/clock2", "lib/statbb", "lib/sample", "lib/shard", "lib/runner",
		"lib/plan", "lib/planq", "lib/policy/...", "lib/certify", "lib/baseline", "lib/wrap", "lib/witness", "lib/explain"}, lower},
	{"render", []string{"lib/render/..."}, lower},
	{"paper", []string{"lib/repro/..."}, lower},
	{"page", []string{"lib/report/..."}, append(slices.Clone(lower), "render")},
	{"notebook", []string{"lib/nb/..."}, append(slices.Clone(lower), "render", "paper", "page")},
	{"web", []string{"web/..."}, append(slices.Clone(lower), "render", "page", "web")},
	{"cli", []string{"cmd/..."}, append(slices.Clone(lower), "render", "paper", "page")},
	{"test support", []string{"internal/randmodel", "internal/benchtest", "internal/browsertest", "internal/proctest", "internal/pomdptest"}, []string{"base", "model"}},
	{"repository checks", []string{""}, nil},
}

// knownExceptions are edges that break the rule today and are being
// removed; each is "importer -> imported" (relative paths).
var knownExceptions = map[string]string{}

// matches reports whether the relative path rel is matched by pattern.
func matches(pattern, rel string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	return rel == pattern
}

// layerOf returns the layer of the package rel, or nil.
func layerOf(rel string) *layer {
	for i := range layers {
		for _, p := range layers[i].packages {
			if matches(p, rel) {
				return &layers[i]
			}
		}
	}
	return nil
}

// pkgEdges is a package of the module and its imports of the module's
// packages, both relative to the module.
type pkgEdges struct {
	pkg     string
	imports []string
}

// violations returns the messages for the packages of no layer and for
// the edges the rule forbids; known exceptions are returned apart, with
// the exceptions that no edge uses any more.
func violations(pkgs []pkgEdges, exceptions map[string]string) (bad, excused, stale []string) {
	used := map[string]bool{}
	for _, p := range pkgs {
		from := layerOf(p.pkg)
		if from == nil {
			bad = append(bad, fmt.Sprintf("%s: in no layer of docs/architecture.md (add it to the doc and to layers)", p.pkg))
			continue
		}
		for _, imp := range p.imports {
			to := layerOf(imp)
			if to != nil && slices.Contains(from.imports, to.name) {
				continue
			}
			edge := p.pkg + " -> " + imp
			if _, ok := exceptions[edge]; ok {
				used[edge] = true
				excused = append(excused, edge)
				continue
			}
			toName := "no layer"
			if to != nil {
				toName = "layer " + to.name
			}
			bad = append(bad, fmt.Sprintf("%s (layer %s) imports %s (%s); layer %s may import only %s",
				p.pkg, from.name, imp, toName, from.name, strings.Join(from.imports, ", ")))
		}
	}
	for e := range exceptions {
		if !used[e] {
			stale = append(stale, e)
		}
	}
	slices.Sort(stale)
	return bad, excused, stale
}

// listPackages runs go list -json on patterns with the extra environment
// env and returns each package's imports of the module.
func listPackages(t *testing.T, env []string, patterns ...string) []pkgEdges {
	t.Helper()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		t.Skipf("no go command at %s: %v", goTool, err)
	}
	cmd := exec.Command(goTool, append([]string{"list", "-json"}, patterns...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v (%v): %v\n%s", patterns, env, err, stderr.String())
	}
	var pkgs []pkgEdges
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list %v: %v", patterns, err)
		}
		e := pkgEdges{pkg: rel(p.ImportPath)}
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				e.imports = append(e.imports, rel(imp))
			}
		}
		pkgs = append(pkgs, e)
	}
	return pkgs
}

// rel returns an import path of the module relative to the module.
func rel(importPath string) string {
	return strings.TrimPrefix(strings.TrimPrefix(importPath, module), "/")
}

// TestArchitecture checks the layers of docs/architecture.md on the
// module's packages as built natively and, for the web page and the
// analysis page, as built for WebAssembly.
func TestArchitecture(t *testing.T) {
	for _, build := range []struct {
		name     string
		env      []string
		patterns []string
	}{
		{"native", nil, []string{"./..."}},
		{"js/wasm", []string{"GOOS=js", "GOARCH=wasm"}, []string{"./web/...", "./lib/report/..."}},
	} {
		t.Run(build.name, func(t *testing.T) {
			pkgs := listPackages(t, build.env, build.patterns...)
			if len(pkgs) < 2 {
				t.Fatalf("go list %v found %d packages", build.patterns, len(pkgs))
			}
			bad, excused, stale := violations(pkgs, knownExceptions)
			for _, msg := range bad {
				t.Error(msg)
			}
			for _, e := range excused {
				t.Logf("known exception, being removed: %s (%s)", e, knownExceptions[e])
			}
			if build.name == "native" {
				for _, e := range stale {
					t.Errorf("known exception %q is no longer an edge: delete it from knownExceptions", e)
				}
			}
		})
	}
}

// TestArchitectureRule checks violations on made-up packages: allowed
// edges pass, an upward or sideways edge and a package of no layer are
// reported, an exception excuses exactly its edge, and an exception no
// edge uses is stale.
func TestArchitectureRule(t *testing.T) {
	for _, tc := range []struct {
		name                string
		pkgs                []pkgEdges
		exceptions          map[string]string
		bad, excused, stale int
	}{
		{"downward edges", []pkgEdges{{"lib/distance", []string{"lib/law", "lib/pomdp", "lib/ot"}}, {"cmd/pomdpq", []string{"lib/repro", "lib/report"}}}, nil, 0, 0, 0},
		{"format sub-package", []pkgEdges{{"lib/pomdp/cassandra", []string{"lib/pomdp"}}, {"lib/value", []string{"lib/pomdp/cassandra"}}}, nil, 0, 0, 0},
		{"upward edge", []pkgEdges{{"lib/pomdp", []string{"lib/distance"}}}, nil, 1, 0, 0},
		{"page imports the paper", []pkgEdges{{"lib/report", []string{"lib/repro"}}}, nil, 1, 0, 0},
		{"web imports the notebook layer", []pkgEdges{{"web/engine", []string{"lib/nb"}}}, nil, 1, 0, 0},
		{"production imports test support", []pkgEdges{{"lib/value", []string{"internal/randmodel"}}}, nil, 1, 0, 0},
		{"package of no layer", []pkgEdges{{"lib/newthing", nil}}, nil, 1, 0, 0},
		{"excused edge", []pkgEdges{{"lib/report", []string{"lib/nb", "lib/repro"}}}, map[string]string{"lib/report -> lib/nb": "x"}, 1, 1, 0},
		{"stale exception", []pkgEdges{{"lib/report", []string{"lib/render"}}}, map[string]string{"lib/report -> lib/nb": "x"}, 0, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad, excused, stale := violations(tc.pkgs, tc.exceptions)
			if len(bad) != tc.bad || len(excused) != tc.excused || len(stale) != tc.stale {
				t.Errorf("bad %q, excused %q, stale %q; want %d, %d, %d", bad, excused, stale, tc.bad, tc.excused, tc.stale)
			}
		})
	}
}
