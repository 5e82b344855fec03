package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestWasmImports lists the packages of the WebAssembly entry point
// (GOOS=js GOARCH=wasm go list -deps ./web/wasm) and checks that none of
// the packages that only work with processes and files of a machine is
// among them: lib/runner (child processes, rusage) and lib/repro (which
// needs it). They once came in through lib/nb and lib/planq.
func TestWasmImports(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		t.Skipf("no go command at %s: %v", goTool, err)
	}
	cmd := exec.Command(goTool, "list", "-deps", "../wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	for _, bad := range []string{"github.com/pomdpq/pomdpq/lib/runner", "github.com/pomdpq/pomdpq/lib/repro"} {
		for _, d := range deps {
			if d == bad {
				t.Errorf("the wasm engine imports %s", bad)
			}
		}
	}
	found := false
	for _, d := range deps {
		found = found || d == "github.com/pomdpq/pomdpq/lib/report"
	}
	if !found {
		t.Errorf("the wasm engine does not import lib/report (deps: %d packages)", len(deps))
	}
}
