package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
)

// DefaultChromium is Debian's Chromium.
const DefaultChromium = "/usr/bin/chromium"

// RunOptions configure [RunNotebook].
type RunOptions struct {
	// Chromium is the browser executable (default [DefaultChromium]).
	Chromium string
	// Timeout bounds the whole run: kernel start, all cells, the screenshot.
	// It only keeps a broken run from hanging (default 10 minutes).
	Timeout time.Duration
	// Screenshot, if not empty, is the path of a full-page PNG screenshot
	// taken after the cells have run.
	Screenshot string
	// Logf, if not nil, receives progress messages.
	Logf func(format string, args ...any)
}

// chromiumFlags are the flags Chromium needs as root on the project's
// machines: headless, no sandbox, no GPU, and none of the background
// connections that a closed network refuses (see the machine notes).
func chromiumFlags(path, profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1280, 1000),
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			// Killed with this process; in a group of its own so that it can
			// be ended as a whole.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		}),
	}
}

// RunNotebook opens the notebook name (a path relative to the server's
// notebook directory) in a fresh headless Chromium, waits for its kernel,
// runs all cells, waits until every cell has finished and the kernel is idle,
// takes the screenshot, and returns what the page shows. The browser is
// always stopped before RunNotebook returns; an error says what failed (a
// timeout says which cells were still pending). Autosave is turned off, so
// the browser never writes the notebook.
func RunNotebook(ctx context.Context, srv *Server, name string, opt RunOptions) (page *Page, err error) {
	if opt.Chromium == "" {
		opt.Chromium = DefaultChromium
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Minute
	}
	logf := opt.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if _, err := os.Stat(opt.Chromium); err != nil {
		return nil, fmt.Errorf("browsertest: no browser at %s (Debian: apt-get install chromium): %w", opt.Chromium, err)
	}
	profile, err := os.MkdirTemp("", "pomdpq-chromium-")
	if err != nil {
		return nil, fmt.Errorf("browsertest: %w", err)
	}
	defer func() {
		if stopErr := stopBrowser(profile); stopErr != nil {
			err = errors.Join(err, stopErr)
		}
	}()

	ctx, cancelTimeout := context.WithTimeout(ctx, opt.Timeout)
	defer cancelTimeout()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, chromiumFlags(opt.Chromium, profile)...)
	defer cancelAlloc() // waits for the browser to exit
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()

	start := time.Now()
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.NotebookURL(name))); err != nil {
		return nil, fmt.Errorf("browsertest: opening %s in Chromium: %w", name, err)
	}
	if err := waitFor(bctx, `!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded)`); err != nil {
		return nil, fmt.Errorf("browsertest: %s: the notebook page did not load: %w", name, err)
	}
	if err := chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](installJS)); err != nil {
		return nil, fmt.Errorf("browsertest: %s: instrumenting the page: %w", name, err)
	}
	logf("%s: page loaded in %v, waiting for the kernel", name, time.Since(start).Round(time.Millisecond))
	if err := waitFor(bctx, kernelReadyJS); err != nil {
		return nil, fmt.Errorf("browsertest: %s: the kernel did not become ready (is the pomdpq kernelspec installed? make kernel): %w", name, err)
	}
	kernelName, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`Jupyter.notebook.kernel.name`))
	logf("%s: kernel %q ready after %v, running all cells", name, kernelName, time.Since(start).Round(time.Millisecond))
	if err := chromedp.Do(bctx, chromedp.Evaluate[chromedp.Void](`Jupyter.notebook.execute_all_cells(); undefined`)); err != nil {
		return nil, fmt.Errorf("browsertest: %s: running all cells: %w", name, err)
	}
	if err := waitCells(bctx, name, start, logf, func(ctx context.Context) {
		// Drive an ε explorer while its cell waits for the slider.
		_, _ = chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](explorerJS))
	}); err != nil {
		return nil, err
	}
	logf("%s: all cells finished after %v", name, time.Since(start).Round(time.Millisecond))

	raw, err := chromedp.Run(bctx, chromedp.Evaluate[json.RawMessage](extractJS))
	if err != nil {
		return nil, fmt.Errorf("browsertest: %s: reading the rendered page: %w", name, err)
	}
	page = &Page{Notebook: name, Kernel: kernelName}
	if err := json.Unmarshal(raw, &page.Cells); err != nil {
		return nil, fmt.Errorf("browsertest: %s: decoding the rendered page: %w", name, err)
	}
	if xr, err := chromedp.Run(bctx, chromedp.Evaluate[json.RawMessage](`window.__pqx ? JSON.stringify(window.__pqx) : ""`)); err == nil {
		var s string
		if json.Unmarshal(xr, &s) == nil && s != "" {
			page.Explorer = &ExplorerRun{}
			if err := json.Unmarshal([]byte(s), page.Explorer); err != nil {
				return nil, fmt.Errorf("browsertest: %s: decoding the explorer run: %w", name, err)
			}
			logf("%s: ε explorer: %+v", name, *page.Explorer)
		}
	}
	if opt.Screenshot != "" {
		if err := screenshot(bctx, opt.Screenshot); err != nil {
			return page, fmt.Errorf("browsertest: %s: screenshot: %w", name, err)
		}
		logf("%s: screenshot %s", name, opt.Screenshot)
	}
	return page, nil
}

// waitFor polls the JavaScript expression until it is true or ctx ends.
func waitFor(ctx context.Context, expr string) error {
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return nil
		}
		select {
		case <-ctx.Done():
			if err != nil {
				return fmt.Errorf("%w (last evaluation: %v)", ctx.Err(), err)
			}
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// cellProgress is what progressJS reports.
type cellProgress struct {
	Total   int    `json:"total"`   // code cells with source
	Pending []int  `json:"pending"` // their indexes (from 0) not yet finished
	Busy    bool   `json:"busy"`
	Dead    string `json:"dead"` // why the kernel is gone, if it is
}

// waitCells waits until every code cell has its execute reply and, unless
// it was aborted, the end of its output, and the kernel is idle.
func waitCells(ctx context.Context, name string, start time.Time, logf func(string, ...any), poll func(context.Context)) error {
	last := -1
	var p cellProgress
	for {
		if poll != nil {
			poll(ctx)
		}
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](progressJS))
		if err == nil {
			if err := json.Unmarshal(raw, &p); err != nil {
				return fmt.Errorf("browsertest: %s: decoding progress: %w", name, err)
			}
			if p.Dead != "" {
				return fmt.Errorf("browsertest: %s: the kernel died (%s) with cells %s (counting from 1) pending", name, p.Dead, cellList(p.Pending))
			}
			if len(p.Pending) == 0 && !p.Busy {
				return nil
			}
			if len(p.Pending) != last {
				last = len(p.Pending)
				logf("%s: %d of %d code cells finished after %v", name, p.Total-len(p.Pending), p.Total, time.Since(start).Round(time.Second))
			}
		}
		select {
		case <-ctx.Done():
			msg := fmt.Sprintf("browsertest: %s: cells %s (counting from 1) had not finished when the run timed out", name, cellList(p.Pending))
			if err != nil {
				msg += fmt.Sprintf(" (last evaluation failed: %v)", err)
			}
			return fmt.Errorf("%s: %w", msg, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func cellList(idx []int) string {
	s := make([]string, len(idx))
	for i, x := range idx {
		s[i] = fmt.Sprint(x + 1)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// screenshot makes the viewport as tall as the notebook, so that the whole
// notebook (which scrolls inside #site, not the window) is captured, and
// writes a PNG to path.
func screenshot(ctx context.Context, path string) error {
	h, err := chromedp.Run(ctx, chromedp.Evaluate[int](
		`Math.ceil(document.getElementById('header').getBoundingClientRect().height + document.getElementById('site').scrollHeight + 20)`))
	if err != nil {
		return err
	}
	h = min(max(h, 600), 30000)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, int64(h))); err != nil {
		return err
	}
	// Wait for the layout to follow the new size.
	if err := waitFor(ctx, `(() => { const s = document.getElementById('site'); return s.scrollHeight <= s.clientHeight + 1; })()`); err != nil {
		return err
	}
	return saveFullScreenshot(ctx, path)
}

// saveFullScreenshot writes a PNG of the whole page to path. (Quality
// 100 makes chromedp capture a PNG; below 100 it is a JPEG, which the
// file name would misstate.)
func saveFullScreenshot(ctx context.Context, path string) error {
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, png, 0o644)
}

// stopBrowser makes sure no process of the browser with this profile
// directory survives (chromedp has already ended the browser itself), then
// removes the profile.
func stopBrowser(profile string) error {
	marker := "--user-data-dir=" + profile
	for range 3 {
		for _, p := range processesMentioning(marker) {
			p.kill()
		}
		time.Sleep(50 * time.Millisecond)
	}
	var err error
	if left := Leftovers(marker); len(left) > 0 {
		err = fmt.Errorf("browsertest: Chromium processes survived:\n%s", strings.Join(left, "\n"))
	}
	return errors.Join(err, os.RemoveAll(profile))
}

// installJS turns autosave off and records, on each code cell, its execute
// reply's status and the end of its output (finished_execute), and on the
// page whether the kernel died.
const installJS = `(() => {
	const nb = Jupyter.notebook;
	nb.set_autosave_interval(0);
	window.__pq = {dead: ''};
	const ev = nb.events;
	ev.on('kernel_dead.Kernel', () => { window.__pq.dead = 'kernel_dead'; });
	ev.on('kernel_killed.Kernel', () => { window.__pq.dead = 'kernel_killed'; });
	ev.on('kernel_failed_restart.Kernel', () => { window.__pq.dead = 'kernel_failed_restart'; });
	ev.on('kernel_restarting.Kernel', () => { window.__pq.dead = 'kernel_restarting (it crashed)'; });
	ev.on('execute.CodeCell', (e, d) => {
		d.cell.__pq_status = ''; d.cell.__pq_finished = false; d.cell.__pq_started = true;
	});
	ev.on('finished_execute.CodeCell', (e, d) => { d.cell.__pq_finished = true; });
	for (const c of nb.get_cells()) {
		if (c.cell_type !== 'code') continue;
		const orig = c._handle_execute_reply;
		c._handle_execute_reply = function (msg) {
			this.__pq_status = (msg.content && msg.content.status) || 'unknown';
			this.__pq_ename = (msg.content && msg.content.ename) || '';
			this.__pq_evalue = (msg.content && msg.content.evalue) || '';
			return orig.call(this, msg);
		};
	}
})()`

const kernelReadyJS = `(() => {
	const k = Jupyter.notebook.kernel;
	return !!(k && k.is_connected() && k.info_reply && k.info_reply.protocol_version);
})()`

const progressJS = `(() => {
	const nb = Jupyter.notebook;
	const pending = [];
	let total = 0;
	nb.get_cells().forEach((c, i) => {
		if (c.cell_type !== 'code' || c.get_text().trim() === '') return;
		total++;
		const replied = !!c.__pq_status && !c.element.hasClass('running');
		const done = replied && (c.__pq_finished || c.__pq_status === 'aborted');
		if (!done) pending.push(i);
	});
	return {total: total, pending: pending, busy: !!nb.kernel_busy, dead: window.__pq.dead};
})()`

// explorerJS drives the first ε explorer of the page (lib/nb Explorer), one
// step per call: once its slider and Done button are there and the view is
// marked live (the kernel listens to the widgets: data-live) it records the
// view, moves the slider to its last position and fires "change"; when the
// view shows the new ε it records the view again and presses Done (also
// after 60 s without a new view, recorded as a timeout). Its state is
// window.__pqx.
const explorerJS = `(() => {
	const ctl = document.querySelector('.pomdpq-explorer-controls');
	if (!ctl) return null;
	const st = window.__pqx || (window.__pqx = {phase: 'wait'});
	const view = () => document.querySelector('.pomdpq-explorer-view');
	const diagram = () => { const v = view(); const d = v && v.querySelector('.pomdpq-explorer-diagram'); return d ? d.innerHTML : ''; };
	const slider = ctl.querySelector('input[type=range]');
	const button = ctl.querySelector('button');
	if (st.phase === 'wait') {
		if (!slider || !button || !view() || view().dataset.live !== 'true') return st;
		st.beforeEps = view().dataset.eps; st.beforeClasses = view().dataset.classes;
		window.__pqxDiagram = diagram();
		slider.value = slider.max;
		slider.dispatchEvent(new Event('change'));
		st.phase = 'moved'; window.__pqxAt = Date.now();
		return st;
	}
	if (st.phase === 'moved') {
		const v = view();
		if (v && v.dataset.eps !== st.beforeEps) {
			st.afterEps = v.dataset.eps; st.afterClasses = v.dataset.classes;
			const d = diagram();
			st.diagramChanged = d !== '' && d !== window.__pqxDiagram;
			st.phase = 'done';
			button.click();
		} else if (Date.now() - window.__pqxAt > 60000) {
			st.phase = 'timeout';
			if (button) button.click();
		}
	}
	return st;
})()`

// extractJS returns, for every cell, what the page shows (see [Cell]).
const extractJS = `(() => {
	const nb = Jupyter.notebook;
	const text = (el, n) => (el ? el.innerText : '').slice(0, n);
	return nb.get_cells().map((c, i) => {
		const r = {index: i, type: c.cell_type, source: c.get_text(), outputs: []};
		if (c.cell_type !== 'code') return r;
		r.prompt = (typeof c.input_prompt_number === 'number') ? c.input_prompt_number : null;
		r.status = c.__pq_status || '';
		r.ename = c.__pq_ename || '';
		r.evalue = c.__pq_evalue || '';
		r.outputTypes = c.output_area.outputs.map(o => o.output_type + (o.name ? ':' + o.name : ''));
		for (const area of c.output_area.element[0].querySelectorAll('.output_area')) {
			const sub = area.querySelector('.output_subarea') || area;
			const o = {classes: sub.className, text: text(sub, 6000), tables: [], svgs: [], bars: []};
			for (const t of sub.querySelectorAll('table.pomdpq-table')) {
				const cap = t.querySelector('caption');
				o.tables.push({rows: t.querySelectorAll('tbody tr').length,
					cols: t.querySelectorAll('thead th').length,
					caption: cap ? cap.innerText : ''});
			}
			for (const s of sub.querySelectorAll('svg')) {
				if (s.parentElement.closest('svg')) continue; // nested svg
				const b = s.getBoundingClientRect();
				const t = s.querySelector('text');
				o.svgs.push({diagram: !!s.querySelector('g.nodes'), width: b.width, height: b.height,
					title: t ? t.textContent : '', marks: s.querySelectorAll('path, rect').length});
			}
			for (const p of sub.querySelectorAll('.pomdpq-progress')) {
				const fill = p.querySelector('span > span');
				o.bars.push({text: p.innerText, width: fill ? fill.style.width : ''});
			}
			r.outputs.push(o);
		}
		return r;
	});
})()`
