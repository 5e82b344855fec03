package browsertest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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
		// "Does the quotient pay?": its heading, its displays (one per
		// reward) with their tables, cells that say "—", and the verdicts.
		PayoffHeading, PayoffDisplays, PayoffTables, PayoffDashes int
		PayoffVerdicts                                            []string
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
				PlanTables: Array.from(document.querySelectorAll('div.pomdpq-plan table.pomdpq-table')).filter(t => t.querySelectorAll('tbody tr').length > 0).length,
				PayoffHeading: document.querySelectorAll('h2#payoff').length,
				PayoffDisplays: document.querySelectorAll('div.pomdpq-payoff').length,
				PayoffTables: Array.from(document.querySelectorAll('div.pomdpq-payoff table.pomdpq-table')).filter(t => t.querySelectorAll('tbody tr').length > 0).length,
				PayoffDashes: Array.from(document.querySelectorAll('div.pomdpq-payoff td')).filter(c => c.textContent.trim() === '' || c.textContent.includes('—')).length,
				PayoffVerdicts: Array.from(document.querySelectorAll('div.pomdpq-payoff p.verdict')).map(p => p.textContent)};
		})()`))
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(out, "report-tiger.png")
	if err := saveFullScreenshot(bctx, shot); err != nil {
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
	// Does the quotient pay? One display per reward, two tables each, no
	// cell empty or "—", and a verdict in words.
	if got.PayoffHeading != 1 || got.PayoffDisplays != 2 || got.PayoffTables != 4 || got.PayoffDashes != 0 || len(got.PayoffVerdicts) != 2 {
		t.Errorf("the payoff section shows %+v: want its heading, 2 displays, 4 tables with rows, no empty or \"—\" cell, 2 verdicts", got)
	}
	for _, v := range got.PayoffVerdicts {
		if !strings.Contains(v, "plan on the") && !strings.Contains(v, "the quotient pays") {
			t.Errorf("payoff verdict %q gives no advice", v)
		}
	}
	t.Logf("report page: %+v; screenshot %s", got, shot)
}

// TestReportMitInBrowser opens the page of `pomdpq analyze` on a model of
// mit's sizes (204 states, 4 actions, 28 observations; generated as
// random:204:4:28:1, no third-party file) at T = 2, whose exact quotient
// has 28 classes at depth 1: the diagram must stay readable — no sideways
// scrolling of the page or of the diagram, at most report.DiagramPerDepth
// nodes per depth, the class table beside it listing every class.
// Screenshot: out/browser/report-mit.png.
func TestReportMitInBrowser(t *testing.T) {
	if os.Getenv("POMDPQ_BROWSER") != "1" {
		t.Skip("browser test skipped: set POMDPQ_BROWSER=1 (make test-browser) to run it with chromium")
	}
	chromium := envOr("CHROMIUM", DefaultChromium)
	root := repoRoot(t)
	out := filepath.Join(root, "out", "browser")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := bench.Lookup("random:204:4:28:1")
	if err != nil {
		t.Fatal(err)
	}
	r, err := report.Build(context.Background(), b.Model, "random:204:4:28:1", report.Options{T: 2, Ms: []int{1}, Ground: b.Ground})
	if err != nil {
		t.Fatal(err)
	}
	counts := r.Quotient.Partition.Counts()
	if slices.Max(counts) <= report.DiagramPerDepth {
		t.Fatalf("per depth %v: the test needs a depth with more than %d classes", counts, report.DiagramPerDepth)
	}
	path := filepath.Join(t.TempDir(), "mit.html")
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
	if err := chromedp.Do(bctx, chromedp.Navigate("file://"+path)); err != nil {
		t.Fatal(err)
	}
	type shown struct {
		Nodes, Rows, ViewRight, ViewWidth        int
		DiagramWidth, DiagramScroll, FigureWidth float64
	}
	got, err := chromedp.Run(bctx, chromedp.Evaluate[shown](`(() => {
		const f = document.querySelector('figure.diagram.collapsed');
		const d = f ? f.querySelector('svg') : null;
		const tbl = document.querySelector('div.class-table table');
		const v = document.querySelector('div.quotient-view');
		return {Nodes: d ? d.querySelectorAll('g.nodes > rect').length : 0,
			Rows: tbl ? tbl.querySelectorAll('tbody tr').length : 0,
			ViewRight: v ? Math.ceil(v.getBoundingClientRect().right) : 1e9, ViewWidth: window.innerWidth,
			DiagramWidth: d ? d.getBoundingClientRect().width : 0,
			DiagramScroll: f ? f.scrollWidth : 0, FigureWidth: f ? f.clientWidth : 0};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(out, "report-mit.png")
	if err := saveFullScreenshot(bctx, shot); err != nil {
		t.Fatal(err)
	}
	cancelBrowser()
	cancelAlloc()
	if err := stopBrowser(profile); err != nil {
		t.Error(err)
	}
	// Nodes: the drawn classes (at most DiagramPerDepth per depth, the
	// last of a collapsed depth standing for the rest).
	maxNodes := 0
	for _, c := range counts {
		maxNodes += min(c, report.DiagramPerDepth)
	}
	if got.Nodes == 0 || got.Nodes > maxNodes || got.Rows != r.Quotient.Classes() || got.DiagramWidth <= 0 ||
		got.ViewRight > got.ViewWidth || got.DiagramScroll > got.FigureWidth+1 {
		t.Errorf("the mit-sized page shows %+v (per depth %v): want 1 … %d diagram nodes, %d table rows, no sideways scrolling", got, counts, maxNodes, r.Quotient.Classes())
	}
	t.Logf("mit-sized report: per depth %v, %+v; screenshot %s", counts, got, shot)
}
