package report

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/pomdp/cassandra"
	"github.com/pomdpq/pomdpq/lib/pomdp/pomdpjson"
	"github.com/pomdpq/pomdpq/lib/render"
)

// File is an exported file written beside the report.
type File struct {
	Name string // base name, linked relatively
	What string
	Err  string // why it could not be written (Name is then empty)
	// Data is the file's content (nil when Err is set).
	Data []byte
}

// Files returns the exported quotient in memory, as Write writes it beside
// the page (base, then "-quotient.pomdp" and "-quotient.json"): no file is
// opened, so the web page calls it too.
func (r *Report) Files(base string) []File {
	if r.Exported == nil {
		return nil
	}
	var files []File
	for _, ext := range []string{".pomdp", ".json"} {
		var buf bytes.Buffer
		var err error
		if ext == ".pomdp" {
			err = cassandra.Write(&buf, r.Exported)
		} else {
			err = pomdpjson.Write(&buf, r.Exported)
		}
		what := "the quotient in Cassandra's .pomdp format"
		if rs := cassandra.Renames(r.Exported); ext == ".pomdp" && len(rs) > 0 {
			var l []string
			for _, x := range rs {
				l = append(l, fmt.Sprintf("%q as %s", x.Original, x.Written))
			}
			what += " (names the format cannot hold are written renamed, " + strings.Join(l, ", ") +
				", as a comment in the file records; pomdpq restores them on reading)"
		}
		if ext == ".json" {
			what = "the quotient as JSON (pomdpq's model format)"
		}
		if err != nil {
			files = append(files, File{What: what, Err: err.Error()})
			continue
		}
		files = append(files, File{Name: base + "-quotient" + ext, What: what, Data: buf.Bytes()})
	}
	return files
}

// Write writes the exported quotient files beside path (base name of path
// without its extension, then "-quotient.pomdp" and "-quotient.json") and
// the HTML page to path. It returns the files written.
func (r *Report) Write(path string) ([]File, error) {
	dir := filepath.Dir(path)
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	files := r.Files(base)
	for _, f := range files {
		if f.Err != "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	var page bytes.Buffer
	if err := r.WriteHTML(&page, files); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return files, nil
}

const style = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ccc;padding-bottom:.2em}
table.pomdpq-table{margin:.8em 0}table.pomdpq-table td,table.pomdpq-table th{font-size:.92em}
.note{color:#555;font-size:.92em}.refused{color:#a40000}.ok{color:#1a7f37}.bad{color:#a40000}
figure{margin:1em 0;overflow-x:auto}figure.diagram svg{max-width:100%;height:auto}figcaption{color:#555;font-size:.9em}
code{background:#f4f4f4;padding:0 .2em}`

// WriteHTML writes the page; files are the exported files to link.
func (r *Report) WriteHTML(w io.Writer, files []File) error {
	var b strings.Builder
	title := fmt.Sprintf("pomdpq analysis of %s", r.Model.Name)
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(title), style)
	if err := r.body(&b, files); err != nil {
		return err
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteFragment writes the page's content as a fragment to insert into
// another page (the web page does): one <div class="pomdpq-report">
// holding its own style, scoped to it, and the same sections as
// WriteHTML, the quotient's in <div id="pomdpq-quotient"> and the exported
// files' in <div id="pomdpq-files">, which QuotientHTML and FilesHTML
// render again after SetEps.
func (r *Report) WriteFragment(w io.Writer, files []File) error {
	var b strings.Builder
	scoped := strings.ReplaceAll(style, "body{", ".pomdpq-report{")
	for _, sel := range []string{"h1{", "h2{", "table.pomdpq-table", ".note{", "figure{", "figcaption{", "code{"} {
		scoped = strings.ReplaceAll(scoped, sel, ".pomdpq-report "+sel)
	}
	fmt.Fprintf(&b, "<div class=\"pomdpq-report\">\n<style>%s</style>\n", scoped)
	if err := r.body(&b, files); err != nil {
		return err
	}
	b.WriteString("</div>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// QuotientHTML renders the quotient section (the inside of
// <div id="pomdpq-quotient">) for the current DiagramEps.
func (r *Report) QuotientHTML() (string, error) {
	var b strings.Builder
	err := r.quotientSection(&b)
	return b.String(), err
}

// FilesHTML renders the exported files' section (the inside of
// <div id="pomdpq-files">).
func (r *Report) FilesHTML(files []File) string {
	var b strings.Builder
	r.filesSection(&b, files)
	return b.String()
}

// By says what wrote the report, on its first lines ("pomdpq analyze" by
// default).
func (r *Report) by() string {
	if r.opt.By != "" {
		return r.opt.By
	}
	return "<code>pomdpq analyze</code>"
}

// body writes the sections of the page, in order.
func (r *Report) body(b *strings.Builder, files []File) error {
	r.modelSection(b)
	r.familiesSection(b)
	if err := r.curvesSection(b); err != nil {
		return err
	}
	r.requestedSection(b)
	r.certificatesSection(b)
	b.WriteString("<div id=\"pomdpq-quotient\">\n")
	if err := r.quotientSection(b); err != nil {
		return err
	}
	b.WriteString("</div>\n")
	r.policySection(b)
	if err := r.writePlanning(b); err != nil {
		return err
	}
	if err := r.payoffSection(b); err != nil {
		return err
	}
	b.WriteString("<div id=\"pomdpq-files\">\n")
	r.filesSection(b, files)
	b.WriteString("</div>\n")
	return nil
}

// modelSection writes the title, the run's summary and the model's sizes.
func (r *Report) modelSection(b *strings.Builder) {
	m := r.Model
	title := fmt.Sprintf("pomdpq analysis of %s", m.Name)
	fmt.Fprintf(b, "<h1>%s</h1>\n", esc(title))
	fmt.Fprintf(b, "<p class=\"note\">Model %s, horizon T = %d (%s); %s deterministic probes with m ≤ %s nodes; ground metric %s; memory budget %s. Written by %s in %.2f s, %s.</p>\n",
		esc(r.Source), r.T, esc(r.TReason), esc(string(r.Kind)), esc(r.msText()), esc(r.Ground.String()), esc(budgetText(r.Budget)), r.by(), r.Seconds, r.Created.Format("2006-01-02 15:04 UTC"))

	// Sizes.
	b.WriteString("<h2 id=\"sizes\">Model</h2>\n")
	disc := "none"
	if m.HasDiscount {
		disc = strconv.FormatFloat(m.Discount, 'g', -1, 64)
	}
	hist := r.histories()
	r.table(b, "Sizes", []string{"quantity", "value"}, [][]string{
		{"states |S|", itoa(m.NumStates())},
		{"actions |A|", fmt.Sprintf("%d (%s)", m.NumActions(), preview(m.Actions))},
		{"observations |O|", fmt.Sprintf("%d (%s)", m.NumObservations(), preview(m.Observations))},
		{"discount", disc},
		{"ground metric d_O", r.Ground.String()},
		{"horizon T", itoa(r.T)},
		{"histories per depth 0 … T", ints(hist)},
	})
}

// familiesSection writes the probe families' table and their cost.
func (r *Report) familiesSection(b *strings.Builder) {
	b.WriteString("<h2 id=\"families\">Probe families and cost</h2>\n")
	b.WriteString("<p>Two histories are merged at tolerance ε when no probe of the family tells their futures apart by more than ε (W1 distance of the suffix laws under the ground metric d_O above). The estimate is <code>distance.Cost</code>, checked against the budget before anything is allocated.</p>\n")
	var rows [][]string
	for _, f := range r.Families {
		est, largest := "—", "—"
		if f.Cost.FamilySize > 0 || f.Cost.Bytes() > 0 {
			est = distance.FormatBytes(f.Cost.Bytes())
			n, v := f.Cost.Largest()
			largest = fmt.Sprintf("%s (%s)", n, distance.FormatBytes(v))
		}
		if f.Refused != "" {
			rows = append(rows, []string{fmt.Sprintf("m ≤ %d", f.M), itoa(f.Size), "—", "—", "—", "—", est, largest, "refused"})
			continue
		}
		maxd := num(f.MaxDistance)
		if !f.MaxExact {
			maxd = "> " + maxd // decision mode: a lower bound
		}
		rows = append(rows, []string{fmt.Sprintf("m ≤ %d", f.M), itoa(f.Size), itoa(f.Distinct), itoa(f.Exact),
			maxd, itoa(f.StandIns), est, largest, fmt.Sprintf("%.3f", f.Seconds)})
	}
	r.table(b, "Stationary probe families", []string{"family", "controllers", "distinct", "exact classes", "max distance", "stand-ins", "estimated peak", "largest term", "seconds"}, rows)
	fmt.Fprintf(b, "<p class=\"note\">%s</p>\n", esc(r.DecisionNote()))
	for _, f := range r.Families {
		if f.Refused != "" {
			fmt.Fprintf(b, "<p class=\"refused\">m ≤ %d not computed: %s</p>\n", f.M, esc(f.Refused))
		}
	}
}

// curvesSection writes the class-count curves over the ε grid and their
// table.
func (r *Report) curvesSection(b *strings.Builder) error {
	m := r.Model
	b.WriteString("<h2 id=\"curves\">Classes over ε</h2>\n")
	var curves []render.Curve
	for _, f := range r.Families {
		if f.Curve != nil {
			curves = append(curves, render.Curve{Label: fmt.Sprintf("m ≤ %d (%d probes)", f.M, f.Size), Eps: r.Grid, Counts: f.Curve})
		}
	}
	if len(curves) > 0 {
		p, err := render.CurvePlot(fmt.Sprintf("%s, T = %d: classes vs ε", m.Name, r.T), curves...)
		if err != nil {
			return err
		}
		svg, err := render.PlotSVG(p, 6*vg.Inch, 3.6*vg.Inch)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "<figure class=\"curves\">%s<figcaption>Total classes over depths 0 … %d of the greedy complete-linkage ε-partition, per family, at the %d ε of the grid %s (decision mode).</figcaption></figure>\n", svg, r.T, len(r.Grid), esc(gridText(r.Grid)))
		header := []string{"ε"}
		for _, c := range curves {
			header = append(header, "classes, "+c.Label)
		}
		var rows [][]string
		step := max(1, (len(r.Grid)-1)/10)
		for i := 0; i < len(r.Grid); i += step {
			row := []string{num(r.Grid[i])}
			for _, c := range curves {
				row = append(row, itoa(c.Counts[i]))
			}
			rows = append(rows, row)
		}
		r.table(b, "Class counts", header, rows)
	} else {
		b.WriteString("<p class=\"refused\">No family was computed (see above).</p>\n")
	}
	return nil
}

// requestedSection writes the class counts at the ε requested (--eps),
// if any.
func (r *Report) requestedSection(b *strings.Builder) {
	if len(r.Requested) > 0 {
		header := []string{"ε"}
		for _, f := range r.Families {
			header = append(header, fmt.Sprintf("classes, %s m ≤ %d", r.Kind, f.M))
		}
		var rows [][]string
		for _, q := range r.Requested {
			row := []string{num(q.Eps)}
			for _, n := range q.Classes {
				cell := "refused"
				if n >= 0 {
					cell = itoa(n)
				}
				row = append(row, cell)
			}
			rows = append(rows, row)
		}
		b.WriteString("<div id=\"pomdpq-requested\">\n")
		r.table(b, "Classes at the requested ε (total over depths 0 … T, as pomdpq quotient prints them)", header, rows)
		b.WriteString("</div>\n")
	}
}

// certificatesSection writes the greedy subsets and the cross-family gap.
func (r *Report) certificatesSection(b *strings.Builder) {
	b.WriteString("<h2 id=\"certificates\">Certificates</h2>\n")
	c := r.Cert
	if len(c.Steps) > 0 {
		fmt.Fprintf(b, "<p>Greedy controller subsets S_1 ⊂ S_2 ⊂ … of the m ≤ %d family (alg:greedy-fsc, %d distinct probes) and their envelope gap δ_S = ‖d − d_S‖∞ (thm:probe-approx): an ε-quotient computed from S alone is an (ε + δ_S)-quotient for the whole family.</p>\n", c.M, c.Cols)
		var rows [][]string
		for _, s := range c.Steps {
			rows = append(rows, []string{itoa(s.K), itoa(s.First), num(s.Gain), num(s.Coverage), num(s.Gap)})
		}
		r.table(b, "Greedy subsets", []string{"k", "probe added (family index)", "coverage gain", "coverage", "δ_S"}, rows)
	} else {
		fmt.Fprintf(b, "<p class=\"refused\">Greedy subsets: %s</p>\n", esc(c.Note))
	}
	var rows [][]string
	if !math.IsNaN(c.DeltaClk) {
		rows = append(rows, []string{"δ_clk = ‖d^clk − d^op‖∞ (m = 1)", num(c.DeltaClk),
			fmt.Sprintf("an ε-quotient for constant-action probes is an (ε + δ_clk)-quotient for open-loop strings (cor:op-to-clk-transfer); exact classes %d (clock-aware) and %d (operational)", c.ClkClasses, c.OpClasses)})
	} else {
		rows = append(rows, []string{"δ_clk (m = 1)", "not computed", c.ClkNote})
	}
	for _, f := range r.Families {
		if f.Refused == "" {
			rows = append(rows, []string{fmt.Sprintf("stand-ins, m ≤ %d", f.M), itoa(f.StandIns),
				"(history, probe) pairs of probability 0 that took the uniform stand-in law (docs/conventions.md#stand-ins)"})
		}
	}
	r.table(b, "Cross-family gap and stand-ins", []string{"certificate", "value", "meaning"}, rows)
}

// policySection writes the evaluated policy (--policy), or says there is
// none.
func (r *Report) policySection(b *strings.Builder) {
	b.WriteString("<h2 id=\"policy\">Policy</h2>\n")
	if p := r.Policy; p != nil {
		kind := "stationary"
		if !p.Stationary {
			kind = "clock-aware"
		}
		if !p.Deterministic {
			kind += ", stochastic"
		} else {
			kind += ", deterministic"
		}
		rows := [][]string{{"controller", fmt.Sprintf("%d nodes, %s, started in node %d", p.Nodes, kind, p.Start)}}
		if a := p.Analysis; a != nil {
			rows = append(rows,
				[]string{"in the probe family " + a.Family, fmt.Sprintf("%s: %s", a.Verdict, a.Reason)},
				[]string{"smallest equivalent graph (every horizon)", fmt.Sprintf("%d nodes", a.Minimal.Nodes)},
				[]string{fmt.Sprintf("smallest clock-aware equivalent up to T = %d", r.T), fmt.Sprintf("%d nodes (widths per stage %v)", a.UpTo.Nodes(), a.UpTo.Widths)},
				[]string{"soundness gap of the quotient it sees", num(a.SoundnessMax)})
		}
		rows = append(rows,
			[]string{fmt.Sprintf("V_M^π, T = %d (model, undiscounted)", r.T), num(p.ValueModel)},
			[]string{fmt.Sprintf("V_Q^π, T = %d (quotient it sees)", r.T), num(p.ValueQuotient)},
			[]string{"|V_M^π − V_Q^π|", num(math.Abs(p.ValueModel - p.ValueQuotient))})
		if !math.IsNaN(p.Infinite) {
			rows = append(rows, []string{"value at b0, infinite horizon (discounted)", num(p.Infinite)})
		}
		if p.InfiniteNote != "" {
			rows = append(rows, []string{"infinite horizon, start node", p.InfiniteNote})
		}
		if a := p.Analysis; a != nil {
			rows = append(rows, []string{"classes whose histories it acts differently after", itoa(len(a.Splits))})
		}
		rows = append(rows, []string{"history pairs of one class whose laws under it differ (d^π > 0)", itoa(p.LawSplit)})
		if p.LawSplit > 0 {
			rows = append(rows, []string{"largest such distance d^π", num(p.MaxLawSplit)})
		}
		r.table(b, "Policy "+p.Name, []string{"quantity", "value"}, rows)
		b.WriteString("<p class=\"note\">V<sub>M</sub><sup>π</sup> uses the model's reward R(s, a), which depends on the hidden state; the quotient gives each class the reward of its members' average belief. The two values agree when the quotient is exact, π is in the family and the reward is a function of actions and observations; with a latent reward they may differ even then, where members of one class hold different beliefs (the observation laws still agree: see the soundness gap).</p>\n")
		if a := p.Analysis; a != nil && len(a.Splits) > 0 {
			var rows [][]string
			for k, s := range a.Splits {
				if k == 12 {
					rows = append(rows, []string{"…", fmt.Sprintf("%d more classes", len(a.Splits)-k), ""})
					break
				}
				var groups []string
				for _, g := range s.Groups {
					groups = append(groups, "{"+strings.Join(g, ", ")+"}")
				}
				rows = append(rows, []string{itoa(s.Depth), s.Label, strings.Join(groups, " | ")})
			}
			r.table(b, "Classes the quotient merges and the policy tells apart (histories grouped by what it does next)", []string{"depth", "class", "groups"}, rows)
		}
		if len(p.Examples) > 0 {
			var rows [][]string
			for _, e := range p.Examples {
				rows = append(rows, []string{itoa(e.Depth), e.A, e.B, num(e.Distance)})
			}
			r.table(b, "History pairs of one class whose observation laws under the policy differ", []string{"depth", "history", "history", "d^π"}, rows)
		}
	} else {
		b.WriteString("<p class=\"note\">No policy given (<code>--policy FILE.pg</code> evaluates a solver's policy graph here).</p>\n")
	}
}

// quotientSection writes the quotient section: the diagram (collapsed
// past DiagramPerDepth classes per depth, with the class table beside it)
// and the soundness checks.
func (r *Report) quotientSection(b *strings.Builder) error {
	m := r.Model
	// Quotient.
	b.WriteString("<h2 id=\"quotient\">Quotient</h2>\n")
	if q := r.Quotient; q != nil {
		fmt.Fprintf(b, "<p>The ε = %s quotient of the m ≤ %d family: %d classes (per depth %s). One node per class, labelled by its members; an arrow per observation to the successor class.</p>\n",
			num(r.DiagramEps), r.QuotientM, q.Classes(), ints(q.Partition.Counts()))
		title := fmt.Sprintf("%s, m ≤ %d, T = %d, ε = %s", m.Name, r.QuotientM, r.T, num(r.DiagramEps))
		g, collapsed, classes := diagram(q, title, DiagramPerDepth)
		if slices.Max(q.Partition.Counts()) <= DiagramRowMax {
			g = render.QuotientGraph(q, title) // depths as rows: narrow enough
			classes = make([][]int, len(g.Layers))
			for t := range classes {
				for c := range g.Layers[t] {
					classes[t] = append(classes[t], c)
				}
			}
		}
		g.Links = r.cardLinks(classes)
		svg, err := g.SVG()
		if err != nil {
			return err
		}
		if !collapsed {
			fmt.Fprintf(b, "<figure class=\"diagram\">%s</figure>\n", stripProlog(svg))
		} else {
			fmt.Fprintf(b, "<p class=\"note\">More than %d classes at one depth: depths run left to right, each depth shows its %d largest classes (labelled \"class: {first member} +other members\") and one node for the rest, with their count; arrows between the same two nodes are merged and labelled by their observations, or by their number past three. The table beside lists every class.</p>\n",
				DiagramPerDepth, DiagramPerDepth-1)
			b.WriteString("<div class=\"quotient-view\" style=\"display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start\">\n")
			fmt.Fprintf(b, "<figure class=\"diagram collapsed\" style=\"flex:1 1 auto;max-height:900px;overflow:auto;margin:0\">%s</figure>\n", stripProlog(svg))
			header, rows, more := ClassTable(q, MaxClassRows)
			b.WriteString("<div class=\"class-table\" style=\"flex:1 1 360px;max-height:900px;overflow:auto\">\n")
			r.table(b, fmt.Sprintf("Classes (%d)", q.Classes()), header, rows)
			if more > 0 {
				fmt.Fprintf(b, "<p class=\"note\">… and %d more classes (the table stops at %d rows; the exported files hold them all).</p>\n", more, MaxClassRows)
			}
			b.WriteString("</div>\n</div>\n")
		}
		if !q.RightInvariant() {
			b.WriteString("<p class=\"note\">This ε-partition is not right-invariant: some member h of a class has h·z outside the successor class drawn (greedy linkage does not guarantee it); the diagram follows the representatives.</p>\n")
		}
		// Soundness.
		b.WriteString("<h3 id=\"soundness\">Soundness check</h3>\n<p>thm:myhill-nerode (ii): every probe sees the same observation law on the model and on the quotient it sees, max<sub>x</sub> |P<sub>M</sub><sup>π</sup>(x) − P<sub>Q</sub><sup>π</sup>(x)| = 0, for the exact quotient; an ε-quotient with ε &gt; 0 may show a gap.</p>\n")
		var rows [][]string
		for _, s := range r.Soundness {
			verdict := "not judged (ε > 0: a gap is allowed)"
			if s.Eps == 0 {
				if s.MaxGap <= SoundTol {
					verdict = fmt.Sprintf("sound: every gap ≤ %g", SoundTol)
				} else {
					verdict = fmt.Sprintf("NOT sound: %d probes above %g", s.Broken, SoundTol)
				}
			}
			checked := itoa(s.Probes)
			if s.Probes < s.Of {
				checked = fmt.Sprintf("%d of %d (evenly spaced)", s.Probes, s.Of)
			}
			rows = append(rows, []string{num(s.Eps), itoa(s.Classes), checked, num(s.MaxGap), itoa(s.Worst), itoa(s.Broken), verdict})
		}
		r.table(b, "Soundness", []string{"ε", "classes", "probes checked", "max gap", "worst probe", "probes with a gap", "verdict"}, rows)
	} else {
		b.WriteString("<p class=\"refused\">No quotient: no family was computed.</p>\n")
	}
	r.whySection(b)
	return nil
}

// DiagramRowMax is the most classes of one depth drawn in a row; past it
// the depths are columns from left to right (Diagram), so that the
// diagram grows downwards instead of sideways.
const DiagramRowMax = 8

// MaxClassRows bounds the rows of the class table of a large quotient.
const MaxClassRows = 300

// filesSection writes the exported files' section.
func (r *Report) filesSection(b *strings.Builder, files []File) {
	// Files.
	b.WriteString("<h2 id=\"files\">Exported quotient</h2>\n")
	if r.Exported != nil {
		fmt.Fprintf(b, "<p>The quotient above as a standalone model (%d states), beliefs aggregated under %s: exact for every probe when beliefs do not depend on actions, otherwise the quotient seen by that probe.</p>\n<ul>\n",
			r.Exported.NumStates(), esc(r.Reference))
		for _, f := range files {
			if f.Err != "" {
				fmt.Fprintf(b, "<li>%s: not written: %s</li>\n", esc(f.What), esc(f.Err))
				continue
			}
			fmt.Fprintf(b, "<li><a href=\"%s\">%s</a>: %s</li>\n", esc(f.Name), esc(f.Name), esc(f.What))
		}
		b.WriteString("</ul>\n")
	} else if r.ExportErr != "" {
		fmt.Fprintf(b, "<p class=\"refused\">Not exported: %s</p>\n", esc(r.ExportErr))
	} else {
		b.WriteString("<p class=\"note\">Nothing exported.</p>\n")
	}
}

func (r *Report) table(b *strings.Builder, caption string, header []string, rows [][]string) {
	// Cells are text: render.TableHTML escapes them.
	h, err := render.TableHTML(caption, header, rows)
	if err != nil {
		fmt.Fprintf(b, "<p class=\"refused\">table %s: %s</p>\n", esc(caption), esc(err.Error()))
		return
	}
	b.WriteString(h)
	b.WriteByte('\n')
}

func (r *Report) msText() string {
	var s []string
	for _, f := range r.Families {
		s = append(s, itoa(f.M))
	}
	return strings.Join(s, ", ")
}

func (r *Report) histories() []int {
	var h []int
	p := 1
	for t := 0; t <= r.T; t++ {
		h = append(h, p)
		p *= r.Model.NumObservations()
	}
	return h
}

func budgetText(b int64) string {
	if b < 0 {
		return "none"
	}
	return distance.FormatBytes(b)
}

func stripProlog(svg string) string {
	if i := strings.Index(svg, "<svg"); i > 0 {
		return svg[i:]
	}
	return svg
}

func esc(s string) string { return html.EscapeString(s) }
func itoa(n int) string   { return strconv.Itoa(n) }
func num(x float64) string {
	return render.FormatNumber(x, 6)
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = itoa(x)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// DecisionNote says what the partitions depend on: the ε at which they
// were decided (decision mode) and what that means for the maximum
// distance.
func (r *Report) DecisionNote() string {
	end := "given"
	if r.opt.CurveTop <= 0 {
		end = fmt.Sprintf("%g × the ground metric's largest entry g_max = %s; d^Π of depth-t histories is at most g_max·(T − t), %s at depth 0", DefaultCurveTop, num(r.GroundMax), num(r.GroundMax*float64(r.T)))
	}
	s := fmt.Sprintf("Decision mode: the partitions were decided at the %d ε values of the grid %s (its end %s), fixed before the run", len(r.Grid), gridText(r.Grid), end)
	if extra := len(r.Decided) - len(r.Grid); extra > 0 {
		s += fmt.Sprintf(", and at the %d other ε requested (%d in all)", extra, len(r.Decided))
	}
	s += ". Each pair of classes is known only to be within or beyond each of them (distance.Options.Eps with Compact): a pair is settled as soon as it is known to be beyond the largest, without the transport problems that would give its exact distance, so counts exist at these ε only and a max distance written \"> x\" is a lower bound (pomdpq quotient --exact-distances gives the exact value)."
	return s
}

// gridText writes a grid as "0, 0.0333, …, 1 (step 0.0333)".
func gridText(g []float64) string {
	if len(g) <= 3 {
		parts := make([]string, len(g))
		for i, v := range g {
			parts[i] = num(v)
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%s, %s, …, %s (step %s)", num(g[0]), num(g[1]), num(g[len(g)-1]), num(g[1]-g[0]))
}

func preview(names []string) string {
	if len(names) <= 8 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:6], ", ") + fmt.Sprintf(", … (%d more)", len(names)-6)
}
