// Package browsertest runs the project's notebooks in a real browser: it
// starts the classic Jupyter Notebook server with the pomdpq kernel, drives
// Debian's Chromium headless through chromedp to open a notebook and run all
// of its cells, and then checks what the page shows: no error output, every
// cell executed, and the rich displays of lib/nb (gota tables, inline SVG
// plots, the quotient diagram, a progress bar at 100 %) rendered.
//
// The browser test itself (browser_test.go) runs only when POMDPQ_BROWSER=1
// (make test-browser sets it): it needs Jupyter, Chromium and the kernel built
// by make kernel, which plain `go test ./...` does not assume. It runs a copy
// of notebooks/00-quickstart.ipynb, which must pass (and whose ε explorer's
// slider it moves, checking that the quotient diagram is redrawn), and a
// deliberately broken copy, on which the check must fail and name the broken
// cell. TestReportInBrowser opens the page of `pomdpq analyze tiger` through
// file:// (Chromium only): no console message, nothing fetched, SVG, tables
// and the diagram drawn; TestReportMitInBrowser the page of a model of mit's
// sizes, whose collapsed diagram must not scroll sideways. TestWebPage serves
// out/web (make web) from a localhost net/http server and drives the web
// page: a shared link, a malformed file, maze4x3.pomdp chosen through the
// file input with counts equal to the library's, the ε slider, an
// over-budget refusal, Cancel, and no request leaving localhost.
//
// Processes are always stopped: [Server.Stop] shuts the kernels down, ends the
// server's process group and then any process still referring to the
// server's private runtime directory; the browser is ended through its
// context, and [Leftovers] lets a test verify that nothing remains.
package browsertest
