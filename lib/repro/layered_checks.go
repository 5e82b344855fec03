package repro

import (
	"context"
	"fmt"
	"strings"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/wrap"
)

func init() {
	register(Spec{Name: "layered-checks", Label: "fig:layered-checks",
		Title: "Layered bound validation: eight LHS ≤ RHS cases of thm:layered-composition", Build: layeredChecks})
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

// LayeredCase is one case of fig:layered-checks.
type LayeredCase struct {
	ID, Kind, Setting string
	LHS, RHS          float64
	// For the long-horizon cases (Long; zero otherwise):
	// Segmented = D_T(R, Q̃) against the segmented reference R (M restarted
	// from the segment seeds), which equals Σ_k ε_k by construction; Cut =
	// D_T(M, R), what the restarts lose; Diameter the largest horizon-T
	// distance d^Π between two histories of one class of the layered
	// partition (wrap.Diameter).
	Segmented, Cut, Diameter float64
	// Long marks the long-horizon cases (Kind "long horizon").
	Long bool
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
		out = append(out, LayeredCase{ID: fmt.Sprintf("lc%d", 6+i), Kind: "long horizon", Long: true,
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
		if c.Long {
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
