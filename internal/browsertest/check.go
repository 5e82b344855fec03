package browsertest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Page is what the browser showed of a notebook after running all cells.
type Page struct {
	Notebook string // name, relative to the server's notebook directory
	Kernel   string // the kernel's name
	Cells    []Cell
	// Explorer is what the ε explorer (nb.EpsExplorer) did when the run
	// moved its slider; nil when the page had no explorer.
	Explorer *ExplorerRun
}

// ExplorerRun records the browser's use of an ε explorer: the view before
// and after the slider was moved to its last position, and whether the
// quotient diagram changed.
type ExplorerRun struct {
	Phase         string `json:"phase"` // "wait", "moved", "done" or "timeout"
	BeforeEps     string `json:"beforeEps"`
	AfterEps      string `json:"afterEps"`
	BeforeClasses string `json:"beforeClasses"`
	AfterClasses  string `json:"afterClasses"`
	// DiagramChanged: the diagram's SVG differs after the move (and is
	// not empty).
	DiagramChanged bool `json:"diagramChanged"`
}

// Cell is one notebook cell as rendered.
type Cell struct {
	Index       int      `json:"index"` // position in the notebook, from 0
	Type        string   `json:"type"`  // code, markdown or raw
	Source      string   `json:"source"`
	Prompt      *int     `json:"prompt"`      // the n of In [n]; nil if the cell did not run
	Status      string   `json:"status"`      // the execute reply's status: ok, error, aborted; "" if none
	EName       string   `json:"ename"`       // the reply's error name, if any
	EValue      string   `json:"evalue"`      // the reply's error value, if any
	OutputTypes []string `json:"outputTypes"` // output_type (and stream name) of each output
	Outputs     []Output `json:"outputs"`
}

// Output is one rendered output area of a cell.
type Output struct {
	Classes string  `json:"classes"` // CSS classes of the output (output_stderr, output_error, rendered_html, ...)
	Text    string  `json:"text"`    // its visible text, truncated
	Tables  []Table `json:"tables"`  // lib/nb tables (table.pomdpq-table)
	SVGs    []SVG   `json:"svgs"`    // inline SVG images
	Bars    []Bar   `json:"bars"`    // lib/nb progress bars
}

// Table is a rendered lib/nb (gota) table.
type Table struct {
	Rows    int    `json:"rows"`
	Cols    int    `json:"cols"`
	Caption string `json:"caption"`
}

// SVG is a rendered inline SVG image: a quotient diagram (lib/nb's layered
// graph, which has a g.nodes group) or a plot (gonum/plot).
type SVG struct {
	Diagram bool    `json:"diagram"`
	Width   float64 `json:"width"` // rendered size in CSS pixels
	Height  float64 `json:"height"`
	Title   string  `json:"title"` // its first text element
	Marks   int     `json:"marks"` // paths and rectangles drawn
}

// Bar is a rendered lib/nb progress bar.
type Bar struct {
	Text  string `json:"text"`
	Width string `json:"width"` // the CSS width of the filled part, such as "100%"
}

// Expect is what a notebook's page must show besides clean, executed cells.
type Expect struct {
	Tables   int // at least this many lib/nb tables with rows
	Plots    int // at least this many inline SVG plots
	Diagrams int // at least this many quotient diagrams
	Bars     int // at least this many progress bars, each at 100 %
}

// Failure is one reason a page fails its check.
type Failure struct {
	Cell    int // index of the cell (from 0), or -1 for the page as a whole
	Message string
}

// CheckError lists every failure of a page, in cell order.
type CheckError struct {
	Notebook string
	Failures []Failure
}

// Error lists the failures, one per line.
func (e *CheckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem(s) in the browser:", e.Notebook, len(e.Failures))
	for _, f := range e.Failures {
		b.WriteString("\n  - ")
		b.WriteString(strings.ReplaceAll(f.Message, "\n", "\n      "))
	}
	return b.String()
}

// errorText matches output that signals a failure even when it is not an
// error output: a Go panic or runtime error, a compiler error, a non-zero
// exit.
var errorText = regexp.MustCompile(`(?i)\bpanic\b|fatal error|runtime error|exit status [1-9]|\berror\b|undefined: |cannot use `)

// Check returns nil if the page is clean and shows what e asks for, else a
// [*CheckError] with one failure for each failing cell (naming the cell,
// saying what is wrong and quoting its output) and one for each missing kind
// of display. Clean means: every code cell with source was executed (has an
// In [n] number) and its reply was "ok"; no output is an error output, and no
// stderr output, nor any output with a Go panic trace, reports an error; every
// table has rows, every SVG is drawn, every progress bar is at 100 %.
func (p *Page) Check(e Expect) error {
	var fails []Failure
	var tables, plots, diagrams, bars int
	for i := range p.Cells {
		c := &p.Cells[i]
		if c.Type != "code" || strings.TrimSpace(c.Source) == "" {
			continue
		}
		var problems []string
		showOutput := false
		switch {
		case c.Status == "aborted":
			problems = append(problems, "not executed: the kernel aborted it after an earlier error")
		case c.Prompt == nil && c.Status == "":
			problems = append(problems, "not executed (no In [n] number, no reply from the kernel)")
		case c.Status != "ok":
			msg := "the kernel replied " + quoteOr(c.Status, "nothing")
			if c.EName != "" || c.EValue != "" {
				msg += fmt.Sprintf(" (%s: %s)", c.EName, c.EValue)
			}
			problems = append(problems, msg)
			showOutput = true
		}
		for _, o := range c.Outputs {
			switch {
			case o.has("output_error"):
				problems = append(problems, "an error output")
				showOutput = true
			case o.has("output_stderr") && errorText.MatchString(o.Text):
				problems = append(problems, "stderr output reporting an error")
				showOutput = true
			case strings.Contains(o.Text, "panic: ") || strings.Contains(o.Text, "goroutine 1 ["):
				problems = append(problems, "output with a Go panic")
				showOutput = true
			}
			for _, t := range o.Tables {
				if t.Rows > 0 && t.Cols > 0 {
					tables++
				} else {
					problems = append(problems, fmt.Sprintf("table %q is empty (%d rows, %d columns)", t.Caption, t.Rows, t.Cols))
				}
			}
			for _, s := range o.SVGs {
				switch {
				case s.Width <= 0 || s.Height <= 0 || s.Marks == 0:
					problems = append(problems, fmt.Sprintf("SVG %q is not drawn (%.0f×%.0f px, %d marks)", s.Title, s.Width, s.Height, s.Marks))
				case s.Diagram:
					diagrams++
				default:
					plots++
				}
			}
			for _, b := range o.Bars {
				if b.Width != "100%" || !strings.Contains(b.Text, "(100%)") {
					problems = append(problems, fmt.Sprintf("progress bar not at 100 %%: width %q, text %q", b.Width, b.Text))
					continue
				}
				bars++
			}
		}
		if len(problems) == 0 {
			continue
		}
		msg := c.Name() + ": " + strings.Join(dedupe(problems), "; ")
		if showOutput {
			msg += "; its output:\n" + c.outputText()
		}
		fails = append(fails, Failure{Cell: c.Index, Message: msg})
	}
	for _, want := range []struct {
		what      string
		got, want int
	}{
		{"gota tables", tables, e.Tables},
		{"inline SVG plots", plots, e.Plots},
		{"quotient diagrams", diagrams, e.Diagrams},
		{"progress bars at 100 %", bars, e.Bars},
	} {
		if want.got < want.want {
			fails = append(fails, Failure{Cell: -1,
				Message: fmt.Sprintf("the page shows %d %s, want at least %d", want.got, want.what, want.want)})
		}
	}
	if len(fails) == 0 {
		return nil
	}
	return &CheckError{Notebook: p.Notebook, Failures: fails}
}

// dedupe removes repeated strings, keeping the first of each.
func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Name names the cell for a message: its position counting from 1, its
// prompt, and its first line of code.
func (c *Cell) Name() string {
	prompt := "In [ ]"
	if c.Prompt != nil {
		prompt = fmt.Sprintf("In [%d]", *c.Prompt)
	}
	return fmt.Sprintf("cell %d (%s, %q)", c.Index+1, prompt, c.FirstLine())
}

// FirstLine returns the first line of the cell's source that is not blank,
// a comment or a GoNB "%%" marker, shortened to 60 characters.
func (c *Cell) FirstLine() string {
	for line := range strings.SplitSeq(c.Source, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line == "%%" || strings.HasPrefix(line, "//") {
			continue
		}
		if r := []rune(line); len(r) > 60 {
			line = string(r[:57]) + "..."
		}
		return line
	}
	return ""
}

func (c *Cell) outputText() string {
	var parts []string
	for _, o := range c.Outputs {
		if t := strings.TrimSpace(o.Text); t != "" && !slices.Contains(parts, t) {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return excerpt(strings.Join(parts, "\n"))
}

func (o Output) has(class string) bool {
	return strings.Contains(" "+o.Classes+" ", " "+class+" ")
}

// excerpt returns the first 20 lines of s.
func excerpt(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], fmt.Sprintf("… (%d more lines)", len(lines)-20))
	}
	return strings.Join(lines, "\n")
}

func quoteOr(s, empty string) string {
	if s == "" {
		return empty
	}
	return fmt.Sprintf("%q", s)
}
