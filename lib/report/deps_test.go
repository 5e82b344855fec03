package report

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestDeps lists the packages linked by the analysis report, by the drawing
// package below it and by the web page's WebAssembly engine (go list -deps,
// natively and with GOOS=js GOARCH=wasm) and checks the layering rule:
// none of them links the notebook package (lib/nb), the paper's
// reproduction (lib/repro), the child-process runner (lib/runner), GoNB or
// gota, on any platform. The wasm engine must still link the report.
func TestDeps(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		t.Skipf("no go command at %s: %v", goTool, err)
	}
	const mod = "github.com/pomdpq/pomdpq/"
	forbidden := []string{mod + "lib/nb", mod + "lib/repro", mod + "lib/runner",
		"github.com/janpfeifer/gonb", "github.com/go-gota/gota"}
	tests := []struct {
		pkg       string
		goos      string // "" for the host
		mustLink  string // a package that must be among the deps ("" for none)
		forbidden []string
	}{
		{"../report", "", "", forbidden},
		{"../render", "", "", forbidden},
		{"../report", "js", mod + "lib/render", forbidden},
		{"../../web/wasm", "js", mod + "lib/report", forbidden},
	}
	for _, tt := range tests {
		cmd := exec.Command(goTool, "list", "-deps", tt.pkg)
		cmd.Env = os.Environ()
		if tt.goos == "js" {
			cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s (GOOS=%q): %v\n%s", tt.pkg, tt.goos, err, out)
		}
		deps := strings.Fields(string(out))
		found := tt.mustLink == ""
		for _, d := range deps {
			found = found || d == tt.mustLink
			for _, bad := range tt.forbidden {
				if d == bad || strings.HasPrefix(d, bad+"/") {
					t.Errorf("%s (GOOS=%q) links %s", tt.pkg, tt.goos, d)
				}
			}
		}
		if !found {
			t.Errorf("%s (GOOS=%q) does not link %s (%d packages)", tt.pkg, tt.goos, tt.mustLink, len(deps))
		}
	}
}
