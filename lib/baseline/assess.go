package baseline

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
	"github.com/pomdpq/pomdpq/lib/value"
)

// Indicator returns the trace objective G(o_{1:T}) = 1[o_{1:T} = seq]
// (seq is copied; its length is the horizon it is meant for, and traces of
// another length score 0). It is in G_obs (def:gobs) and, under the
// additive sequence metric built from a ground metric whose smallest
// distance between two observations is δ, (1/δ)-Lipschitz on O^T, so
// |E_P G − E_Q G| ≤ W1(P, Q)/δ.
func Indicator(seq []int) value.TraceObjective {
	s := append([]int(nil), seq...)
	return value.TraceFunc{Label: fmt.Sprintf("1[o = %v]", s), F: func(obs, _ []int) float64 {
		if len(obs) != len(s) {
			return 0
		}
		for t, o := range obs {
			if o != s[t] {
				return 0
			}
		}
		return 1
	}}
}

// AllFirst returns Indicator of the all-first-observation sequence
// (0, …, 0) of length T: G = 1[o_1 = … = o_T = o^{(0)}], the functional
// whose expectation reproduces the paper's "empirical value error" and
// planning-value columns (see the package documentation).
func AllFirst(T int) value.TraceObjective {
	return value.TraceFunc{Label: "1[o_1 = … = o_T = first observation]", F: func(obs, _ []int) float64 {
		if len(obs) != T {
			return 0
		}
		for _, o := range obs {
			if o != 0 {
				return 0
			}
		}
		return 1
	}}
}

// Score is the assessment of one partition against the model it
// partitions.
type Score struct {
	// Classes is the partition's total class count.
	Classes int
	// D = max_π W1(P_M^π, P_Q^π) over the trajectory laws on O^T, Q the
	// quotient seen by π (tab:baseline-full's D^W_{m,T}); DProbe is the
	// family index of the first probe attaining it.
	D      float64
	DProbe int
	// ValueError = max_π |V_M^π − V_Q^π| for the objective, attained first
	// by ErrProbe; VM[i] and VQ[i] are probe i's two values.
	ValueError float64
	ErrProbe   int
	VM, VQ     []float64
	// Diameter is the largest within-class distance d(h, h') of the
	// matrices passed to Assess (0 when none were), the ε for which the
	// partition is an ε-partition.
	Diameter float64
	Seconds  float64
}

// Assess scores partition p of m's history tree of depth T under the
// probe family fam: for every probe π it builds the quotient seen by π
// (quotient.New, then ForProbe: class beliefs are uniform averages of the
// beliefs under π of the members possible under π, Proposition C.1), and
// compares
//
//	D          = max_π W1_g( P_M^π(O_{1:T}), P_Q^π(O_{1:T}) )   (sequence metric from g; nil: discrete)
//	value error = max_π | E_M^π[obj] − E_Q^π[obj] |
//
// (thm:value-bound bounds the second by L_R·T·ε for an ε-partition). obj
// may be any objective value.Evaluate understands; nil skips the values.
// d, when not nil, holds per-depth history distances used only to report
// the partition's diameter.
//
// Cost per probe: one quotient construction (O(classes·|A|·(nnz(T) +
// |S|·|O|))), two law passes, one transport problem on O^T and two
// evaluations. Errors: those of quotient.New, law.Compute, ot.SeqW1 and
// value.Evaluate, a family that does not fit m, ctx's error.
func Assess(ctx context.Context, m *pomdp.Model, g ot.Ground, fam fsc.Family, T int, p *partition.Partition, obj value.Objective, d []partition.Matrix) (Score, error) {
	start := time.Now()
	if g == nil {
		g = ot.Discrete(m.NumObservations())
	}
	q, err := quotient.New(m, T, p)
	if err != nil {
		return Score{}, err
	}
	sc := Score{Classes: p.Total(), DProbe: -1, ErrProbe: -1}
	if obj != nil {
		sc.VM, sc.VQ = make([]float64, fam.Len()), make([]float64, fam.Len())
	}
	eng, err := law.NewEngine(m, T, law.UniformStandIn)
	if err != nil {
		return Score{}, err
	}
	var solver ot.Solver
	for i := 0; i < fam.Len(); i++ {
		if err := ctx.Err(); err != nil {
			return Score{}, err
		}
		c := fam.At(i)
		qm, err := q.ForProbe(c)
		if err != nil {
			return Score{}, err
		}
		lm, err := eng.Compute(c)
		if err != nil {
			return Score{}, err
		}
		lq, err := law.Compute(qm, c, T, law.UniformStandIn)
		if err != nil {
			return Score{}, err
		}
		w, err := solver.SeqW1(g, T, lm.Trajectory(), lq.Trajectory())
		if err != nil {
			return Score{}, fmt.Errorf("baseline: W1 between the trajectory laws of M and its quotient under probe %d: %w", i, err)
		}
		if w.Value > sc.D+1e-15 || sc.DProbe < 0 {
			sc.D, sc.DProbe = w.Value, i
		}
		if obj != nil {
			vm, err := value.Evaluate(m, c, T, obj)
			if err != nil {
				return Score{}, err
			}
			vq, err := value.Evaluate(qm, c, T, obj)
			if err != nil {
				return Score{}, err
			}
			sc.VM[i], sc.VQ[i] = vm, vq
			if e := math.Abs(vm - vq); e > sc.ValueError+1e-15 || sc.ErrProbe < 0 {
				sc.ValueError, sc.ErrProbe = e, i
			}
		}
	}
	for t := range d {
		if t > T {
			break
		}
		for i := 0; i < d[t].N; i++ {
			for j := i + 1; j < d[t].N; j++ {
				if p.Labels[t][i] == p.Labels[t][j] {
					sc.Diameter = max(sc.Diameter, d[t].At(i, j))
				}
			}
		}
	}
	sc.Seconds = time.Since(start).Seconds()
	return sc, nil
}
