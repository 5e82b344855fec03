package witness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// Summary returns one line per witness: criterion, grid, |S|, T, |O|,
// |A|, the two class counts, the certificate pair and whether it is
// possible under every probe.
func (r *Report) Summary() [][]string {
	rows := [][]string{{"criterion", "grid", "|S|", "T", "|O|", "|A|", "classes", "pair", "possible", "verified", "smallest class"}}
	for _, w := range r.Witnesses {
		rows = append(rows, []string{string(w.Criterion), w.Class.Grid.String(), fmt.Sprint(w.Class.S), fmt.Sprint(w.T),
			fmt.Sprint(w.Class.O), fmt.Sprint(w.Class.A), fmt.Sprintf("%d vs %d", w.SmallClasses, w.LargeClasses),
			w.H1 + " / " + w.H2, fmt.Sprint(w.Possible), fmt.Sprint(w.Verified), smallest(w)})
	}
	return rows
}

// smallest says whether a witness's class is proven smallest ("proven":
// every earlier class exhausted or argued) or not ("not proven": an
// earlier class was sampled or cut), and whether the model is the first
// of its class in enumeration order or a sample.
func smallest(w *Witness) string {
	s := "not proven"
	if w.SmallestClass {
		s = "proven"
	}
	if w.Index < 0 {
		s += " (model sampled)"
	}
	return s
}

// CoverageRows returns one line per searched class and horizon (classes
// settled by an argument are summarised per grid by RuledOutText).
func (r *Report) CoverageRows() [][]string {
	rows := [][]string{{"grid", "|S|", "T", "|O|", "|A|", "criteria", "models", "mode", "visited", "tested", "found"}}
	for _, c := range r.Coverage {
		if c.Mode == "argument" {
			continue
		}
		var crit []string
		for _, cr := range c.Criteria {
			if _, ok := c.RuledOut[cr]; !ok {
				crit = append(crit, string(cr))
			}
		}
		var found []string
		for _, f := range c.Found {
			found = append(found, string(f))
		}
		rows = append(rows, []string{c.Grid, fmt.Sprint(c.Class.S), fmt.Sprint(c.T), fmt.Sprint(c.Class.O), fmt.Sprint(c.Class.A),
			strings.Join(crit, ","), sizeString(c.Size), c.Mode, fmt.Sprint(c.Visited), fmt.Sprint(c.Tested), strings.Join(found, ",")})
	}
	return rows
}

// RuledOutText lists the arguments used to settle classes without
// enumeration, with the number of (class, horizon, criterion) cases each
// settled.
func (r *Report) RuledOutText() string {
	count := map[string]int{}
	var order []string
	for _, c := range r.Coverage {
		for _, cr := range c.Criteria {
			if why, ok := c.RuledOut[cr]; ok {
				if count[why] == 0 {
					order = append(order, why)
				}
				count[why]++
			}
		}
	}
	var b strings.Builder
	for _, why := range order {
		fmt.Fprintf(&b, "  %4d × %s\n", count[why], why)
	}
	return b.String()
}

// Text renders the whole report.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "search-witness: |S| ≤ %d, T ≤ %d, |O| ≤ %d, |A| ≤ %d, grids %s; seed %d; classes of at most %d models exhausted, larger ones sampled; symmetry reduction %v\n",
		r.MaxStates, r.MaxT, r.MaxObs, r.MaxActions, strings.Join(r.Grids, ", "), r.Seed, r.ClassModels, r.Symmetry)
	b.WriteString("ground metric discrete 0/1 on the observations of every model searched (W1 distances; the random models have no other)\n")
	fmt.Fprintf(&b, "visited %d and tested %d (model, horizon) pairs in %.1f s", r.Visited, r.Tested, r.Seconds)
	if r.Stopped != "" {
		fmt.Fprintf(&b, "; stopped early: %s", r.Stopped)
		if len(r.Unreached) > 0 {
			fmt.Fprintf(&b, " (grids not started: %s)", strings.Join(r.Unreached, ", "))
		}
	}
	b.WriteString("\n\nsmallest witnesses (order |S|, T, |O|, |A|; \"smallest class\" is proven when every earlier class was exhausted or argued, not proven when one was only sampled or cut):\n")
	b.WriteString(table(r.Summary()))
	for _, g := range r.Grids {
		if nf := r.NotFound[g]; len(nf) > 0 {
			var s []string
			for _, c := range nf {
				s = append(s, string(c))
			}
			if r.Stopped != "" && g == r.lastGrid() {
				fmt.Fprintf(&b, "grid %s: no witness found before the search stopped for %s\n", g, strings.Join(s, ", "))
			} else {
				fmt.Fprintf(&b, "grid %s: no witness in the searched space for %s%s\n", g, strings.Join(s, ", "), r.sampledNote(g, nf))
			}
		}
	}
	b.WriteString("\ncertificates (re-derived by the brute-force oracle):\n")
	for _, w := range r.Witnesses {
		b.WriteString(w.String())
		b.WriteString("\n")
	}
	b.WriteString("\ncoverage (classes enumerated or sampled):\n")
	b.WriteString(table(r.CoverageRows()))
	b.WriteString("\nsettled by an argument, without enumeration:\n")
	b.WriteString(r.RuledOutText())
	return b.String()
}

// sampledNote returns ", which was only sampled in N classes" when some
// class of grid g was searched for one of the criteria nf without being
// exhausted, so "no witness" is not a proof of absence there.
func (r *Report) sampledNote(g string, nf []Criterion) string {
	n := 0
	for _, c := range r.Coverage {
		if c.Grid != g || (c.Mode != "sampled" && c.Mode != "partial") {
			continue
		}
		for _, cr := range nf {
			if _, ok := c.RuledOut[cr]; !ok && slices.Contains(c.Criteria, cr) {
				n++
				break
			}
		}
	}
	if n == 0 {
		return " (exhausted)"
	}
	return fmt.Sprintf(" (%d classes only sampled or cut: not a proof of absence)", n)
}

// lastGrid returns the grid the search was in when it ended.
func (r *Report) lastGrid() string {
	if len(r.Coverage) == 0 {
		return ""
	}
	return r.Coverage[len(r.Coverage)-1].Grid
}

func table(rows [][]string) string {
	if len(rows) == 0 {
		return ""
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// FileName returns the file name WriteModels uses for w.
func (w *Witness) FileName() string { return w.Model.Name + ".pomdp" }

// WriteModels writes every witness model into dir as NAME.pomdp
// (Cassandra format) and returns the paths.
func (r *Report) WriteModels(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []string
	for _, w := range r.Witnesses {
		p := filepath.Join(dir, w.FileName())
		if err := modelfile.Save(p, w.Model); err != nil {
			return out, fmt.Errorf("witness: %s: %w", p, err)
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}
