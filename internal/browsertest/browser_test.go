package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// quickstartExpect is what notebooks/00-quickstart.ipynb must show: the
// tables of its first cells, the classes-vs-ε plot, the quotient diagram,
// and the progress bar of the distance computation.
var quickstartExpect = Expect{Tables: 2, Plots: 1, Diagrams: 1, Bars: 1}

// brokenCells are inserted into a copy of the quickstart to show that the
// check fails on a cell that panics at run time and on one that does not
// compile, and names both. Positions are those in the edited copy (from 0).
var brokenCells = []struct {
	at     int
	source string
	shows  string // what the failure must quote from the cell's output
}{
	{4, "%%\n// Deliberately broken for the browser test of the test: a panic.\npanic(\"deliberately broken cell\")\n", "panic: deliberately broken cell"},
	{10, "%%\n// Deliberately broken for the browser test of the test: no such function.\nnoSuchFunction(42)\n", "undefined: noSuchFunction"},
}

// TestNotebooksInBrowser runs the quickstart, and a broken copy of it, in
// Chromium through the classic Notebook server. The good copy must pass the
// check; the broken copy must fail it, naming the broken cell.
func TestNotebooksInBrowser(t *testing.T) {
	if os.Getenv("POMDPQ_BROWSER") != "1" {
		t.Skip("browser test skipped: set POMDPQ_BROWSER=1 (make test-browser) to run it with jupyter notebook, chromium and the pomdpq kernel")
	}
	root := repoRoot(t)
	preflight(t, root)
	out := filepath.Join(root, "out", "browser")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}

	// Copies only: the committed notebooks are never served, so the
	// browser cannot save over them.
	dir := t.TempDir()
	src := filepath.Join(root, "notebooks", "00-quickstart.ipynb")
	if err := CopyNotebook(src, filepath.Join(dir, "00-quickstart.ipynb")); err != nil {
		t.Fatal(err)
	}
	var breaks []Edit
	for _, b := range brokenCells {
		breaks = append(breaks, InsertCodeCell(b.at, b.source))
	}
	if err := CopyNotebook(src, filepath.Join(dir, "00-quickstart-broken.ipynb"), breaks...); err != nil {
		t.Fatal(err)
	}

	logFile, err := os.Create(filepath.Join(out, "jupyter-server.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	// Our own time limits, shorter than make test-browser's go test -timeout
	// (30m), so that a hanging run still ends through the clean-up below.
	perNotebook := 10 * time.Minute
	if v := os.Getenv("POMDPQ_BROWSER_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("POMDPQ_BROWSER_TIMEOUT=%q: %v", v, err)
		}
		perNotebook = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*perNotebook+3*time.Minute)
	defer cancel()
	start := time.Now()
	srv, err := StartServer(ctx, ServerOptions{
		Jupyter:     envOr("JUPYTER", "jupyter"),
		NotebookDir: dir,
		JupyterPath: filepath.Join(root, ".jupyter"),
		Log:         logFile,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		serverDir := srv.Dir()
		if err := srv.Stop(); err != nil {
			t.Errorf("stopping the Jupyter server: %v", err)
		}
		if left := Leftovers(serverDir, dir); len(left) > 0 {
			t.Errorf("processes left running after the test:\n%s", strings.Join(left, "\n"))
		}
		t.Logf("server stopped; no process of the server, its kernels or the browser is left")
	})
	t.Logf("Jupyter Notebook server at %s (pid %d) ready in %v; log in %s",
		srv.URL, srv.Pid(), time.Since(start).Round(time.Millisecond), logFile.Name())

	run := func(t *testing.T, name string) (*Page, error) {
		t.Helper()
		start := time.Now()
		page, err := RunNotebook(ctx, srv, name, RunOptions{
			Chromium:   envOr("CHROMIUM", DefaultChromium),
			Timeout:    perNotebook,
			Screenshot: filepath.Join(out, strings.TrimSuffix(name, ".ipynb")+".png"),
			Logf:       t.Logf,
		})
		if serr := srv.ShutdownKernels(ctx); serr != nil {
			t.Errorf("shutting down the kernel of %s: %v", name, serr)
		}
		t.Logf("%s: browser run took %v", name, time.Since(start).Round(time.Millisecond))
		return page, err
	}

	t.Run("quickstart", func(t *testing.T) {
		page, err := run(t, "00-quickstart.ipynb")
		if err != nil {
			t.Fatal(err)
		}
		if err := page.Check(quickstartExpect); err != nil {
			t.Fatalf("the quickstart fails in the browser:\n%v", err)
		}
		// The ε explorer: moving the slider redraws the diagram in place.
		x := page.Explorer
		if x == nil || x.Phase != "done" || !x.DiagramChanged || x.AfterEps == x.BeforeEps || x.AfterClasses == x.BeforeClasses {
			t.Fatalf("the ε explorer did not redraw when its slider moved: %+v", x)
		}
		t.Logf("ε explorer: slider moved from ε = %s (%s classes) to ε = %s (%s classes), diagram redrawn",
			x.BeforeEps, x.BeforeClasses, x.AfterEps, x.AfterClasses)
		t.Logf("00-quickstart.ipynb: %d cells, all executed without errors; tables, plot, diagram and progress bar rendered", len(page.Cells))
	})

	t.Run("broken-copy-fails", func(t *testing.T) {
		page, err := run(t, "00-quickstart-broken.ipynb")
		if err != nil {
			t.Fatal(err)
		}
		err = page.Check(quickstartExpect)
		var ce *CheckError
		if !errors.As(err, &ce) {
			t.Fatalf("the check passed a notebook with a panicking cell (err = %v)", err)
		}
		// Each broken cell is named, with its error, and nothing else fails
		// (the cells after a broken one still run: GoNB does not abort them).
		for _, b := range brokenCells {
			name := fmt.Sprintf("cell %d (", b.at+1)
			found := false
			for _, f := range ce.Failures {
				found = found || (f.Cell == b.at && strings.HasPrefix(f.Message, name) && strings.Contains(f.Message, b.shows))
			}
			if !found {
				t.Errorf("no failure names %s... with %q; the check said:\n%v", name, b.shows, err)
			}
		}
		for _, f := range ce.Failures {
			if f.Cell != brokenCells[0].at && f.Cell != brokenCells[1].at {
				t.Errorf("unexpected failure outside the broken cells: %s", f.Message)
			}
		}
		t.Logf("as required, the check fails on the broken copy:\n%v", err)
	})
}

// repoRoot returns the directory with the repository's go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// preflight fails early, with what to do, when a prerequisite is missing.
func preflight(t *testing.T, root string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, ".jupyter", "kernels", "pomdpq", "kernel.json")); err != nil {
		t.Fatalf("the pomdpq kernelspec is missing (run make kernel): %v", err)
	}
	jupyter := envOr("JUPYTER", "jupyter")
	v, err := exec.Command(jupyter, "notebook", "--version").Output()
	if err != nil {
		t.Fatalf("%s notebook --version failed (make jupyter installs Debian's jupyter-notebook): %v", jupyter, err)
	}
	// The test drives the classic Notebook UI (its Jupyter JavaScript
	// global), which Notebook 7 replaced.
	if version := strings.TrimSpace(string(v)); !strings.HasPrefix(version, "6.") && !strings.HasPrefix(version, "5.") {
		t.Fatalf("%s notebook is version %s; the browser test needs the classic Notebook 6 (Debian's jupyter-notebook, or conda's notebook<7)", jupyter, version)
	}
	if _, err := os.Stat(envOr("CHROMIUM", DefaultChromium)); err != nil {
		t.Fatalf("Chromium not found (Debian: apt-get install chromium): %v", err)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
