package nb

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/certify"
	"github.com/pomdpq/pomdpq/lib/distance"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/render"
	"github.com/pomdpq/pomdpq/lib/value"
)

// Setting names a distance computation of the operational certificates
// (notebook 05): a built-in model, the deterministic stationary family with
// at most M nodes, horizon T. ObsReward switches to the synthetic
// observation reward R(s,a) = E[v(O') | s,a] and the discrete metric, under
// which L_R = 1 (def:obs-lipschitz).
type Setting struct {
	Label, Name string
	M, T        int
	ObsReward   bool
}

// Study is a [Setting] with its model, family, distances and tensor.
type Study struct {
	Setting
	Model  *pomdp.Model
	Fam    fsc.Family
	R      *distance.Result
	Tensor *certify.Tensor
}

// ComputeStudy computes the distances (with their tensor) of setting s.
func ComputeStudy(ctx context.Context, s Setting) (Study, error) {
	b, err := bench.Lookup(s.Name)
	if err != nil {
		return Study{}, err
	}
	m, g := b.Model, b.Ground
	if s.ObsReward {
		if m, err = value.WithObsReward(b.Model); err != nil {
			return Study{}, err
		}
		g = ot.Discrete(m.NumObservations())
	}
	fam, err := fsc.NewStationary(m.NumActions(), m.NumObservations(), s.M, fsc.Options{})
	if err != nil {
		return Study{}, err
	}
	r, err := distance.Compute(ctx, m, fam, s.T, distance.Options{Ground: g, Tensor: true})
	if err != nil {
		return Study{}, fmt.Errorf("%s: %w", s.Label, err)
	}
	t, err := certify.FromResult(r)
	return Study{s, m, fam, r, t}, err
}

// SubmodularRow is one k of the greedy selection against the exhaustive
// optimum (see [SubmodularStudy]).
type SubmodularRow struct {
	K                 int
	Greedy, Gain, Gap float64 // f(S_k), its last gain, δ_{S_k}
	Opt               float64 // f(S*_k)
	OptS              []int   // family indices of an optimal subset
	Candidates        int
	Subsets           int64
}

// SubmodularStudy runs greedy selection (alg:greedy-fsc) and the
// exhaustive optimum of the coverage for k = 1 … K on tensor t.
func SubmodularStudy(ctx context.Context, t *certify.Tensor, K int) ([]SubmodularRow, error) {
	var rows []SubmodularRow
	for _, s := range certify.GreedyCurve(t, K) {
		opt, err := certify.OptimalCoverage(ctx, t, s.K, 0)
		if err != nil {
			return nil, fmt.Errorf("k = %d: %w", s.K, err)
		}
		var fi []int
		for _, p := range opt.S {
			fi = append(fi, t.First[p])
		}
		rows = append(rows, SubmodularRow{K: s.K, Greedy: s.Coverage, Gain: s.Gain, Gap: s.Gap, Opt: opt.Value, OptS: fi, Candidates: opt.Candidates, Subsets: opt.Subsets})
	}
	return rows, nil
}

// supermodular is the control set function Σ_u (Σ_{p∈S} D_{u,p})², which is
// not submodular: the diminishing-returns check must catch it.
func supermodular(t *certify.Tensor) func([]int) float64 {
	return func(S []int) float64 {
		f := 0.0
		for u := 0; u < t.Pairs(); u++ {
			x := 0.0
			for _, p := range S {
				x += t.Cols[p][u]
			}
			f += x * x
		}
		return f
	}
}

// DiminishingReturns checks prop:submodular on tensor t (3000 sampled
// triples, seed 1) for the coverage and for a supermodular control, on
// which the check must find violations. A tensor of fewer than two columns
// is an error.
func DiminishingReturns(t *certify.Tensor) (cov, ctl certify.DRReport, err error) {
	if len(t.Cols) < 2 {
		return cov, ctl, fmt.Errorf("nb: DiminishingReturns: %d distinct columns, need 2", len(t.Cols))
	}
	f := func(S []int) float64 { return certify.Coverage(t, S) }
	return certify.DiminishingReturns(f, len(t.Cols), 0, 3000, 1), certify.DiminishingReturns(supermodular(t), len(t.Cols), 0, 3000, 1), nil
}

// AnchorRow compares δ_S with the anchor gap δ_A for one subset (see
// [AnchorStudy]).
type AnchorRow struct {
	Kind           string // "greedy" or "random"
	K              int
	DeltaS, DeltaA float64
}

// AnchorStudy compares δ_S with δ_A for the greedy subsets S_1 … S_K of
// tensor t and for random subsets of the same sizes (PCG, seed 7).
func AnchorStudy(ctx context.Context, t *certify.Tensor, K int) ([]AnchorRow, error) {
	rng := rand.New(rand.NewPCG(7, 7))
	var rows []AnchorRow
	for k := 1; k <= K; k++ {
		for _, kind := range []string{"greedy", "random"} {
			S := certify.Greedy(t, k)
			if kind == "random" {
				S = rng.Perm(len(t.Cols))[:k]
			}
			an, err := certify.AnchorDelta(ctx, t, S)
			if err != nil {
				return nil, fmt.Errorf("%s k = %d: %w", kind, k, err)
			}
			rows = append(rows, AnchorRow{kind, k, certify.Gap(t, S), an.Delta})
		}
	}
	return rows, nil
}

// SpectrumPlots returns, for each setting, the normalised spectrum σ_i/σ_1
// (log scale) and the cumulative explained variance of the depth-(T−1)
// distinguishing matrix, as two plots (the second with dashed lines at
// 0.9, 0.95 and 0.99).
func SpectrumPlots(ctx context.Context, settings []Setting) (*plot.Plot, *plot.Plot, error) {
	var sv, cum []Series
	for _, s := range settings {
		st, err := ComputeStudy(ctx, s)
		if err != nil {
			return nil, nil, err
		}
		sp := st.Tensor.Spectrum(s.T-1, true)
		var x, y, cx []float64
		for i, v := range sp.Values {
			if v > 1e-9*sp.Values[0] {
				x, y = append(x, float64(i+1)), append(y, v/sp.Values[0])
			}
			cx = append(cx, float64(i+1))
		}
		sv = append(sv, Series{Label: s.Label, X: x, Y: y})
		cum = append(cum, Series{Label: s.Label, X: cx, Y: sp.Explained()})
	}
	p1, err := LinePlot("Singular values of the distinguishing matrix (depth T − 1)", "i", "σ_i / σ_1", sv...)
	if err != nil {
		return nil, nil, err
	}
	p1.Y.Scale = plot.LogScale{}
	p1.Y.Tick.Marker = render.PowerTicks{}
	p2, err := varianceLevels(cum)
	return p1, p2, err
}

// varianceLevels plots the cumulative variances with dashed levels 0.9,
// 0.95 and 0.99.
func varianceLevels(cum []Series) (*plot.Plot, error) {
	p, err := LinePlot("Cumulative variance Σ_{j≤i} σ_j² / Σ σ_j²", "i", "fraction", cum...)
	if err != nil {
		return nil, err
	}
	for _, lvl := range []float64{0.9, 0.95, 0.99} {
		l, err := plotter.NewLine(plotter.XYs{{X: 1, Y: lvl}, {X: 28, Y: lvl}})
		if err != nil {
			return nil, err
		}
		l.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(l)
	}
	p.X.Max = 15
	p.Legend.Top = false
	return p, nil
}

// LipschitzCase is one law-Lipschitz check (lem:lipschitz): a built-in
// model, the memory of its controllers, the horizon, clock-aware or
// stationary.
type LipschitzCase struct {
	Name  string
	M, T  int
	Clock bool
}

// LawLipschitz runs certify.LawLipschitz on each case with samples sampled
// controllers (seed seed).
func LawLipschitz(ctx context.Context, cases []LipschitzCase, samples int, seed uint64) ([]certify.LipschitzReport, error) {
	var out []certify.LipschitzReport
	for _, c := range cases {
		b, err := bench.Lookup(c.Name)
		if err != nil {
			return nil, err
		}
		rep, err := certify.LawLipschitz(ctx, b.Model, c.M, c.T, certify.LipschitzOptions{Samples: samples, Seed: seed, Clock: c.Clock})
		if err != nil {
			return nil, fmt.Errorf("%s m = %d T = %d: %w", c.Name, c.M, c.T, err)
		}
		out = append(out, rep)
	}
	return out, nil
}

// Ranks summarises the size measures of rem:anchor-vs-spectral for one
// tensor (see [RankStudy]).
type Ranks struct {
	Columns, Distinct   int // family size, distinct columns
	Numerical, Eff99    int // numerical rank, 99% effective rank (all depths, duplicates)
	Extreme             int // vertices of the convex hull = exact anchor rank
	Anchors01, Anchors0 int // greedy anchor family sizes for δ = 0.1 and δ = 0 (Anchors0 is left 0)
	REnv0               int // exact r_env(δ = 0)
}

// RankStudy measures the ranks of st's tensor: spectral, convex-hull,
// greedy-anchor (δ = 0.1) and envelope (δ = 0).
func RankStudy(ctx context.Context, st Study) (Ranks, error) {
	sp := st.Tensor.Spectrum(-1, true)
	ex, err := certify.Extreme(ctx, st.Tensor, 0)
	if err != nil {
		return Ranks{}, err
	}
	a1, _, err := certify.GreedyAnchors(ctx, st.Tensor, 0.1, 0)
	if err != nil {
		return Ranks{}, err
	}
	cv, err := certify.EnvelopeRank(ctx, st.Tensor, 0, 0)
	if err != nil {
		return Ranks{}, err
	}
	return Ranks{Columns: st.R.FamilySize, Distinct: len(st.Tensor.Cols), Numerical: sp.NumericalRank(), Eff99: sp.EffectiveRank(0.99),
		Extreme: len(ex), Anchors01: len(a1), REnv0: cv.Size}, nil
}
