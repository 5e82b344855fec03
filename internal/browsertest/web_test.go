package browsertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// webEps are the tolerances of the page's run (the acceptance run).
var webEps = []float64{0, 0.1, 0.3}

// cliCounts computes, through the library as `pomdpq quotient --model
// datasets/models/maze4x3.pomdp --m 1 --T 3 --eps 0,0.1,0.3` does, the
// class counts the page must show.
func cliCounts(t *testing.T, path string) []int {
	t.Helper()
	m, err := modelfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	fam, err := fsc.New(fsc.KindStationary, m.NumActions(), m.NumObservations(), 1, 3, fsc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := distance.Compute(context.Background(), m, fam, 3, distance.Options{Eps: webEps})
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range webEps {
		out = append(out, res.Partition(e).Total())
	}
	return out
}

// requestLog records every URL the browser asked for, from the page and
// from its worker, and every URL the file server was asked for.
type requestLog struct {
	mu      sync.Mutex
	browser []string
	served  []string
}

func (l *requestLog) add(list *[]string, u string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	*list = append(*list, u)
}

func (l *requestLog) snapshot() (browser, served []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.browser...), append([]string(nil), l.served...)
}

// TestWebPage serves out/web (make web) from a localhost file server and
// drives the page in headless Chromium: a shared link (query parameters)
// runs a built-in on load; a malformed file ends with the parser's error
// naming file and line; datasets/models/maze4x3.pomdp chosen through the
// file input, m = 1, T = 3, ε = 0, 0.1, 0.3, gives the class counts the
// library gives, with the SVG curve and the diagram; a class of the
// diagram opens its card in "Why these classes" (whyCase); the ε slider redraws
// the diagram; an over-budget request is refused with its estimate; a
// cancelled run ends with a message; after each of these the page runs
// again; no request leaves localhost. Screenshot: out/browser/web.png.
func TestWebPage(t *testing.T) {
	if os.Getenv("POMDPQ_BROWSER") != "1" {
		t.Skip("browser test skipped: set POMDPQ_BROWSER=1 (make test-browser) to run it with chromium")
	}
	chromium := envOr("CHROMIUM", DefaultChromium)
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("Chromium not found (Debian: apt-get install chromium): %v", err)
	}
	root := repoRoot(t)
	web := filepath.Join(root, "out", "web")
	// The page is its three files, under 10 MB with gzip.
	entries, err := os.ReadDir(web)
	if err != nil {
		t.Fatalf("out/web: %v (run make web first)", err)
	}
	var names []string
	raw, packed := 0, 0
	for _, e := range entries {
		names = append(names, e.Name())
		data, err := os.ReadFile(filepath.Join(web, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(data)
		w.Close()
		raw, packed = raw+len(data), packed+z.Len()
	}
	if strings.Join(names, " ") != "index.html pomdpq.wasm wasm_exec.js" {
		t.Fatalf("out/web holds %v: want index.html, pomdpq.wasm and wasm_exec.js only (run make web)", names)
	}
	if packed >= 10_000_000 {
		t.Errorf("the page is %d bytes with gzip, over 10 MB", packed)
	}
	t.Logf("out/web: %d bytes, %d with gzip -9", raw, packed)
	out := filepath.Join(root, "out", "browser")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	maze := filepath.Join(root, "datasets", "models", "maze4x3.pomdp")
	want := cliCounts(t, maze)
	// A malformed copy: line 6 has a probability that is not a number.
	bad := filepath.Join(t.TempDir(), "broken-maze.pomdp")
	if err := os.WriteFile(bad, []byte("discount: 0.95\nvalues: reward\nstates: 2\nactions: 1\nobservations: 1\nT: 0 : 0 : 0 zero\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	var log requestLog
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	files := http.FileServer(http.Dir(web))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(&log.served, r.URL.Path)
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String() + "/"

	profile := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromiumFlags(chromium, profile)...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Do(bctx); err != nil {
		t.Fatal(err)
	}
	// Every request of the page is recorded from its network events (the
	// worker's, which the page target may not report, are checked through
	// the file server's log below: the worker loads the engine from it).
	if err := chromedp.Listen(bctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			log.add(&log.browser, e.Request.URL)
		}
	}); err != nil {
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
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				problems = append(problems, m.String())
			}
		}
	}()

	step := func(name string, d time.Duration, expr string) {
		t.Helper()
		sctx, done := context.WithTimeout(bctx, d)
		defer done()
		if err := waitFor(sctx, expr); err != nil {
			status, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById('status').textContent`))
			t.Fatalf("%s: %v; the page's status says %q", name, err, status)
		}
	}
	status := func() string {
		s, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById('status').className + ': ' + document.getElementById('status').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	counts := func() []int {
		raw, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#counts tr[data-eps] td[data-m="1"]')).map(c => c.dataset.classes)`))
		if err != nil {
			t.Fatal(err)
		}
		var n []int
		for _, s := range raw {
			k, _ := strconv.Atoi(s)
			n = append(n, k)
		}
		return n
	}
	diagram := func() string {
		s, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(() => { const d = document.querySelector('#pomdpq-quotient figure.diagram svg'); return d ? d.outerHTML : ''; })()`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	runClicked := func(name string, d time.Duration) {
		t.Helper()
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById('status').className = ''`)); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#run"))); err != nil {
			t.Fatal(err)
		}
		step(name, d, `document.getElementById('run').disabled === false && document.getElementById('status').className !== ''`)
	}
	setField := func(id, v string) {
		t.Helper()
		if err := chromedp.Do(bctx, chromedp.SetValue(chromedp.CSS("#"+id), v)); err != nil {
			t.Fatal(err)
		}
	}

	// 1. A shared link runs a built-in on load.
	start := time.Now()
	link := base + "index.html?model=maze4x3&m=1&T=3&eps=" + url.QueryEscape("0,0.1,0.3")
	if err := chromedp.Do(bctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	step("the shared link's run", 3*time.Minute, `document.getElementById('status').className === 'ok' && document.querySelectorAll('#counts tr[data-eps]').length === 3`)
	t.Logf("shared link: %s after %v", status(), time.Since(start).Round(time.Millisecond))
	if got := counts(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("shared link maze4x3 m = 1, T = 3: the page counts %v, the library %v", got, want)
	}

	// 2. A malformed file: the parser's error, with file and line.
	if err := chromedp.Do(bctx, chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{bad})); err != nil {
		t.Fatal(err)
	}
	step("reading the malformed file", 30*time.Second, `document.getElementById('source').textContent.includes('broken-maze.pomdp')`)
	runClicked("the malformed file's run", time.Minute)
	if s := status(); !strings.HasPrefix(s, "error:") || !strings.Contains(s, "broken-maze.pomdp:6") {
		t.Errorf("malformed file: the page says %q, want the parser's error naming broken-maze.pomdp:6", s)
	}

	// 3. The model file, chosen through the file input.
	if err := chromedp.Do(bctx, chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{maze})); err != nil {
		t.Fatal(err)
	}
	step("reading maze4x3.pomdp", 30*time.Second, `document.getElementById('source').textContent.includes('maze4x3.pomdp')`)
	setField("m", "1")
	setField("T", "3")
	setField("eps", "0,0.1,0.3")
	t0 := time.Now()
	runClicked("maze4x3.pomdp's run", 3*time.Minute)
	secs := time.Since(t0).Seconds()
	if s := status(); !strings.HasPrefix(s, "ok:") {
		t.Fatalf("maze4x3.pomdp: the page says %q", s)
	}
	if got := counts(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("maze4x3.pomdp m = 1, T = 3: the page counts %v at ε = %v, the library %v", got, webEps, want)
	}
	type shown struct {
		Curve, DiagramNodes, Downloads int
		DiagramWidth                   float64
		Title, PageSeconds             string
		// The payoff section of the report: displays, tables with rows,
		// cells empty or "—", and the first verdict.
		PayoffDisplays, PayoffTables, PayoffDashes int
		PayoffVerdict                              string
	}
	got, err := chromedp.Run(bctx, chromedp.Evaluate[shown](`(() => {
		const d = document.querySelector('#pomdpq-quotient figure.diagram svg');
		return {Curve: Array.from(document.querySelectorAll('#report figure.curves svg')).filter(s => s.getBoundingClientRect().width > 0 && s.querySelectorAll('path').length > 0).length,
			DiagramNodes: d ? d.querySelectorAll('g.nodes > *').length : 0,
			DiagramWidth: d ? d.getBoundingClientRect().width : 0,
			Downloads: Array.from(document.querySelectorAll('#downloads a[download]')).filter(a => a.href.startsWith('blob:')).length,
			Title: document.querySelector('#report h1') ? document.querySelector('#report h1').textContent : '',
			PageSeconds: document.body.dataset.runSeconds || '',
			PayoffDisplays: document.querySelectorAll('#report div.pomdpq-payoff').length,
			PayoffTables: Array.from(document.querySelectorAll('#report div.pomdpq-payoff table.pomdpq-table')).filter(t => t.querySelectorAll('tbody tr').length > 0).length,
			PayoffDashes: Array.from(document.querySelectorAll('#report div.pomdpq-payoff td')).filter(c => c.textContent.trim() === '' || c.textContent.includes('—')).length,
			PayoffVerdict: (document.querySelector('#report div.pomdpq-payoff p.verdict') || {textContent: ''}).textContent};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Curve != 1 || got.DiagramNodes == 0 || got.DiagramWidth <= 0 || got.Downloads != 3 || !strings.Contains(got.Title, "maze4x3") {
		t.Errorf("the page shows %+v: want the SVG curve, a drawn diagram with nodes, 3 downloads (.pomdp, JSON, report), the report of maze4x3", got)
	}
	// The page shows whether the quotient pays: the model beside the
	// quotient for each reward planned, run in the browser.
	if got.PayoffDisplays < 1 || got.PayoffTables != 2*got.PayoffDisplays || got.PayoffDashes != 0 || !strings.Contains(got.PayoffVerdict, "plan on the") && !strings.Contains(got.PayoffVerdict, "the quotient pays") {
		t.Errorf("the payoff on the page: %d displays, %d tables with rows, %d empty or \"—\" cells, verdict %q: want ≥ 1 display with 2 tables each, none, a verdict with advice",
			got.PayoffDisplays, got.PayoffTables, got.PayoffDashes, got.PayoffVerdict)
	}
	t.Logf("maze4x3.pomdp m = 1, T = 3: counts %v; %.2f s in the browser (page's own timing %s s); %+v", want, secs, got.PageSeconds, got)

	// 3b. "Why these classes": a class of the diagram links to its card;
	// the click opens the card (members, belief, where it goes), and the
	// section has the largest splits and what the curve's steps merged.
	whyCase(t, bctx, step)

	// 4. The slider redraws the partition and the diagram.
	before := diagram()
	if err := chromedp.Do(bctx, chromedp.SetValue(chromedp.CSS("#slider"), "2")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`document.getElementById('slider').dispatchEvent(new Event('input'))`)); err != nil {
		t.Fatal(err)
	}
	step("the slider's redraw", time.Minute, `document.body.dataset.at !== undefined && document.body.dataset.at !== '0'`)
	if after := diagram(); after == before || after == "" {
		t.Errorf("moving the ε slider to its third value did not change the diagram")
	}

	// 5. Over the budget: refused with the estimate, nothing run.
	setField("T", "9")
	runClicked("the over-budget request", 2*time.Minute)
	s := status()
	est, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById('preflight').textContent`))
	if !strings.HasPrefix(s, "refused:") || !strings.Contains(s, "would need") || !strings.Contains(est, "over the budget") {
		t.Errorf("T = 9: the page says %q with the pre-flight %q; want a refusal with the estimate", s, est)
	}

	// 6. Cancel a long run (m ≤ 2, T = 3: about a minute here).
	setField("m", "1,2")
	setField("T", "3")
	setField("seconds", "100000")
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#run"))); err != nil {
		t.Fatal(err)
	}
	step("the long run's progress", 2*time.Minute, `document.getElementById('status').textContent === 'Running…'`)
	time.Sleep(500 * time.Millisecond)
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#cancel"))); err != nil {
		t.Fatal(err)
	}
	step("the cancellation", 30*time.Second, `document.getElementById('run').disabled === false`)
	if s := status(); !strings.Contains(s, "Cancelled") {
		t.Errorf("after Cancel the page says %q", s)
	}

	// 7. The page still works: the file's run again.
	setField("m", "1")
	setField("seconds", "60")
	runClicked("the run after the cancel", 3*time.Minute)
	if s := status(); !strings.HasPrefix(s, "ok:") {
		t.Errorf("after the cancel: the page says %q", s)
	}
	if got := counts(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after the cancel: the page counts %v, the library %v", got, want)
	}

	// What the (current) worker fetched, from its own resource timing:
	// the engine's two files, from the file server.
	fetched, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`window.pomdpqWorkerResources()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(fetched) < 2 {
		t.Errorf("the worker reports fetching %v: want wasm_exec.js and pomdpq.wasm", fetched)
	}
	for _, u := range fetched {
		log.add(&log.browser, u)
	}

	// Screenshot of the whole page.
	shot := filepath.Join(out, "web.png")
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
		t.Errorf("the page logged:\n%s", strings.Join(problems, "\n"))
	}
	// No request left localhost; the engine came from the file server.
	browser, served := log.snapshot()
	for _, u := range browser {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "blob" && p.Scheme != "data" && p.Hostname() != "127.0.0.1") {
			t.Errorf("a request left localhost: %s", u)
		}
	}
	for _, f := range []string{"/index.html", "/wasm_exec.js", "/pomdpq.wasm"} {
		found := false
		for _, s := range served {
			found = found || s == f
		}
		if !found {
			t.Errorf("the file server was never asked for %s (served %v)", f, served)
		}
	}
	t.Logf("requests seen by the browser: %d, all on localhost; served %v; screenshot %s", len(browser), served, shot)
}

// whyCase clicks the first class of depth 2 of the diagram (each links
// to its card) and checks that the card opens and shows the class (its
// summary names the class the link names; its belief, the classes it
// comes from and those it goes to are laid out), and
// that "Why these classes" explains splits and lists merges of the
// curve's steps (maze4x3, ε = 0, 0.1, 0.3, merges classes at 0.1).
func whyCase(t *testing.T, bctx context.Context, step func(name string, d time.Duration, expr string)) {
	t.Helper()
	// A class of depth 2 (several members, neighbours on both sides).
	link, err := chromedp.Run(bctx, chromedp.Evaluate[string](`(() => {
		const a = document.querySelector('#pomdpq-quotient figure.diagram svg a[href^="#class-2-"]');
		return a ? a.getAttribute('href') : ''; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(link, "#class-") {
		t.Fatalf("no class of depth 2 in the diagram links to its card (got %q)", link)
	}
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS(`#pomdpq-quotient figure.diagram svg a[href="`+link+`"]`))); err != nil {
		t.Fatal(err)
	}
	// The link's target is the card's body, inside the collapsed
	// <details>: following it opens the card.
	card := `document.getElementById('` + link[1:] + `').closest('details.class-card')`
	step("the class card", 30*time.Second, card+` !== null && `+card+`.open === true`)
	type shown struct {
		Summary      string
		Height       float64
		Paragraphs   int
		Splits       int
		MergeRows    int
		MergeCaption string
	}
	got, err := chromedp.Run(bctx, chromedp.Evaluate[shown](`(() => {
		const c = `+card+`;
		const tables = Array.from(document.querySelectorAll('#report table'));
		const cap = tb => tb.caption ? tb.caption.textContent : '';
		const splits = tables.find(tb => cap(tb).startsWith('Largest splits'));
		const merges = tables.find(tb => cap(tb).startsWith("What the curve's steps merged"));
		return {Summary: c.querySelector('summary').textContent,
			Height: c.getBoundingClientRect().height,
			Paragraphs: Array.from(c.querySelectorAll('p')).filter(p => p.getBoundingClientRect().height > 0).length,
			Splits: splits ? splits.tBodies[0].rows.length : 0,
			MergeRows: merges ? merges.tBodies[0].rows.length : 0,
			MergeCaption: merges ? cap(merges) : ''};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	// "#class-T-C" names class T:C.
	id := strings.Replace(strings.TrimPrefix(link, "#class-"), "-", ":", 1)
	if !strings.HasPrefix(got.Summary, "class "+id+":") || !strings.Contains(got.Summary, "histor") || got.Paragraphs < 3 || got.Height <= 0 {
		t.Errorf("clicking %s shows the card %+v: want the open card of class %s with its belief and neighbours", link, got, id)
	}
	if got.Splits == 0 || got.MergeRows == 0 {
		t.Errorf("Why these classes shows %d splits and %d merge rows (%q): want both", got.Splits, got.MergeRows, got.MergeCaption)
	}
	t.Logf("why these classes: %s opens %q (%d paragraphs shown); %d splits, %d merge rows", link, got.Summary, got.Paragraphs, got.Splits, got.MergeRows)
}
