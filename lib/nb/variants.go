package nb

import (
	"context"
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/value"
)

// Variant copies m into dense arrays named name with its states reordered
// (new state i is old state perm[i]), lets edit change them (nil: no
// change) and builds the result. perm must be a permutation of m's states.
func Variant(m *pomdp.Model, name string, perm []int, edit func(d *pomdp.Dense)) (*pomdp.Model, error) {
	nS := m.NumStates()
	if err := checkPerm(perm, nS); err != nil {
		return nil, fmt.Errorf("nb: Variant %s: %w", name, err)
	}
	d := pomdp.Dense{Name: name, Actions: m.Actions, Observations: m.Observations,
		States: make([]string, nS), B0: make([]float64, nS), R: make([][]float64, nS)}
	for i, s := range perm {
		d.States[i], d.B0[i], d.R[i] = m.States[s], m.B0[s], append([]float64(nil), m.R[s]...)
	}
	for a := range m.Actions {
		ta, za := make([][]float64, nS), make([][]float64, nS)
		for i, s := range perm {
			ta[i], za[i] = make([]float64, nS), make([]float64, m.NumObservations())
			for j, s2 := range perm {
				ta[i][j] = m.TransitionProb(s, a, s2)
			}
			for o := range za[i] {
				za[i][o] = m.ObsProb(s, a, o)
			}
		}
		d.T, d.Z = append(d.T, ta), append(d.Z, za)
	}
	if edit != nil {
		edit(&d)
	}
	return pomdp.New(d)
}

// checkPerm says why perm is not a permutation of 0 … n−1.
func checkPerm(perm []int, n int) error {
	if len(perm) != n {
		return fmt.Errorf("permutation of %d states for a model of %d", len(perm), n)
	}
	seen := make([]bool, n)
	for i, s := range perm {
		if s < 0 || s >= n || seen[s] {
			return fmt.Errorf("perm[%d] = %d: not a permutation of 0…%d", i, s, n-1)
		}
		seen[s] = true
	}
	return nil
}

// TigerVariants returns the six models of the prop:pseudometric check,
// with their names: Tiger with listening accuracy 0.85, 0.80 and 0.70,
// Tiger with b0 = (0.3, 0.7), Tiger whose open actions do not reset
// ("no-reset"), and Tiger with its states swapped and listening costing 2
// ("relabelled").
func TigerVariants() ([]string, []*pomdp.Model, error) {
	var models []*pomdp.Model
	for _, c := range [][2]float64{{0.85, 0.5}, {0.80, 0.5}, {0.70, 0.5}, {0.85, 0.3}} {
		b, err := bench.Tiger(c[0], c[1])
		if err != nil {
			return nil, nil, err
		}
		models = append(models, b.Model)
	}
	noReset, err := Variant(models[0], "no-reset", []int{0, 1}, func(d *pomdp.Dense) {
		for a := 1; a <= 2; a++ {
			d.T[a] = [][]float64{{1, 0}, {0, 1}}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	relabelled, err := Variant(models[0], "relabelled", []int{1, 0}, func(d *pomdp.Dense) {
		for s := range d.R {
			d.R[s][0] = -2
		}
	})
	return []string{"M85", "M80", "M70", "b0=0.3", "no-reset", "relabelled"}, append(models, noReset, relabelled), err
}

// LipschitzRun is one family of [TigerLipschitz]: its name, horizon and
// estimate.
type LipschitzRun struct {
	Family string
	T      int
	value.Lipschitz
}

// TigerLipschitz runs value.EstimateLipschitz on Tiger's own reward for
// the stationary m = 1, clock-aware m = 1 and stationary m ≤ 2 families at
// T = 2 and 3.
func TigerLipschitz(ctx context.Context) ([]LipschitzRun, error) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		return nil, err
	}
	var runs []LipschitzRun
	for _, T := range []int{2, 3} {
		for _, mk := range []func() (fsc.Family, error){
			func() (fsc.Family, error) { return fsc.NewStationary(3, 2, 1, fsc.Options{}) },
			func() (fsc.Family, error) { return fsc.NewClock(3, 2, 1, T, fsc.Options{}) },
			func() (fsc.Family, error) { return fsc.NewStationary(3, 2, 2, fsc.Options{}) },
		} {
			fam, err := mk()
			if err != nil {
				return nil, err
			}
			l, err := value.EstimateLipschitz(ctx, b.Model, fam, T, value.LipschitzOptions{})
			if err != nil {
				return nil, fmt.Errorf("%s, T = %d: %w", fam, T, err)
			}
			runs = append(runs, LipschitzRun{fam.String(), T, l})
		}
	}
	return runs, nil
}

// ThetaSweep returns, for each θ of thetas, the W1 distance (discrete
// metric) between Tiger's suffix laws after L and after R at T = 2, and the
// difference of their beliefs in the first state, under the one-node
// stochastic controller (θ, (1−θ)·split, (1−θ)·(1−split)) (uniform
// stand-in).
func ThetaSweep(thetas []float64, split float64) (w1, dbel []float64, err error) {
	b, err := bench.Lookup("tiger")
	if err != nil {
		return nil, nil, err
	}
	e, err := law.NewEngine(b.Model, 2, law.UniformStandIn)
	if err != nil {
		return nil, nil, err
	}
	off := e.Tree().Offset(1)
	for _, th := range thetas {
		c := fsc.Mixed(2, []float64{th, (1 - th) * split, (1 - th) * (1 - split)})
		l, err := e.Compute(c)
		if err != nil {
			return nil, nil, fmt.Errorf("θ = %g: %w", th, err)
		}
		w, err := ot.SeqW1(ot.Discrete(2), 1, l.Suffix(1, 0), l.Suffix(1, 1))
		if err != nil {
			return nil, nil, fmt.Errorf("θ = %g: %w", th, err)
		}
		bel, _, err := e.Beliefs(c)
		if err != nil {
			return nil, nil, fmt.Errorf("θ = %g: %w", th, err)
		}
		w1, dbel = append(w1, w), append(dbel, bel[off][0]-bel[off+1][0])
	}
	return w1, dbel, nil
}

// LipschitzFrame tabulates value.EstimateLipschitz results, one row per
// family name fams[i], horizon Ts[i] and estimate ls[i]; slices of
// different lengths are an error (in the DataFrame's Err).
func LipschitzFrame(fams []string, Ts []int, ls []value.Lipschitz) dataframe.DataFrame {
	if len(fams) != len(ls) || len(Ts) != len(ls) {
		return dataframe.DataFrame{Err: fmt.Errorf("nb: LipschitzFrame: %d families, %d horizons, %d estimates", len(fams), len(Ts), len(ls))}
	}
	var pairs, viol []int
	var lr, fin, rr []float64
	for _, l := range ls {
		pairs, viol = append(pairs, l.Pairs), append(viol, l.Violations)
		lr, fin, rr = append(lr, l.LR), append(fin, l.Finite), append(rr, l.RewardRange)
	}
	return dataframe.New(series.New(fams, series.String, "family Π"), series.New(Ts, series.Int, "T"),
		series.New(pairs, series.Int, "(probe, pair)s compared"), series.New(viol, series.Int, "zero-distance violations"),
		series.New(lr, series.Float, "L̂_R"), series.New(fin, series.Float, "largest finite ratio"),
		series.New(rr, series.Float, "reward range"))
}
