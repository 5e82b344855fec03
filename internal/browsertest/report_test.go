package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/report"
)

// TestReportInBrowser opens the page of `pomdpq analyze tiger` (built by
// package report) in headless Chromium through file://: no console error
// or exception, inline SVG, tables and the quotient diagram rendered with a
// size, the planning section's plots and tables, and a screenshot in
// out/browser/report-tiger.png. It needs only Chromium (POMDPQ_BROWSER=1,
// as make test-browser sets).
func TestReportInBrowser(t *testing.T) {
	if os.Getenv("POMDPQ_BROWSER") != "1" {
		t.Skip("browser test skipped: set POMDPQ_BROWSER=1 (make test-browser) to run it with chromium")
	}
	chromium := envOr("CHROMIUM", DefaultChromium)
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("Chromium not found (Debian: apt-get install chromium): %v", err)
	}
	root := repoRoot(t)
	out := filepath.Join(root, "out", "browser")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := bench.Lookup("tiger")
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(context.Background(), b.Model, "tiger", report.Options{Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "tiger.html")
	if _, err := r.Write(path); err != nil {
		t.Fatal(err)
	}

	profile := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromiumFlags(chromium, profile)...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	// Start the browser, then listen to its console from before the page loads.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatal(err)
	}
	cctx, stopConsole := context.WithCancel(bctx)
	messages := chromedp.Console(cctx)
	var problems []string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException || m.Type == chromedp.ConsoleWarning {
				problems = append(problems, m.String())
			}
		}
	}()
	if err := chromedp.Do(bctx, chromedp.Navigate("file://"+path)); err != nil {
		t.Fatal(err)
	}
	type shown struct {
		SVGs, Tables, DiagramNodes, Links, Resources int
		DiagramWidth                                 float64
		Title                                        string
		// The planning section: its heading, its displays (one per
		// reward), their SVG plots drawn with a size, and their tables
		// with rows.
		PlanHeading, PlanDisplays, PlanSVGs, PlanTables int
	}
	got, err := chromedp.Run(bctx, chromedp.Evaluate[shown](`(() => {
			const d = document.querySelector('figure.diagram svg');
			return {SVGs: document.querySelectorAll('svg').length,
				Tables: Array.from(document.querySelectorAll('table.pomdpq-table')).filter(t => t.querySelectorAll('tbody tr').length > 0).length,
				DiagramNodes: d ? d.querySelectorAll('g.nodes > *').length : 0,
				Links: document.querySelectorAll('a[href]').length,
				Resources: performance.getEntriesByType('resource').length,
				DiagramWidth: d ? d.getBoundingClientRect().width : 0,
				Title: document.title,
				PlanHeading: document.querySelectorAll('h2#planning').length,
				PlanDisplays: document.querySelectorAll('div.pomdpq-plan').length,
				PlanSVGs: Array.from(document.querySelectorAll('div.pomdpq-plan figure.plan svg')).filter(s => {
					const b = s.getBoundingClientRect();
					return b.width > 0 && b.height > 0 && s.querySelectorAll('path').length > 0;
				}).length,
				PlanTables: Array.from(document.querySelectorAll('div.pomdpq-plan table.pomdpq-table')).filter(t => t.querySelectorAll('tbody tr').length > 0).length};
		})()`))
	if err != nil {
		t.Fatal(err)
	}
	// Quality 100 makes chromedp capture a PNG (below 100 it is a JPEG,
	// which the file name would misstate).
	png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(out, "report-tiger.png")
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	stopConsole()
	wg.Wait()
	cancelBrowser()
	cancelAlloc()
	if err := stopBrowser(profile); err != nil {
		t.Error(err)
	}
	if len(problems) > 0 {
		t.Errorf("the report's page logged:\n%s", strings.Join(problems, "\n"))
	}
	if got.SVGs < 2 || got.Tables < 5 || got.DiagramNodes == 0 || got.DiagramWidth <= 0 || got.Links < 1 || got.Resources != 0 || !strings.Contains(got.Title, "tiger") {
		t.Errorf("the page shows %+v: want ≥ 2 SVGs, ≥ 5 tables with rows, a drawn diagram with nodes, a link to the exported quotient, nothing fetched", got)
	}
	// Planning through the quotient: Tiger plans for its own reward and for
	// an observation reward, each shown as one plot and two tables.
	if got.PlanHeading != 1 || got.PlanDisplays != 2 || got.PlanSVGs != 2 || got.PlanTables != 4 {
		t.Errorf("the planning section shows %+v: want its heading, 2 displays, 2 drawn SVG plots, 4 tables with rows", got)
	}
	t.Logf("report page: %+v; screenshot %s", got, shot)
}
