package witness

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/pomdp/modelfile"
)

// hand-built models with a known answer.
func handModels(t *testing.T) map[string]*pomdp.Model { return handModelsB(t) }

func handModelsB(t testing.TB) map[string]*pomdp.Model {
	t.Helper()
	// One state; a0 emits o0, a1 emits o0 or o1 with probability ½: after
	// o1 the prefix a0 is impossible, so Q_op merges o0 and o1 through the
	// point-mass stand-in while the string a0 a1 separates them.
	one := pomdp.Must(pomdp.New(pomdp.Dense{Name: "one", States: []string{"s"}, Actions: []string{"a0", "a1"}, Observations: []string{"o0", "o1"},
		T: [][][]float64{{{1}}, {{1}}}, Z: [][][]float64{{{1, 0}}, {{0.5, 0.5}}}}))
	// Two states, b0 = s0: a0 jumps to a uniform state and reveals it,
	// so the next a0 observation is uninformative; a1 stays and emits
	// o0/o1 ½–½ from s0 and o0 from s1. Depth-1 histories o0 and o1 are
	// possible under every prefix, equal under a0 a0 and a1 a1, split by
	// a0 a1.
	two := pomdp.Must(pomdp.New(pomdp.Dense{Name: "two", States: []string{"s0", "s1"}, Actions: []string{"a0", "a1"}, Observations: []string{"o0", "o1"},
		T: [][][]float64{{{0.5, 0.5}, {0.5, 0.5}}, {{1, 0}, {0, 1}}}, Z: [][][]float64{{{1, 0}, {0, 1}}, {{0.5, 0.5}, {1, 0}}}, B0: []float64{1, 0}}))
	// Two states, one action, b0 uniform, each state emits its own
	// observation forever: at T = 3 the depth-1 laws are δ(o0 o0) and
	// δ(o1 o1), W1 = 2 and TV = 1.
	copyObs := pomdp.Must(pomdp.New(pomdp.Dense{Name: "copy", States: []string{"s0", "s1"}, Actions: []string{"a"}, Observations: []string{"o0", "o1"},
		T: [][][]float64{{{1, 0}, {0, 1}}}, Z: [][][]float64{{{1, 0}, {0, 1}}}}))
	return map[string]*pomdp.Model{"one": one, "two": two, "copy": copyObs, "witness": pomdp.Must(bench.StationaryWitness()).Model}
}

// TestCheckHandModels: the fast path finds (or not) a separation on
// hand-built models and the oracle certifies it with the expected pair,
// counts and laws.
func TestCheckHandModels(t *testing.T) {
	ms := handModels(t)
	for _, tc := range []struct {
		model        string
		cr           Criterion
		T            int
		found        bool
		small, large int    // class totals
		h1, h2       string // certificate pair
		possible     bool
		eps          float64
	}{
		{"one", Clk, 2, true, 3, 4, "o0", "o1", false, 0},
		{"one", ClkFree, 2, false, 0, 0, "", "", false, 0},
		{"two", Clk, 2, true, 3, 4, "o0", "o1", true, 0},
		{"two", ClkFree, 2, true, 3, 4, "o0", "o1", true, 0},
		{"two", Clk, 1, false, 0, 0, "", "", false, 0},
		{"copy", Metric, 2, false, 0, 0, "", "", false, 0},
		{"copy", Metric, 3, true, 5, 4, "o0", "o1", true, 1},
		{"copy", MetricFree, 3, true, 5, 4, "o0", "o1", true, 1},
		// The paper's 9-state witness at T = 3: 6 and 8 classes (lib/clock's
		// exact counts), L and R possible under every string.
		{"witness", Clk, 3, true, 6, 8, "L", "R", true, 0},
		{"witness", ClkFree, 3, true, 6, 8, "L", "R", true, 0},
	} {
		t.Run(fmt.Sprintf("%s/%s/T=%d", tc.model, tc.cr, tc.T), func(t *testing.T) {
			w, err := Check(context.Background(), tc.cr, ms[tc.model], tc.T)
			if err != nil {
				t.Fatal(err)
			}
			if (w != nil) != tc.found {
				t.Fatalf("found = %v, want %v (%v)", w != nil, tc.found, w)
			}
			if w == nil {
				return
			}
			if !w.Verified || w.SmallClasses != tc.small || w.LargeClasses != tc.large || w.H1 != tc.h1 || w.H2 != tc.h2 || w.Possible != tc.possible || w.Eps != tc.eps {
				t.Errorf("got %v", w)
			}
			switch tc.cr.base() {
			case Clk, Mem:
				if w.Separating == nil || slices.Equal(atomKey(w.Separating.Law1), atomKey(w.Separating.Law2)) {
					t.Errorf("separating probe has equal laws: %v", w)
				}
				for _, s := range w.Same {
					if !slices.Equal(atomKey(s.Law1), atomKey(s.Law2)) {
						t.Errorf("smaller-family probe %s separates: %v vs %v", s.Probe, s.Law1, s.Law2)
					}
				}
			case Metric:
				if !(w.TV.Distance <= tc.eps+1e-12) || !(w.W1.Distance > tc.eps) {
					t.Errorf("W1 %v, TV %v at ε = %v", w.W1.Distance, w.TV.Distance, tc.eps)
				}
			}
		})
	}
}

func atomKey(l []Atom) []string {
	var out []string
	for _, a := range l {
		out = append(out, fmt.Sprintf("%s=%.9f", a.Suffix, a.P))
	}
	return out
}

// TestCertifyDetectsDisagreement: the oracle rejects a fast-path
// partition that is not the definition's (the check can fail).
func TestCertifyDetectsDisagreement(t *testing.T) {
	w, err := Check(context.Background(), Clk, handModels(t)["two"], 2)
	if err != nil || w == nil {
		t.Fatal(w, err)
	}
	w.large.Labels[1] = []int{0, 0} // pretend Q_clk merged o0 and o1
	if err := w.Certify(); err == nil || !strings.Contains(err.Error(), "disagree") {
		t.Fatalf("Certify accepted a wrong partition: %v", err)
	}
}

// TestOracleAgreesOnSamples: on random models of small classes the
// fast path's two partitions equal the oracle's at every depth, whether
// they differ or not (Certify would otherwise only see separating
// models).
func TestOracleAgreesOnSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range []Class{{S: 2, O: 2, A: 2, Grid: Grid{2, 2}}, {S: 3, O: 2, A: 2, Grid: Grid{4, 4}}, {S: 2, O: 3, A: 2, Grid: Grid{1, 2}}} {
		sp := newSpace(c)
		for k := 0; k < 12; k++ {
			code := make([]int, len(sp.radix))
			for i, r := range sp.radix {
				code[i] = rng.IntN(r)
			}
			m := sp.model(code, "sample")
			for _, cr := range []Criterion{Clk, Mem} {
				T := 3
				if cr == Mem {
					T = 2
				}
				h, err := testClkOrMem(cr, m, T)
				if err != nil {
					t.Fatal(err)
				}
				w := &Witness{Criterion: cr, T: T, Model: m, small: h.Small, large: h.Large, Depth: max(h.Depth, 0)}
				err = w.Certify()
				if err != nil && strings.Contains(err.Error(), "disagree") {
					t.Errorf("%s %v code %v: %v", cr, c, code, err)
				}
				if err == nil && h.Depth < 0 {
					t.Errorf("%s %v code %v: oracle found a separating pair the fast path did not", cr, c, code)
				}
			}
		}
	}
}

// testClkOrMem returns both partitions even when they agree (Depth −1).
func testClkOrMem(cr Criterion, m *pomdp.Model, T int) (*hit, error) {
	f := partitionsClk
	if cr == Mem {
		f = partitionsMem
	}
	h, err := f(context.Background(), m, T)
	if err != nil {
		return nil, err
	}
	h.Depth = firstDiff(h.Small, h.Large, nil)
	return h, nil
}

// TestSearchSmall: a small search finds the expected smallest classes,
// is deterministic across worker counts, and its report is consistent.
func TestSearchSmall(t *testing.T) {
	opt := Options{MaxStates: 2, MaxT: 3, Grids: []Grid{{2, 2}}, Seed: 3}
	var reps []*Report
	for _, workers := range []int{1, 2} {
		opt.Workers = workers
		rep, err := Search(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	key := func(r *Report) string {
		r2 := *r
		r2.Seconds = 0
		b, err := json.Marshal(&r2)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if key(reps[0]) != key(reps[1]) {
		t.Errorf("reports differ between 1 and 2 workers:\n%s\n%s", key(reps[0]), key(reps[1]))
	}
	rep := reps[0]
	want := map[Criterion][4]int{ // |S|, T, |O|, |A| of the smallest witness on halves
		Clk: {1, 2, 2, 2}, Mem: {1, 2, 2, 2}, ClkFree: {2, 2, 2, 2}, MemFree: {2, 2, 2, 2}, Metric: {2, 3, 2, 1}, MetricFree: {2, 3, 2, 1},
	}
	if len(rep.Witnesses) != len(want) || len(rep.NotFound) != 0 || rep.Stopped != "" {
		t.Fatalf("witnesses %d, not found %v, stopped %q", len(rep.Witnesses), rep.NotFound, rep.Stopped)
	}
	for _, w := range rep.Witnesses {
		got := [4]int{w.Class.S, w.T, w.Class.O, w.Class.A}
		if got != want[w.Criterion] || !w.Verified {
			t.Errorf("%s: smallest %v, want %v (verified %v)", w.Criterion, got, want[w.Criterion], w.Verified)
		}
		if w.Criterion.Free() != w.Possible && w.Criterion.Free() {
			t.Errorf("%s: certificate pair not possible under every probe", w.Criterion)
		}
		// Re-verify from the code alone, and through a .pomdp file.
		sp := newSpace(w.Class)
		if w.Index >= 0 {
			code := make([]int, len(sp.radix))
			sp.decode(code, uint64(w.Index))
			if !slices.Equal(code, w.Code) {
				t.Errorf("%s: index %d decodes to %v, code %v", w.Criterion, w.Index, code, w.Code)
			}
		}
		path := filepath.Join(t.TempDir(), w.FileName())
		if err := modelfile.Save(path, w.Model); err != nil {
			t.Fatal(err)
		}
		m, err := modelfile.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		w2, err := Check(context.Background(), w.Criterion, m, w.T)
		if err != nil || w2 == nil || w2.H1 != w.H1 || w2.H2 != w.H2 || w2.SmallClasses != w.SmallClasses {
			t.Errorf("%s: the model read back from %s gives %v, %v", w.Criterion, w.FileName(), w2, err)
		}
	}
	// Every class below a witness was exhausted or settled by argument.
	for _, c := range rep.Coverage {
		if c.Mode != "argument" && c.Mode != "exhausted" {
			t.Errorf("class %v T=%d: mode %s", c.Class, c.T, c.Mode)
		}
	}
	if txt := rep.Text(); !strings.Contains(txt, "smallest witnesses") || !strings.Contains(txt, "settled by an argument") || !strings.Contains(txt, "ground metric discrete 0/1") {
		t.Errorf("text report:\n%s", txt)
	}
}

// TestSearchBudget: the model budget and a cancelled context stop the
// search with a report of what was covered.
func TestSearchBudget(t *testing.T) {
	opt := Options{MaxStates: 3, MaxT: 2, Grids: []Grid{{1, 2}}, Criteria: []Criterion{ClkFree}, MaxModels: 500}
	rep, err := Search(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	last := rep.Coverage[len(rep.Coverage)-1]
	if !strings.Contains(rep.Stopped, "budget") || last.Mode != "partial" || rep.Visited != 500 || rep.Tested > 500 || len(rep.NotFound["1:2"]) != 1 ||
		!strings.Contains(rep.Text(), "before the search stopped") {
		t.Errorf("stopped %q, last class %+v, tested %d, not found %v", rep.Stopped, last, rep.Tested, rep.NotFound)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt.MaxModels = 0
	rep, err = Search(ctx, opt)
	if err != nil || rep.Stopped != "cancelled" {
		t.Errorf("cancelled search: %v, stopped %q", err, rep.Stopped)
	}
}

// TestCanonicalCountsOrbits: the number of canonical codes of a class
// equals its number of orbits under relabelling states and actions,
// counted by brute force over all permutations.
func TestCanonicalCountsOrbits(t *testing.T) {
	for _, c := range []Class{{S: 2, O: 2, A: 2, Grid: Grid{1, 2}}, {S: 3, O: 1, A: 2, Grid: Grid{1, 1}}, {S: 2, O: 3, A: 1, Grid: Grid{2, 2}}} {
		sp := newSpace(c)
		code := make([]int, len(sp.radix))
		canon := 0
		orbits := map[string]bool{}
		for i := uint64(0); i < uint64(sp.size); i++ {
			sp.decode(code, i)
			if sp.canonical(code) {
				canon++
			}
			// the orbit's smallest code, by applying every permutation
			best := slices.Clone(code)
			for k := range sp.permS {
				for j := range sp.permA {
					p := permuted(sp, code, k, j)
					if slices.Compare(p, best) < 0 {
						best = p
					}
				}
			}
			orbits[fmt.Sprint(best)] = true
		}
		if canon != len(orbits) {
			t.Errorf("%v: %d canonical codes, %d orbits", c, canon, len(orbits))
		}
	}
}

// permuted returns the code of the model relabelled by state permutation
// k and action permutation j, built from the model's matrices.
func permuted(sp *space, code []int, k, j int) []int {
	m := sp.model(code, "")
	c := sp.c
	ps, pa := sp.permS[k], sp.permA[j]
	find := func(list [][]int, g int, row []float64) int {
		for d, comp := range list {
			ok := true
			for i, x := range comp {
				if float64(x)/float64(g) != row[i] {
					ok = false
				}
			}
			if ok {
				return d
			}
		}
		panic("row not on the grid")
	}
	out := make([]int, len(code))
	b0 := make([]float64, c.S)
	for s := range b0 {
		b0[ps[s]] = m.B0[s]
	}
	out[0] = find(sp.distB, c.Grid.Init, b0)
	for a := 0; a < c.A; a++ {
		for s := 0; s < c.S; s++ {
			row := make([]float64, c.S)
			for s2 := 0; s2 < c.S; s2++ {
				row[ps[s2]] = m.TransitionProb(s, a, s2)
			}
			out[1+pa[a]*c.S+ps[s]] = find(sp.distT, c.Grid.Dyn, row)
			z := make([]float64, c.O)
			for o := range z {
				z[o] = m.ObsProb(s, a, o)
			}
			out[1+c.A*c.S+pa[a]*c.S+ps[s]] = find(sp.distZ, c.Grid.Dyn, z)
		}
	}
	return out
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Grid
		ok   bool
	}{{"1", Grid{1, 1}, true}, {"4", Grid{4, 4}, true}, {"1:2", Grid{1, 2}, true}, {" 2 ", Grid{2, 2}, true},
		{"0", Grid{}, false}, {"9", Grid{}, false}, {"1:", Grid{}, false}, {"a", Grid{}, false}, {"1:2:3", Grid{}, false}} {
		g, err := ParseGrid(tc.in)
		if (err == nil) != tc.ok || g != tc.want {
			t.Errorf("ParseGrid(%q) = %v, %v", tc.in, g, err)
		}
	}
	for _, tc := range []struct {
		in   string
		want []Criterion
		ok   bool
	}{{"all", Criteria, true}, {"", Criteria, true}, {"clk, tv", []Criterion{Clk, Metric}, true}, {"clk,clk", []Criterion{Clk}, true},
		{"m3", nil, false}, {"clk,", nil, false}} {
		c, err := ParseCriteria(tc.in)
		if (err == nil) != tc.ok || !slices.Equal(c, tc.want) {
			t.Errorf("ParseCriteria(%q) = %v, %v", tc.in, c, err)
		}
	}
}

func FuzzParseGrid(f *testing.F) {
	for _, s := range []string{"1", "1:2", "4", "x", "3:0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGrid(s)
		if err != nil {
			return
		}
		if g.Dyn < 1 || g.Dyn > 8 || g.Init < 1 || g.Init > 8 {
			t.Fatalf("ParseGrid(%q) = %v out of range", s, g)
		}
		if g2, err := ParseGrid(g.String()); err != nil || g2 != g {
			t.Fatalf("round trip of %v: %v, %v", g, g2, err)
		}
	})
}

func FuzzParseCriteria(f *testing.F) {
	for _, s := range []string{"all", "clk,tv-free", "m2", "x,y", ","} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseCriteria(s)
		if err != nil {
			return
		}
		var parts []string
		for _, c := range cs {
			if !slices.Contains(Criteria, c) {
				t.Fatalf("ParseCriteria(%q) returned unknown %q", s, c)
			}
			parts = append(parts, string(c))
		}
		if cs2, err := ParseCriteria(strings.Join(parts, ",")); err != nil || !slices.Equal(cs, cs2) {
			t.Fatalf("round trip of %v: %v, %v", cs, cs2, err)
		}
	})
}

// TestSeparatingBuiltins: the search (default options, restricted to one
// grid and criterion, which does not change that criterion's first
// witness) finds exactly the models typed in bench.Separating, which
// datasets/models exports; each separates at its horizon and is verified.
func TestSeparatingBuiltins(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the searches behind bench.Separating (about 10 s)")
	}
	for _, tc := range []struct {
		name string
		cr   Criterion
		grid Grid
		S    int
	}{
		{"clk", Clk, Grid{2, 2}, 1},
		{"clk-free", ClkFree, Grid{2, 2}, 2},
		{"clk-free-det", ClkFree, Grid{1, 2}, 3},
		{"m2", Mem, Grid{1, 1}, 1},
		{"m2-free", MemFree, Grid{4, 4}, 1},
		{"tv-free", MetricFree, Grid{1, 2}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Search(context.Background(), Options{MaxStates: tc.S, Grids: []Grid{tc.grid}, Criteria: []Criterion{tc.cr}})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Witnesses) != 1 {
				t.Fatalf("no witness: %+v", rep.NotFound)
			}
			w := rep.Witnesses[0]
			b, err := bench.Separating(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameModel(w.Model, b.Model); err != nil {
				t.Errorf("search found %s, bench.Separating(%q) differs: %v", w.Model.Name, tc.name, err)
			}
			w2, err := Check(context.Background(), tc.cr, b.Model, w.T)
			if err != nil || w2 == nil || !w2.Verified {
				t.Errorf("bench model at T = %d: %v, %v", w.T, w2, err)
			}
		})
	}
}

func sameModel(a, b *pomdp.Model) error {
	if a.NumStates() != b.NumStates() || a.NumActions() != b.NumActions() || a.NumObservations() != b.NumObservations() {
		return fmt.Errorf("sizes %v vs %v", a, b)
	}
	if !slices.Equal(a.States, b.States) || !slices.Equal(a.Actions, b.Actions) || !slices.Equal(a.Observations, b.Observations) || !slices.Equal(a.B0, b.B0) {
		return fmt.Errorf("names or b0 differ: %v %v", a.B0, b.B0)
	}
	for s := range a.NumStates() {
		for ac := range a.NumActions() {
			for s2 := range a.NumStates() {
				if a.TransitionProb(s, ac, s2) != b.TransitionProb(s, ac, s2) {
					return fmt.Errorf("T(%d, %d, %d)", s, ac, s2)
				}
			}
			for o := range a.NumObservations() {
				if a.ObsProb(s, ac, o) != b.ObsProb(s, ac, o) {
					return fmt.Errorf("Z(%d, %d, %d)", s, ac, o)
				}
			}
		}
	}
	return nil
}

// TestOracleBudget: a certification or a search beyond the oracle's
// reach is refused before any work, naming the largest factor.
func TestOracleBudget(t *testing.T) {
	big := pomdp.Must(bench.Lookup("hallway:20")).Model
	if _, err := Check(context.Background(), Clk, big, 8); err == nil || !strings.Contains(err.Error(), "state sequences") {
		t.Errorf("Check on hallway:20 at T = 8: %v", err)
	}
	if _, err := Search(context.Background(), Options{MaxStates: 8, MaxT: 6, Criteria: []Criterion{Mem}}); err == nil || !strings.Contains(err.Error(), "MaxStates") {
		t.Errorf("Search beyond the oracle: %v", err)
	}
	if w, _ := OracleWork(Mem, 5, 3, 2, 4); !(w <= MaxOracleWork) {
		t.Errorf("the default space needs %g > MaxOracleWork", w)
	}
}

// TestSearchSeeded: with classes too large to exhaust, the samples come
// from the seed: the same seed gives the same report (whatever the
// number of workers), another seed other samples.
func TestSearchSeeded(t *testing.T) {
	run := func(seed uint64, workers int) *Report {
		rep, err := Search(context.Background(), Options{MaxStates: 2, MaxT: 2, Grids: []Grid{{4, 4}}, Criteria: []Criterion{ClkFree},
			ClassModels: 50, Seed: seed, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		rep.Seconds = 0
		return rep
	}
	key := func(r *Report) string {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a, b, c := run(5, 1), run(5, 2), run(6, 2)
	if key(a) != key(b) {
		t.Errorf("same seed, different reports:\n%s\n%s", key(a), key(b))
	}
	last := a.Coverage[len(a.Coverage)-1]
	if last.Mode != "sampled" || len(a.Witnesses) != 1 || a.Witnesses[0].Index != -1 {
		t.Fatalf("expected a witness from a sampled class: %+v", last)
	}
	if slices.Equal(a.Witnesses[0].Code, c.Witnesses[0].Code) {
		t.Errorf("seeds 5 and 6 found the same sampled model %v", a.Witnesses[0].Code)
	}
}

// TestSmallestClassProof checks that a witness is marked as in the
// smallest class only when every earlier class was exhausted: with
// ClassModels = 1 every searched class of halves is sampled, so a witness
// reached after a sampled class without one is not proven smallest, and
// the text report says the absence elsewhere is not proven either.
func TestSmallestClassProof(t *testing.T) {
	base := Options{MaxStates: 2, MaxObs: 2, MaxActions: 2, MaxT: 3, Grids: []Grid{{2, 2}}, Criteria: []Criterion{ClkFree, Clk}, Workers: 1}
	rep, err := Search(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range rep.Witnesses {
		if !w.SmallestClass {
			t.Errorf("exhaustive search: %s witness in %v not marked smallest", w.Criterion, w.Class)
		}
	}
	sampled := base
	sampled.ClassModels = 1
	rep, err = Search(context.Background(), sampled)
	if err != nil {
		t.Fatal(err)
	}
	nUnsure := 0
	for _, w := range rep.Witnesses {
		unsure := false
		for _, c := range rep.Coverage {
			if c.Class == w.Class && c.T == w.T {
				break
			}
			if c.Mode == "sampled" && slices.Contains(c.Criteria, w.Criterion) && c.RuledOut[w.Criterion] == "" {
				unsure = true
			}
		}
		if unsure {
			nUnsure++
		}
		if w.SmallestClass == unsure {
			t.Errorf("sampled search: %s witness in %v T=%d: smallest_class %v, want %v", w.Criterion, w.Class, w.T, w.SmallestClass, !unsure)
		}
	}
	if nUnsure == 0 {
		t.Fatal("sampled search: no witness after a sampled class; the test exercises nothing")
	}
	txt := rep.Text()
	if len(rep.NotFound) > 0 && !strings.Contains(txt, "not a proof of absence") {
		t.Errorf("sampled search without witness for %v: report does not say absence is unproven:\n%s", rep.NotFound, txt)
	}
	if !strings.Contains(txt, "not proven") && !strings.Contains(txt, "not a proof of absence") {
		t.Errorf("sampled search: report claims nothing about coverage gaps:\n%s", txt)
	}
}

// TestCriteriaInvariantUnderRelabelling: the symmetry reduction tests one
// model per orbit, which is sound only if every criterion's verdict and
// both partitions are the same for every relabelling of states and
// actions (histories are observation sequences, which are not
// relabelled). Checked on random models of halves and quarters.
func TestCriteriaInvariantUnderRelabelling(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	hits := map[Criterion]int{}
	for _, c := range []Class{{S: 2, O: 2, A: 2, Grid: Grid{2, 2}}, {S: 3, O: 2, A: 2, Grid: Grid{1, 2}}, {S: 2, O: 2, A: 2, Grid: Grid{4, 4}}} {
		sp := newSpace(c)
		code := make([]int, len(sp.radix))
		for range 12 {
			for k, r := range sp.radix {
				code[k] = rng.IntN(r)
			}
			for _, T := range []int{2, 3} {
				for _, cr := range Criteria {
					h0, err := test(context.Background(), cr, sp.model(code, ""), T)
					if err != nil {
						t.Fatal(err)
					}
					if h0 != nil {
						hits[cr]++
					}
					for k := range sp.permS {
						for j := range sp.permA {
							p := permuted(sp, code, k, j)
							h, err := test(context.Background(), cr, sp.model(p, ""), T)
							if err != nil {
								t.Fatal(err)
							}
							if (h == nil) != (h0 == nil) || h != nil && (!h.Small.Equal(h0.Small) || !h.Large.Equal(h0.Large) || h.Depth != h0.Depth || h.Eps != h0.Eps) {
								t.Errorf("%s, %v, T = %d: code %v separates %v, relabelled (σ %v, τ %v) %v separates %v", cr, c, T, code, h0 != nil, sp.permS[k], sp.permA[j], p, h != nil)
							}
						}
					}
				}
			}
		}
	}
	for _, cr := range Criteria {
		if hits[cr] == 0 {
			t.Errorf("%s: no sampled model separates; the invariance is not exercised", cr)
		}
	}
	t.Logf("separating samples per criterion: %v", hits)
}

// TestSymmetryReductionFindsSameWitness: the smallest separating code
// overall is canonical (its orbit's smallest code separates too), so the
// search with and without symmetry reduction finds the same witnesses,
// down to the model number.
func TestSymmetryReductionFindsSameWitness(t *testing.T) {
	opt := Options{MaxStates: 2, MaxObs: 2, MaxT: 3, Grids: []Grid{{1, 2}, {2, 2}}, Workers: 2}
	var got [2][]string
	for i, noSym := range []bool{false, true} {
		opt.NoSymmetry = noSym
		rep, err := Search(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range rep.Witnesses {
			got[i] = append(got[i], fmt.Sprintf("%s %v T=%d model %d", w.Criterion, w.Class, w.T, w.Index))
		}
	}
	if len(got[0]) == 0 || !slices.Equal(got[0], got[1]) {
		t.Errorf("witnesses with symmetry reduction:\n%v\nwithout:\n%v", got[0], got[1])
	}
}
