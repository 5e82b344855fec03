package repro

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/datasets"
	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
)

// The numbers in a table's notes are the numbers of its cells and of the
// paper's transcription: each case below reads them back, from the built
// table's cells, from datasets/paper (read here directly) or from the
// model, and checks that the note shows them. The golden files pin the
// notes' text; these tests say where their numbers come from.

// noteTable builds and compares one table, once per test binary.
var noteTables = map[string]*Table{}

func noteTable(t *testing.T, name string) *Table {
	t.Helper()
	if tab, ok := noteTables[name]; ok {
		return tab
	}
	tab := buildTable(t, &Env{}, name)
	noteTables[name] = tab
	return tab
}

// paperRow returns the printed cells of the row of datasets/paper/TABLE.csv
// whose columns equal keys, by column name.
func paperRow(t *testing.T, table string, keys map[string]string) map[string]string {
	t.Helper()
	h, rows, err := datasets.Paper(table)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		row := map[string]string{}
		for j, name := range h {
			row[name] = r[j]
		}
		match := true
		for k, v := range keys {
			a, errA := strconv.ParseFloat(row[k], 64)
			b, errB := strconv.ParseFloat(v, 64)
			if row[k] != v && (errA != nil || errB != nil || a != b) {
				match = false
			}
		}
		if match {
			return row
		}
	}
	t.Fatalf("datasets/paper/%s.csv has no row %v", table, keys)
	return nil
}

// claimValue returns the value of an inline claim, read directly.
func claimValue(t *testing.T, id string) string {
	t.Helper()
	all, err := datasets.Claims()
	if err != nil {
		t.Fatal(err)
	}
	c, ok := all[id]
	if !ok {
		t.Fatalf("no claim %s", id)
	}
	return c.Value
}

// col returns the cell of column name in row i.
func col(t *testing.T, tab *Table, i int, name string) string {
	t.Helper()
	for c, cd := range tab.Columns {
		if cd.Name == name {
			return tab.Rows[i][c]
		}
	}
	t.Fatalf("%s has no column %s", tab.Name, name)
	return ""
}

// mustContain fails unless text contains every part.
func mustContain(t *testing.T, where, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Errorf("%s does not show %q:\n%s", where, p, text)
		}
	}
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return v
}

func lookupModel(t *testing.T, name string) bench.Benchmark {
	t.Helper()
	b, err := bench.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNotesBaselineFull(t *testing.T) {
	tab := noteTable(t, "baseline-full")
	notes := strings.Join(tab.Notes, "\n")
	// the constant probes of each benchmark: its actions
	for _, c := range []struct{ name, model string }{{"Tiger", "tiger"}, {"GridWorld 3x3", "gridworld:3"}} {
		mustContain(t, "baseline-full notes", notes, fmt.Sprintf("%d (%s)", lookupModel(t, c.model).Model.NumActions(), c.name))
	}
	// every row whose diameter exceeds its ε is listed with its diameter,
	// and no other
	for i := range tab.Rows {
		d := col(t, tab, i, "diameter")
		if d == "" {
			continue
		}
		entry := fmt.Sprintf("%s %s at ε = %s (%s)", col(t, tab, i, "benchmark"), col(t, tab, i, "method"), col(t, tab, i, "eps"), d)
		if wide := num(t, d) > num(t, col(t, tab, i, "eps")); wide != strings.Contains(notes, entry) {
			t.Errorf("baseline-full notes: row %d (diameter %s, ε %s) listed = %v", i, d, col(t, tab, i, "eps"), !wide)
		}
	}
}

func TestNotesValueBounds(t *testing.T) {
	tab := noteTable(t, "value-bounds")
	for i := range tab.Rows {
		panel, eps := col(t, tab, i, "panel"), col(t, tab, i, "eps")
		pr := paperRow(t, "value-bounds", map[string]string{"panel": panel, "eps": eps})
		lr := col(t, tab, i, "l_r")
		switch {
		case panel == "B" && eps == "0.5":
			// the printed error and L_R·T·D, and the D they imply with our L_R
			T := 2.0
			mustContain(t, "value-bounds B|0.5", tab.Note[i], "the printed "+pr["empirical_error"]+" is not",
				fmt.Sprintf("%s·2·%s = %s", lr, col(t, tab, i, "d_w"), col(t, tab, i, "bound_lr_t_d")),
				fmt.Sprintf("the printed %s implies D = %.4f", pr["bound_lr_t_d"], num(t, pr["bound_lr_t_d"])/(num(t, lr)*T)))
		case panel == "C" && eps != "0.0":
			g := lookupModel(t, "gridworld-goal:3").Model
			mustContain(t, "value-bounds C|"+eps, tab.Note[i],
				fmt.Sprintf("with L_R = %s, |S| = %d, |O| = %d is %s", lr, g.NumStates(), g.NumObservations(), col(t, tab, i, "canonical_bound")),
				"the printed "+pr["canonical_bound"]+" is")
		}
	}
	// the panels' L_R are ours, computed from the model (independently
	// here: the reward range over the smallest distance of d_O), and
	// the notes set each beside the paper's
	notes := strings.Join(tab.Notes, "\n")
	for k, c := range map[string]struct{ model, claim string }{"B": {"tiger", "tiger_lr_bound"}, "C": {"gridworld-goal:3", "gridworld_lr_approx"}} {
		b := lookupModel(t, c.model)
		dmin := math.Inf(1)
		for o, row := range b.Ground {
			for o2, d := range row {
				if o != o2 && d > 0 {
					dmin = math.Min(dmin, d)
				}
			}
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, row := range b.Model.R {
			for _, r := range row {
				lo, hi = math.Min(lo, r), math.Max(hi, r)
			}
		}
		for i := range tab.Rows {
			if col(t, tab, i, "panel") == k && math.Abs(num(t, col(t, tab, i, "l_r"))-(hi-lo)/dmin) > 1e-9 {
				t.Errorf("value-bounds panel %s: l_r %s, want (R_max − R_min)/δ = %g", k, col(t, tab, i, "l_r"), (hi-lo)/dmin)
			}
		}
		i := tab.Row(k + "|0")
		mustContain(t, "value-bounds notes", notes, fmt.Sprintf("panel %s: ours %s (", k, col(t, tab, i, "l_r")), "the paper's "+claimValue(t, c.claim))
	}
	c := tab.Row("C|0.5")
	mustContain(t, "value-bounds notes", notes, "constant probes is "+col(t, tab, c, "l_r_hat")+".")
}

func TestNotesPlanningSpeedup(t *testing.T) {
	tab := noteTable(t, "planning-speedup")
	notes := strings.Join(tab.Notes, "\n")
	for _, c := range []struct{ key, col, format string }{
		{"Tiger|1|0", "v_star_orig", "%s: ours %s"}, {"Hallway|1|0", "v_star_orig", "%s: ours %s"}, {"Hallway|1|0.5", "value_gap", "%s (ours %s at"},
	} {
		i := tab.Row(c.key)
		if i < 0 {
			t.Fatalf("no row %s", c.key)
		}
		pr := paperRow(t, "planning-speedup", map[string]string{"benchmark": col(t, tab, i, "benchmark"), "m": col(t, tab, i, "m"), "eps": col(t, tab, i, "eps")})
		mustContain(t, "planning-speedup notes", notes, fmt.Sprintf(c.format, pr[c.col], col(t, tab, i, c.col)))
	}
}

func TestNotesBeliefSensitivity(t *testing.T) {
	tab := noteTable(t, "belief-sensitivity")
	note := strings.Join(tab.Notes, "\n")
	mustContain(t, "belief-sensitivity note", note, "from "+col(t, tab, 0, "d_LR")+" at b0 = "+col(t, tab, 0, "b0_left"))
	for i := 1; i < len(tab.Rows); i++ {
		for _, e := range []string{"0", "0_3", "0_5"} {
			c, ref := col(t, tab, i, "classes_eps"+e), col(t, tab, 0, "classes_eps"+e)
			entry := fmt.Sprintf("b0 = %s (%s vs %s classes, ARI %s)", col(t, tab, i, "b0_left"), c, ref, col(t, tab, i, "ari_eps"+e))
			if (c != ref) != strings.Contains(note, entry) {
				t.Errorf("belief-sensitivity note: row %d at ε %s (%s vs %s classes) listed = %v:\n%s", i, e, c, ref, c == ref, note)
			}
		}
	}
}

func TestNotesAblation(t *testing.T) {
	tab := noteTable(t, "ablation")
	note := strings.Join(tab.Notes, "\n")
	g := tab.Row("Approx.|Greedy k=5")
	if g < 0 {
		t.Fatal("no greedy row")
	}
	mustContain(t, "ablation note", note, fmt.Sprintf("(%s classes, ARI %s; the paper prints ARI = %s)",
		col(t, tab, g, "classes_T4"), col(t, tab, g, "ari_vs_full_T4"), claimValue(t, "ablation_greedy_ari")))
}

func TestNotesPlanningClaims(t *testing.T) {
	tab := noteTable(t, "planning-claims")
	row := func(id string) int {
		i := tab.Row(id)
		if i < 0 {
			t.Fatalf("planning-claims has no row %s", id)
		}
		return i
	}
	det, fscs := col(t, tab, row("sanity_det_max_w1"), "value"), col(t, tab, row("sanity_det_fscs"), "value")
	mustContain(t, "planning-claims notes", strings.Join(tab.Notes, "\n"), "below the deterministic maximum "+det+")")
	mustContain(t, "planning-claims sanity_max_w1_max", tab.Note[row("sanity_max_w1_max")],
		"below the computed deterministic maximum "+det+" (m ≤ 2, "+fscs+" controllers)",
		fmt.Sprintf("%s controllers each", claimValue(t, "sanity_per_seed")))
}

func TestNotesHorizonGap(t *testing.T) {
	tab := noteTable(t, "horizon-gap")
	first, last := tab.Rows[0], tab.Rows[len(tab.Rows)-1]
	mustContain(t, "horizon-gap note", strings.Join(tab.Notes, "\n"),
		fmt.Sprintf("(%s at T = %s, %s at T = %s; planning-claims; ours %s and %s)", claimValue(t, "horizon_gap_canonical_T2"), first[0],
			claimValue(t, "horizon_gap_canonical_T10"), last[0], col(t, tab, 0, "canonical_bound"), col(t, tab, len(tab.Rows)-1, "canonical_bound")))
}

func TestNotesPBVIComparison(t *testing.T) {
	tab := noteTable(t, "pbvi-comparison")
	notes := strings.Join(tab.Notes, "\n")
	for i := range tab.Rows {
		pr := paperRow(t, "pbvi-comparison", map[string]string{"benchmark": col(t, tab, i, "benchmark")})
		mustContain(t, "pbvi-comparison notes", notes, "the paper prints "+pr["value_gap"])
	}
}

func TestNotesCertificates(t *testing.T) {
	tab := noteTable(t, "certificate-claims")
	k3 := tab.Row("pa_gw_k3")
	if k3 < 0 {
		t.Fatal("no row pa_gw_k3")
	}
	mustContain(t, "certificate-claims notes", strings.Join(tab.Notes, "\n"),
		"'k = "+claimValue(t, "pa_tiger_k")+" yields δ_S = 0'", col(t, tab, k3, "value")+" on GridWorld 3x3")
	lr := noteTable(t, "low-rank")
	var sizes []string
	for i := range lr.Rows {
		if col(t, lr, i, "m") == "2" {
			n := col(t, lr, i, "fscs")
			if len(n) > 3 {
				n = n[:len(n)-3] + "," + n[len(n)-3:]
			}
			sizes = append(sizes, n)
		}
	}
	mustContain(t, "low-rank notes", strings.Join(lr.Notes, "\n"), "("+strings.Join(sizes, " and ")+" for m = 2)")
}

func TestNotesMediumScale(t *testing.T) {
	tab := noteTable(t, "medium-scale")
	most := 0.0
	for i := range tab.Rows {
		if strings.HasPrefix(col(t, tab, i, "benchmark"), "Random") {
			most = max(most, num(t, col(t, tab, i, "exact_max_w1")))
		}
	}
	mustContain(t, "medium-scale notes", strings.Join(tab.Notes, "\n"), fmt.Sprintf("their exact max W1 is at most %.3f", most))
}

func TestNotesM2Scaling(t *testing.T) {
	if testing.Short() {
		t.Skip("m2-scaling is heavy")
	}
	tab := noteTable(t, "m2-scaling")
	notes := strings.Join(tab.Notes, "\n")
	for i := range tab.Rows {
		if col(t, tab, i, "m") != "2" {
			continue
		}
		pr := paperRow(t, "m2-scaling", map[string]string{"benchmark": col(t, tab, i, "benchmark"), "m": "2", "horizon": col(t, tab, i, "horizon")})
		mustContain(t, "m2-scaling notes", notes, fmt.Sprintf("%s, printed [%s, %s]: the exact %s is", col(t, tab, i, "benchmark"), pr["ci_low"], pr["ci_high"], col(t, tab, i, "exact_max_w1")))
	}
}

func TestNotesMeaningfulScale(t *testing.T) {
	if testing.Short() {
		t.Skip("meaningful-scale is heavy")
	}
	tab := noteTable(t, "meaningful-scale")
	up := tab.Row("Scale-up|Network Monitoring (n=12)|Sampling")
	ts := tab.Row("Scale-up|Network Monitoring (n=12)|Sampling, T-step suffix")
	long := tab.Row("Long T|Network Monitoring (n=10)|Layered")
	if up < 0 || ts < 0 || long < 0 {
		t.Fatal("missing rows")
	}
	pr := paperRow(t, "meaningful-scale", map[string]string{"track": "Scale-up", "benchmark": "Network Monitoring (n=12)", "method": "Sampling"})
	mustContain(t, "meaningful-scale notes", strings.Join(tab.Notes, "\n"),
		fmt.Sprintf("interval [%s, %s] fits the definition's maximum (exact %s)", pr["ci_low"], pr["ci_high"], col(t, tab, up, "exact_max_w1")),
		fmt.Sprintf("the T-step reading's (exact %s)", col(t, tab, ts, "exact_max_w1")))
	pl := paperRow(t, "meaningful-scale", map[string]string{"track": "Long T", "benchmark": "Network Monitoring (n=10)", "method": "Layered"})
	mustContain(t, "meaningful-scale Long T", tab.Note[long], fmt.Sprintf("the printed %s and %s classes", pl["classes_eps0"], pl["classes_eps0_3"]),
		fmt.Sprintf("the printed interval [%s, %s]", pl["ci_low"], pl["ci_high"]))
	// the row's horizon is the τ of our sampled segment (a setting shown
	// beside the printed one), never the printed horizon echoed back
	h := col(t, tab, long, "horizon")
	mustContain(t, "meaningful-scale Long T", tab.Note[long], "Our sampled τ = "+h+" segment")
	if h != pl["horizon"] {
		mustContain(t, "meaningful-scale Long T", tab.Note[long], "setting horizon: ours "+h+", paper "+pl["horizon"])
	}
}

func TestNotesConvergence(t *testing.T) {
	tab := noteTable(t, "convergence")
	notes := strings.Join(tab.Notes, "\n")
	// the exact distances of GridWorld 3×3 (m = 1, T = 2), computed by the
	// exact pipeline, not the sampler's exact laws
	r, _, err := distances(context.Background(), &Env{}, "gridworld:3", fsc.KindStationary, 1, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, eps := range []float64{0, 0.3, 0.5} {
		best := -1.0
		for _, m := range r.D {
			for _, d := range m.Data {
				if d > 0 && (best < 0 || abs(d-eps) < abs(best-eps)) {
					best = d
				}
			}
		}
		mustContain(t, "convergence notes", notes, fmt.Sprintf("ε = %s: %.4f (%.4f away)", strconv.FormatFloat(eps, 'g', -1, 64), best, abs(best-eps)))
	}
	pairs := 0
	for _, m := range r.D {
		pairs += len(m.Data)
	}
	mustContain(t, "convergence notes", notes, fmt.Sprintf("over the %d history pairs", pairs))
}

func TestNotesSamplingTables(t *testing.T) {
	sv := noteTable(t, "sampling-variance")
	r, _, err := distances(context.Background(), &Env{}, "gridworld:10", fsc.KindStationary, 1, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sv.Rows {
		eps := num(t, col(t, sv, i, "eps"))
		if eps == 0 {
			continue
		}
		best := -1.0
		for _, m := range r.D {
			for _, d := range m.Data {
				if d > 0 && (best < 0 || abs(d-eps) < abs(best-eps)) {
					best = d
				}
			}
		}
		mustContain(t, "sampling-variance note", strings.Join(sv.Notes, "\n"), fmt.Sprintf("%.3f at ε = %s", best, col(t, sv, i, "eps")))
	}
	cp := noteTable(t, "computational-profile")
	most := ""
	for i := range cp.Rows {
		if c := paperRow(t, "computational-profile", map[string]string{"benchmark": col(t, cp, i, "benchmark")})["cache_s"]; most == "" || num(t, c) > num(t, most) {
			most = c
		}
	}
	mustContain(t, "computational-profile note", strings.Join(cp.Notes, "\n"), "took up to "+most+" s")
	if testing.Short() {
		return
	}
	bc := noteTable(t, "bootstrap-coverage")
	mustContain(t, "bootstrap-coverage notes", strings.Join(bc.Notes, "\n"), "against the exact value "+col(t, bc, 0, "exact_max_w1"),
		"over "+claimValue(t, "bootstrap_replications")+" replications")
}

func TestNotesLayered(t *testing.T) {
	tab := noteTable(t, "hierarchical-scaling")
	i := tab.Row("6|Layered")
	if i < 0 {
		t.Fatal("no row 6|Layered")
	}
	mustContain(t, "hierarchical-scaling notes", strings.Join(tab.Notes, "\n"),
		fmt.Sprintf("(T = 6, τ = %s: ", col(t, tab, i, "segment_tau")), " = "+col(t, tab, i, "histories_processed")+").")
	lc := noteTable(t, "layered-checks")
	mustContain(t, "layered-checks notes", strings.Join(lc.Notes, "\n"), "The paper names its "+claimValue(t, "layered_checks_cases")+" cases")
	tr := noteTable(t, "tractability")
	mustContain(t, "tractability notes", strings.Join(tr.Notes, "\n"), "|S| = 4,096 and "+claimValue(t, "tract_states_sampling_medium")+" by sampling")
}
