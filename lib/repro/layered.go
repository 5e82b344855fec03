package repro

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

func init() {
	register(Spec{Name: "hierarchical-scaling", Label: "tab:hierarchical-scaling",
		Title: "Direct vs layered quotients, Tiger (full actions), m = 1, ε = 0.5", Build: hierarchicalScaling})
	register(Spec{Name: "data-processing", Label: "thm:data-processing",
		Title: "Data-processing monotonicity: GridWorld 4 → 2 observations (m = 1, T = 2)", Build: dataProcessing})
	register(Spec{Name: "layered-checks", Label: "fig:layered-checks",
		Title: "Layered bound validation: eight LHS ≤ RHS cases of thm:layered-composition", Build: layeredChecks})
	register(Spec{Name: "tractability", Label: "tab:tractability",
		Title: "Scalability dimensions and what this library measures on each", Build: tractability})
}

// HierarchicalCases are the (T, τ) pairs of tab:hierarchical-scaling.
var HierarchicalCases = [][2]int{{4, 4}, {6, 4}, {8, 4}, {10, 5}}

// LayeredCheckTol is the slack allowed in a LHS ≤ RHS comparison
// (floating-point noise of the transport solver).
const LayeredCheckTol = 1e-9

func f4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

func hierarchicalScaling(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "hierarchical-scaling", Paper: "hierarchical-scaling", Label: "tab:hierarchical-scaling",
		Title: "Operational direct vs layered quotients on Tiger (full actions), m = 1 stationary probes, ε = 0.5 (one core)",
		Columns: []Column{{"horizon", Key}, {"method", Key}, {"segment_tau", Setting}, {"layers", Exact}, {"runtime_s", Timing},
			{"histories_processed", Exact}, {"classes", Info}, {"ari_vs_direct", Info}, {"true_diameter", Info}, {"composed_bound", Info}}}
	const eps = 0.5
	b, err := bench.Lookup("tiger")
	if err != nil {
		return nil, err
	}
	fam, err := fsc.NewStationary(b.Model.NumActions(), b.Model.NumObservations(), 1, fsc.Options{})
	if err != nil {
		return nil, err
	}
	prog := env.progress("hierarchical-scaling")
	var example string // the layered history count of one case, summed per segment
	for n, c := range HierarchicalCases {
		T, tau := c[0], c[1]
		start := time.Now()
		r, err := distance.Compute(ctx, b.Model, fam, T, distance.Options{Ground: b.Ground, Workers: 1})
		if err != nil {
			return nil, err
		}
		p := r.Partition(eps)
		direct := time.Since(start).Seconds()
		t.Rows = append(t.Rows, []string{itoa(T), "Direct", "", "1", f3(direct), itoa(r.Tree.Len()),
			itoa(p.Total()), "1.000", f4(wrap.Diameter(r.D, p)), ""})
		t.SetKind(len(t.Rows)-1, "layers", Setting) // a direct computation is one layer by definition
		l, err := wrap.Layer(ctx, b.Model, fam, T, tau, eps, wrap.LayerOptions{Ground: b.Ground, Workers: 1})
		if err != nil {
			return nil, err
		}
		lp, err := l.Partition(0)
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, []string{itoa(T), "Layered", itoa(tau), itoa(len(l.Segments)), f3(l.Seconds), itoa(l.Histories),
			itoa(l.Classes()), f3(partition.ARIPartitions(p, lp)), f4(wrap.Diameter(r.D, lp)), f4(l.Bound)})
		if example == "" && len(l.Segments) > 1 {
			var parts []string
			for _, sg := range l.Segments {
				parts = append(parts, itoa(wrap.HistoriesDirect(b.Model.NumObservations(), sg.Tau)))
			}
			example = fmt.Sprintf("T = %d, τ = %d: %s = %d", T, tau, strings.Join(parts, " + "), l.Histories)
		}
		if prog != nil {
			prog(n+1, len(HierarchicalCases))
		}
	}
	t.Notes = append(t.Notes,
		"histories_processed counts history-tree nodes: Σ_{t≤T} |O|^t for the direct method, one tree of Σ_{t≤τ_k} |O|^t per segment for the layered one ("+example+").",
		"Layered construction (our reading of App. H): segment k starts from the canonical class belief of the previous segment's terminal class (uniform average of its members' beliefs, Prop. C.1), each probe restarted; the layered partition labels a history by the class of its position inside its segment.",
		"classes, ari_vs_direct, true_diameter (largest distance inside a class, measured with the direct horizon-T distances) and composed_bound (Σ_k ε_k, the measured segment residuals) are ours only.",
		"runtime_s is pattern-only (one core, Go; the paper: one core, Python on an Apple M3 Pro); the layered time includes the residual certificate ε_k.")
	return t, nil
}

// gridMerge returns the North/South channel of GridWorld.
func gridMerge() (*wrap.Channel, error) {
	groups, names := bench.GridCoarsening()
	return wrap.Merge(groups, names, bench.GridGround())
}

// epsQuotient returns the greedy ε-quotient of a built-in model (m = 1
// stationary probes) as a probe-dependent model, with the family.
func epsQuotient(ctx context.Context, env *Env, model string, T int, eps float64) (wrap.Model, fsc.Family, bench.Benchmark, error) {
	r, b, err := distances(ctx, env, model, fsc.KindStationary, 1, T, false)
	if err != nil {
		return nil, nil, b, err
	}
	return quotientModel(b.Model, T, r.Partition(eps), b)
}

func quotientModel(m *pomdp.Model, T int, p *partition.Partition, b bench.Benchmark) (wrap.Model, fsc.Family, bench.Benchmark, error) {
	q, err := quotient.New(m, T, p)
	if err != nil {
		return nil, nil, b, err
	}
	fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), 1, fsc.Options{})
	return wrap.Quotient(q), fam, b, err
}

// contraction returns (D(W(M), W(N)), L_C · D(M, N)) for m = 1 stationary
// probes (a family closed under pullback through any channel).
func contraction(ctx context.Context, M, N wrap.Model, fam fsc.Family, T int, g ot.Ground, w wrap.Wrapper) (lhs, rhs float64, err error) {
	L, err := w.Lipschitz(g)
	if err != nil {
		return 0, 0, err
	}
	d, err := wrap.Distance(ctx, M, N, fam, T, g)
	if err != nil {
		return 0, 0, err
	}
	famW, err := fsc.NewStationary(fam.At(0).NumActions, w.Obs.Outputs(), 1, fsc.Options{})
	if err != nil {
		return 0, 0, err
	}
	dw, err := wrap.Distance(ctx, w.Of(M), w.Of(N), famW, T, w.Ground(g))
	if err != nil {
		return 0, 0, err
	}
	return dw.Distance, L * d.Distance, nil
}

// DataProcessingEps is the grid of ε at which thm:data-processing is
// checked (the paper tests 13 values without listing them).
func DataProcessingEps() []float64 { return partition.Grid(0, 0.6, 0.05) }

func dataProcessing(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "data-processing", Paper: "inline-claims", Label: "thm:data-processing",
		Title:   "Data-processing monotonicity and δ_O-coarsening: GridWorld NW,NE → North, SW,SE → South (m = 1, T = 2)",
		Columns: []Column{{"id", Key}, {"quantity", Info}, {"value", Exact}, {"lhs", Info}, {"rhs", Info}}}
	const T = 2
	w, err := gridMerge()
	if err != nil {
		return nil, err
	}
	L, _, _, err := w.Lipschitz(bench.GridGround())
	if err != nil {
		return nil, err
	}
	wr := wrap.Wrapper{Obs: w}
	minHolds := -1
	var eachEps [][]string
	for _, n := range []int{3, 5} {
		name := fmt.Sprintf("gridworld:%d", n)
		r, b, err := distances(ctx, env, name, fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		coarse, err := w.Apply(b.Model)
		if err != nil {
			return nil, err
		}
		fam, err := fsc.NewStationary(coarse.NumActions(), coarse.NumObservations(), 1, fsc.Options{})
		if err != nil {
			return nil, err
		}
		rc, err := distance.Compute(ctx, coarse, fam, T, distance.Options{Ground: w.Ground, Workers: env.workers()})
		if err != nil {
			return nil, err
		}
		// The pairwise check at T = 3 (at T = 2 only depth 1 has a pair).
		r3, _, err := distances(ctx, env, name, fsc.KindStationary, 1, 3, false)
		if err != nil {
			return nil, err
		}
		rc3, err := distance.Compute(ctx, coarse, fam, 3, distance.Options{Ground: w.Ground, Workers: env.workers()})
		if err != nil {
			return nil, err
		}
		viol, pairs, err := wrap.PairwiseContraction(r3, rc3, w, L)
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows,
			[]string{fmt.Sprintf("dp_gw%d_orig", n), fmt.Sprintf("GridWorld %dx%d max_{h,h'} d(h,h'), 4 observations", n, n), f4(r.MaxDistance()), "", ""},
			[]string{fmt.Sprintf("dp_gw%d_coarse", n), fmt.Sprintf("GridWorld %dx%d max_{h,h'} d(h,h') after the merge (d(North,South) = 0.5)", n, n), f4(rc.MaxDistance()), "", ""},
			[]string{fmt.Sprintf("dp_gw%d_pairs", n), fmt.Sprintf("GridWorld %dx%d, T = 3: coarse history pairs with d_W(h̄,h̄') > L_C·max d(h,h') over their preimages (of %d pairs)", n, n, pairs), itoa(viol), "", ""})
		holds := 0
		for _, eps := range DataProcessingEps() {
			N, famM, _, err := quotientModel(b.Model, T, r.Partition(eps), b)
			if err != nil {
				return nil, err
			}
			lhs, rhs, err := contraction(ctx, wrap.Fixed(b.Model), N, famM, T, b.Ground, wr)
			if err != nil {
				return nil, err
			}
			ok := lhs <= rhs+LayeredCheckTol
			if ok {
				holds++
			}
			eachEps = append(eachEps, []string{fmt.Sprintf("dp_gw%d_eps%s", n, strconv.FormatFloat(eps, 'f', 2, 64)),
				fmt.Sprintf("GridWorld %dx%d, N = ε-quotient at ε = %.2f: D(W(M), W(N)) ≤ L_C·D(M, N)", n, n, eps), yesNo(ok), f4(lhs), f4(rhs)})
		}
		if minHolds < 0 || holds < minHolds {
			minHolds = holds
		}
	}
	cz, err := wrap.Quantize(bench.GridGround(), []string{"NW", "NE", "SW", "SE"}, []int{bench.NW, bench.SW})
	if err != nil {
		return nil, err
	}
	t.Rows = append(t.Rows,
		[]string{"dp_lc", "Lipschitz constant L_C of the merge (geometric metric → d(North,South) = 0.5)", strconv.FormatFloat(L, 'g', -1, 64), "", ""},
		[]string{"dp_n_eps_tested", fmt.Sprintf("ε values (of %d: 0, 0.05, …, 0.6) at which D(W(M), W(N_ε)) ≤ L_C·D(M, N_ε), the smaller count of the two grids", len(DataProcessingEps())), itoa(minHolds), "", ""},
		[]string{"dp_delta_o", "δ_O of the merge as the δ_O-coarsening onto O_δ = {NW, SW}", strconv.FormatFloat(cz.Delta, 'g', -1, 64), "", ""})
	t.Rows = append(t.Rows, eachEps...)
	nEps, err := claimed("dp_n_eps_tested")
	if err != nil {
		return nil, err
	}
	t.Notes = append(t.Notes,
		"The paper does not list its "+nEps+" ε values nor say what it compares at each; we compare the model-level distances of thm:data-processing with N = the greedy ε-quotient of GridWorld (each probe's own quotient), for ε = "+gridText(DataProcessingEps())+".",
		"dp_gw*_pairs: a coarse history's conditional law is a mixture of its preimages' laws pushed through the channel, so d_W(h̄, h̄') ≤ L_C · max over preimage pairs of d(h, h'); checked for every pair of every depth.")
	return t, nil
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

// LayeredCase is one case of fig:layered-checks.
type LayeredCase struct {
	ID, Kind, Setting string
	LHS, RHS          float64
	// For the long-horizon cases (Kind "long horizon"; zero otherwise):
	// Segmented = D_T(R, Q̃) against the segmented reference R (M restarted
	// from the segment seeds), which equals Σ_k ε_k by construction; Cut =
	// D_T(M, R), what the restarts lose; Diameter the largest horizon-T
	// distance d^Π between two histories of one class of the layered
	// partition (wrap.Diameter).
	Segmented, Cut, Diameter float64
}

// Holds reports whether LHS ≤ RHS (+ LayeredCheckTol), false on NaN.
func (c LayeredCase) Holds() bool { return c.LHS <= c.RHS+LayeredCheckTol }

// layeredLongCases are the (T, τ) of the long-horizon cases of
// fig:layered-checks.
var layeredLongCases = [][2]int{{4, 2}, {8, 4}, {10, 5}}

// layeredProbeM is the memory of the stationary probes of
// fig:layered-checks.
const layeredProbeM = 1

// LayeredChecks computes the eight cases of fig:layered-checks (see the
// notes of the "layered-checks" table for what each one is).
func LayeredChecks(ctx context.Context, env *Env) ([]LayeredCase, error) {
	if env == nil {
		env = &Env{}
	}
	single, err := layeredSingle(ctx, env)
	if err != nil {
		return nil, err
	}
	wrappers, err := layeredWrappers(ctx, env)
	if err != nil {
		return nil, err
	}
	long, err := layeredLong(ctx, env)
	if err != nil {
		return nil, err
	}
	return append(append([]LayeredCase{single}, wrappers...), long...), nil
}

// layeredSingle is case 1, the single-layer reduction: Γ_2 ≤ L_1 Γ_1 + ε_1
// with W_1 = id.
func layeredSingle(ctx context.Context, env *Env) (LayeredCase, error) {
	const T, eps, acc1, acc2, b0 = 4, 0.5, 0.85, 0.90, 0.5
	m1, err := bench.Tiger(acc1, b0)
	if err != nil {
		return LayeredCase{}, err
	}
	mt, err := bench.Tiger(acc2, b0)
	if err != nil {
		return LayeredCase{}, err
	}
	fam, err := fsc.NewStationary(3, 2, layeredProbeM, fsc.Options{})
	if err != nil {
		return LayeredCase{}, err
	}
	r, err := distance.Compute(ctx, mt.Model, fam, T, distance.Options{Ground: mt.Ground, Workers: env.workers()})
	if err != nil {
		return LayeredCase{}, err
	}
	q, _, _, err := quotientModel(mt.Model, T, r.Partition(eps), mt)
	if err != nil {
		return LayeredCase{}, err
	}
	g1, err := wrap.Distance(ctx, wrap.Fixed(m1.Model), wrap.Fixed(mt.Model), fam, T, m1.Ground)
	if err != nil {
		return LayeredCase{}, err
	}
	e1, err := wrap.Distance(ctx, wrap.Fixed(mt.Model), q, fam, T, m1.Ground)
	if err != nil {
		return LayeredCase{}, err
	}
	g2, err := wrap.Distance(ctx, wrap.Fixed(m1.Model), q, fam, T, m1.Ground)
	if err != nil {
		return LayeredCase{}, err
	}
	return LayeredCase{ID: "lc1", Kind: "single-layer reduction",
		Setting: fmt.Sprintf("Tiger T = %d: M = Tiger(%s), M̃₁ = Tiger(%s), M̃₂ = its ε-quotient (ε = %s), W = id: Γ₂ ≤ Γ₁ + ε₁", T, plF2(acc1), plF2(acc2), fg(eps)),
		LHS:     g2.Distance, RHS: g1.Distance + e1.Distance}, nil
}

// layeredWrappers are cases 2–5, wrapper contraction:
// D(W(M), W(N)) ≤ L_C D(M, N), N an ε-quotient.
func layeredWrappers(ctx context.Context, env *Env) ([]LayeredCase, error) {
	var out []LayeredCase
	merge, err := gridMerge()
	if err != nil {
		return nil, err
	}
	const flipP, noiseP = 0.1, 0.2
	flip, err := wrap.NewChannel([][]float64{{1 - flipP, flipP}, {flipP, 1 - flipP}}, []string{"L", "R"}, nil)
	if err != nil {
		return nil, err
	}
	noise, err := GridNoise(noiseP)
	if err != nil {
		return nil, err
	}
	for _, c := range []struct {
		id, kind, model string
		T               int
		eps             float64
		ch              *wrap.Channel
		name, wrapper   string
	}{
		{"lc2", "deterministic wrapper", "gridworld:3", 2, 0.3, merge, "GridWorld 3×3", "North/South merge"},
		{"lc3", "deterministic wrapper", "gridworld:5", 2, 0.3, merge, "GridWorld 5×5", "North/South merge"},
		{"lc4", "stochastic wrapper", "tiger", 4, 0.5, flip, "Tiger", "symmetric flip " + fg(flipP)},
		{"lc5", "stochastic wrapper", "gridworld:3", 2, 0.3, noise, "GridWorld 3×3", "adjacent-quadrant noise " + fg(noiseP)},
	} {
		N, fam, b, err := epsQuotient(ctx, env, c.model, c.T, c.eps)
		if err != nil {
			return nil, err
		}
		LC, _, _, err := c.ch.Lipschitz(b.Ground)
		if err != nil {
			return nil, err
		}
		desc := fmt.Sprintf("%s T = %d, N = ε-quotient (ε = %s), W = %s (L_C = %s)", c.name, c.T, fg(c.eps), c.wrapper, fe(LC))
		lhs, rhs, err := contraction(ctx, wrap.Fixed(b.Model), N, fam, c.T, b.Ground, wrap.Wrapper{Obs: c.ch})
		if err != nil {
			return nil, err
		}
		out = append(out, LayeredCase{ID: c.id, Kind: c.kind, Setting: desc + ": D(W(M), W(N)) ≤ L_C·D(M, N)", LHS: lhs, RHS: rhs})
	}
	return out, nil
}

// layeredLong are cases 6–8, the long horizon: Γ = D_T(M, Q̃) ≤ Σ_k ε_k for the layered
// decomposition. D_T(R, Q̃) against the segmented reference R is
// reported beside it: W1 adds over independent segments, so it equals
// Σ_k ε_k whenever one probe attains every ε_k, and cannot fail.
func layeredLong(ctx context.Context, env *Env) ([]LayeredCase, error) {
	var out []LayeredCase
	tiger, err := bench.Lookup("tiger")
	if err != nil {
		return nil, err
	}
	fam, err := fsc.NewStationary(3, 2, layeredProbeM, fsc.Options{})
	if err != nil {
		return nil, err
	}
	for i, c := range layeredLongCases {
		T := c[0]
		l, err := wrap.Layer(ctx, tiger.Model, fam, T, c[1], 0.5, wrap.LayerOptions{Ground: tiger.Ground, Workers: env.workers()})
		if err != nil {
			return nil, err
		}
		d, err := l.Distortion(ctx, 0)
		if err != nil {
			return nil, err
		}
		r, _, err := distances(ctx, env, "tiger", fsc.KindStationary, 1, T, false)
		if err != nil {
			return nil, err
		}
		lp, err := l.Partition(0)
		if err != nil {
			return nil, err
		}
		out = append(out, LayeredCase{ID: fmt.Sprintf("lc%d", 6+i), Kind: "long horizon",
			Setting: fmt.Sprintf("Tiger T = %d, τ = %d (L = %d), ε = 0.5: Γ = D_T(M, Q̃) ≤ Σ_k ε_k", T, c[1], len(l.Segments)),
			LHS:     d.Total, RHS: d.Bound, Segmented: d.Gamma, Cut: d.Cut, Diameter: wrap.Diameter(r.D, lp)})
	}
	return out, nil
}

// GridNoise returns the GridWorld observation channel that reports the true
// quadrant with probability 1 − p and each of the two adjacent quadrants
// with p/2, with the geometric metric on its outputs.
func GridNoise(p float64) (*wrap.Channel, error) {
	g := bench.GridGround()
	rows := make([][]float64, 4)
	for o := range rows {
		rows[o] = make([]float64, 4)
		for o2 := range rows[o] {
			switch {
			case o == o2:
				rows[o][o2] = 1 - p
			case g[o][o2] == 0.5:
				rows[o][o2] = p / 2
			}
		}
	}
	return wrap.NewChannel(rows, []string{"NW", "NE", "SW", "SE"}, g)
}

func layeredChecks(ctx context.Context, env *Env) (*Table, error) {
	cases, err := LayeredChecks(ctx, env)
	if err != nil {
		return nil, err
	}
	t := &Table{Name: "layered-checks", Paper: "inline-claims", Label: "fig:layered-checks",
		Title: "Layered bound validation (thm:layered-composition): eight LHS ≤ RHS cases",
		Columns: []Column{{"id", Key}, {"case", Info}, {"setting", Info}, {"lhs", Info}, {"rhs", Info},
			{"d_segmented", Info}, {"d_cut", Info}, {"true_diameter", Info}, {"value", Exact}}}
	holds := 0
	var fails []string
	for _, c := range cases {
		ok := c.Holds()
		if ok {
			holds++
		} else {
			fails = append(fails, fmt.Sprintf("%s D_T(M, Q̃) = %s > Σε_k = %s (D_T(R, Q̃) = %s, largest in-class distance %s)",
				c.ID, f4(c.LHS), f4(c.RHS), f4(c.Segmented), f4(c.Diameter)))
		}
		seg, cut, diam := "", "", ""
		if c.Kind == "long horizon" {
			seg, cut, diam = f4(c.Segmented), f4(c.Cut), f4(c.Diameter)
		}
		t.Rows = append(t.Rows, []string{c.ID, c.Kind, c.Setting, f4(c.LHS), f4(c.RHS), seg, cut, diam, yesNo(ok)})
	}
	t.Rows = append(t.Rows, []string{"layered_checks_cases", "all", "cases with LHS ≤ RHS", "", "", "", "", "", itoa(holds)})
	// No reading: against the segmented reference R the left side equals
	// Σ_k ε_k by construction, so a count of cases that hold there could
	// not have failed and explains nothing. The difference stays
	// unexplained, with its computed account as a remark.
	if len(fails) > 0 {
		t.Remark(len(t.Rows)-1, fmt.Sprintf("the long-horizon bound Σ_k ε_k fails for the original model in %d of the %d cases: %s. Against the segmented reference R (M restarted from the segment seeds) the left side equals Σ_k ε_k by construction (d_segmented), which is what a check of D(R, Q̃) would have reported and which cannot fail, so it explains nothing; the gap is D_T(M, R) (d_cut), the cost of restarting, which thm:layered-composition does not cover",
			len(fails), len(cases), strings.Join(fails, "; ")))
	}
	nCases, err := claimed("layered_checks_cases")
	if err != nil {
		return nil, err
	}
	var longT []string
	for _, c := range layeredLongCases {
		longT = append(longT, itoa(c[0]))
	}
	t.Notes = append(t.Notes,
		fmt.Sprintf("The paper names its %s cases only by kind (single-layer reduction, deterministic and stochastic wrapper contraction, long-horizon bounds at T ∈ {%s}); the settings are ours. Distances are D_T^Π over m = %d stationary probes; a quotient is seen by each probe (quotient.ForProbe).",
			nCases, strings.Join(longT, ", "), layeredProbeM),
		"Long-horizon cases: lhs is D_T(M, Q̃), the original model against the layered quotient Q̃ (segment quotients concatenated); rhs is Σ_k ε_k, the measured segment residuals. d_segmented = D_T(R, Q̃) with R = M restarted from the segment seeds: W1 is additive over independent segments under the additive sequence cost (Kantorovich duality with f = f₁ + f₂), so it equals Σ_k ε_k whenever one probe attains every ε_k and cannot fail. d_cut = D_T(M, R); true_diameter is the largest horizon-T distance between two histories of one layered class.")
	return t, nil
}

// tractabilitySettings are the tab:tractability numbers that are inputs we
// chose (model sizes, horizons, the subset size k, the observation merge),
// shown beside the paper's but never counted as agreement.
var tractabilitySettings = map[string]bool{
	"tract_states_sampling": true, "tract_states_sampling_medium": true, "tract_empirical_subset": true,
	"tract_direct_T": true, "tract_layered_T": true, "tract_obs_from": true, "tract_obs_to": true,
	// the certified subset size is the budget k we chose, the largest of
	// tab:partition-agreement's grid; whether δ_S = 0 there is measured.
	"tract_certified_gw_to": true, "tract_certified_tiger_to": true,
}

// certifiedBudget returns the largest subset budget k of
// tab:partition-agreement's grid (paBudgets), the setting that
// tab:tractability's "certified subset size" echoes, and what we measured
// for bench: δ_S at that k and the smallest k of the grid with δ_S = 0.
func certifiedBudget(pa *Table, bench string) (int, string) {
	k := slices.Max(paBudgets)
	var at, smallest string
	for i := range pa.Rows {
		if pa.at(i, "benchmark") != bench {
			continue
		}
		if pa.at(i, "k") == itoa(k) {
			at = pa.at(i, "delta_s")
		}
		if d, err := strconv.ParseFloat(pa.at(i, "delta_s"), 64); err == nil && d == 0 && smallest == "" {
			smallest = pa.at(i, "k")
		}
	}
	if smallest == "" {
		smallest = "none"
	}
	budgets := make([]string, len(paBudgets))
	for j, b := range paBudgets {
		budgets[j] = itoa(b)
	}
	return k, fmt.Sprintf("δ_S = %s at k = %d; smallest certified budget of k ∈ {%s}: %s", at, k, strings.Join(budgets, ", "), smallest)
}

// tractSubsetT is the horizon of the calibrated subset's row of
// tab:tractability (a row of tab:principal-horizon).
const tractSubsetT = 8

func tractability(ctx context.Context, env *Env) (*Table, error) {
	t := &Table{Name: "tractability", Paper: "inline-claims", Label: "tab:tractability",
		Title:   "Scalability: each complexity dimension, the technique, and our own measured numbers",
		Columns: []Column{{"id", Key}, {"dimension", Info}, {"technique", Info}, {"quantity", Info}, {"value", Exact}, {"measured", Info}, {"runtime_s", Timing}}}
	tr := &tractRows{t: t}
	trees, err := tractStates(ctx, env, tr)
	if err != nil {
		return nil, err
	}
	if err := tractFSCs(ctx, env, tr); err != nil {
		return nil, err
	}
	if err := tractHistories(ctx, tr); err != nil {
		return nil, err
	}
	// Observations: the GridWorld merge.
	w, err := gridMerge()
	if err != nil {
		return nil, err
	}
	tr.add("tract_obs_from", "Observations |O|", "δ_O-coarsening (δ_O = 0.5)", "GridWorld observations before", itoa(w.Inputs()), "")
	tr.add("tract_obs_to", "Observations |O|", "δ_O-coarsening (δ_O = 0.5)", "after", itoa(w.Outputs()),
		fmt.Sprintf("histories at T = 2: %d → %d", wrap.HistoriesDirect(w.Inputs(), 2), wrap.HistoriesDirect(w.Outputs(), 2)))
	var sizes []string
	for _, id := range []string{"tract_states_sampling", "tract_states_sampling_medium"} {
		v, err := claimedFloat(id)
		if err != nil {
			return nil, err
		}
		sizes = append(sizes, thousands(int(v)))
	}
	t.Notes = append(t.Notes,
		"The paper's table is textual; its numbers are in inline-claims.csv. Our rows recompute each number in the same setting and report what we measured (one core for the timed rows).",
		fmt.Sprintf("The paper reaches |S| = %s by sampling; exact laws are cheap there (Kronecker transitions, history trees of %s nodes), so we report exact numbers.", strings.Join(sizes, " and "), strings.Join(trees, " and ")),
		fmt.Sprintf("runtime_s (pattern) is our wall-clock time; for the calibrated subset it is the T = %d row of principal-horizon.", tractSubsetT))
	return t, nil
}

// tractRows appends the rows of tab:tractability: secs is the timing of
// the next row ("" for none), and the inputs we chose are settings.
type tractRows struct {
	t    *Table
	secs string
}

func (tr *tractRows) add(id, dim, tech, q, v, meas string) {
	tr.t.Rows = append(tr.t.Rows, []string{id, dim, tech, q, v, meas, tr.secs})
	tr.secs = ""
	if tractabilitySettings[id] {
		tr.t.SetKind(len(tr.t.Rows)-1, "value", Setting)
	}
}

// tractStates adds the rows on |S|: exact computation (no sampling) at
// the paper's sampled sizes; it returns the history-tree sizes.
func tractStates(ctx context.Context, env *Env, tr *tractRows) ([]string, error) {
	var trees []string // history-tree sizes of those models
	for _, c := range []struct {
		id, model string
		n         int
	}{{"tract_states_sampling", "netmon:12", 4096}, {"tract_states_sampling_medium", "gridworld:10", 100}} {
		start := time.Now()
		r, b, err := distances(ctx, env, c.model, fsc.KindStationary, 1, 2, false)
		if err != nil {
			return nil, err
		}
		tr.secs = f3(time.Since(start).Seconds())
		trees = append(trees, itoa(r.Tree.Len()))
		tr.add(c.id, "States |S|", "exact laws (the paper: sampling)", "|S| of "+b.Name, itoa(b.Model.NumStates()),
			fmt.Sprintf("m = 1, T = 2 exact: %d classes at ε = 0, %d at ε = 0.3", r.Partition(0).Total(), r.Partition(0.3).Total()))
	}
	return trees, nil
}

// tractFSCs adds the rows on |F|: certified greedy subsets
// (tab:partition-agreement), m = 2 family sizes, the calibrated subset.
func tractFSCs(ctx context.Context, env *Env, tr *tractRows) error {
	pa, err := partitionAgreement(ctx, env)
	if err != nil {
		return err
	}
	for _, c := range []struct{ bench, from, to, model string }{
		{"GridWorld 3x3", "tract_certified_gw_from", "tract_certified_gw_to", "gridworld:3"},
		{"Tiger", "tract_certified_tiger_from", "tract_certified_tiger_to", "tiger"}} {
		b, err := bench.Lookup(c.model)
		if err != nil {
			return err
		}
		size, err := fsc.Size(fsc.KindStationary, b.Model.NumActions(), b.Model.NumObservations(), 2, 0)
		if err != nil {
			return err
		}
		tr.add(c.from, "FSCs |F|", "greedy FSC subsets, a-posteriori δ_S", c.bench+" m ≤ 2 family", size.String(), "")
		k, measured := certifiedBudget(pa, c.bench)
		tr.add(c.to, "FSCs |F|", "greedy FSC subsets, a-posteriori δ_S", c.bench+" subset size k (the largest budget of our grid: a setting)", itoa(k), measured)
	}
	rs, err := fsc.Size(fsc.KindStationary, 9, 3, 2, 0)
	if err != nil {
		return err
	}
	tr.add("tract_rocksample_m2_fscs", "FSCs |F|", "enumeration", "RockSample(4,4) m ≤ 2 family", rs.String(), "")
	ph, err := principalHorizon(ctx, env)
	if err != nil {
		return err
	}
	for i := range ph.Rows {
		if ph.at(i, "horizon") == itoa(tractSubsetT) {
			tr.secs = ph.at(i, "runtime_s")
			tr.add("tract_empirical_subset", "FSCs |F|", "calibrated subset (no δ_S)", "subset of the 147 Tiger m ≤ 2 FSCs", ph.at(i, "fscs_used"),
				fmt.Sprintf("T = %d: %s classes, ARI %s vs the full family", tractSubsetT, ph.at(i, "classes"), ph.at(i, "ari_vs_full")))
		}
	}
	return nil
}

// tractHistories adds the rows on |O|^T: the largest direct and
// layered horizons (Tiger, m = 1, one core).
func tractHistories(ctx context.Context, tr *tractRows) error {
	b, err := bench.Lookup("tiger")
	if err != nil {
		return err
	}
	fam, err := fsc.NewStationary(3, 2, 1, fsc.Options{})
	if err != nil {
		return err
	}
	Tmax := 0
	for _, c := range HierarchicalCases {
		Tmax = max(Tmax, c[0])
	}
	start := time.Now()
	if _, err := distance.Compute(ctx, b.Model, fam, Tmax, distance.Options{Ground: b.Ground, Workers: 1}); err != nil {
		return err
	}
	tr.secs = f3(time.Since(start).Seconds())
	tr.add("tract_direct_T", "Histories |O|^T", "direct", "largest direct horizon (Tiger, m = 1)", itoa(Tmax),
		fmt.Sprintf("%d histories, one core", wrap.HistoriesDirect(b.Model.NumObservations(), Tmax)))
	l, err := wrap.Layer(ctx, b.Model, fam, 20, 4, 0.5, wrap.LayerOptions{Ground: b.Ground, Workers: 1})
	if err != nil {
		return err
	}
	tr.secs = f3(l.Seconds)
	tr.add("tract_layered_T", "Histories |O|^T", "layered horizon decomposition", "largest layered horizon (Tiger, τ = 4)", itoa(l.T),
		fmt.Sprintf("%d segments, %d histories (direct: %d), %d classes, Σ ε_k = %.4f, one core", len(l.Segments), l.Histories, wrap.HistoriesDirect(b.Model.NumObservations(), l.T), l.Classes(), l.Bound))
	return nil
}
