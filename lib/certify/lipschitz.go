package certify

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// LipschitzOptions configure LawLipschitz. The zero value means 200
// samples, seed 1, stationary controllers.
type LipschitzOptions struct {
	Samples int
	Seed    uint64
	// Clock draws clock-aware controllers (stage-indexed tables) instead
	// of stationary ones.
	Clock bool
}

// LipschitzSample is one pair of controller parameters θ, θ'.
type LipschitzSample struct {
	// Scale is the mixing weight s of θ' = (1 − s)·θ + s·ψ.
	Scale float64
	// L1 is ‖θ − θ'‖₁ over every entry of the action and node tables.
	L1 float64
	// Coupling is the bound of a step-by-step coupling of the two
	// controllers,
	//
	//	Σ_{τ<T} max_n TV(α_τ(n), α'_τ(n)) + Σ_{τ<T−1} max_{n,o} TV(β_τ(n,o), β'_τ(n,o)),
	//
	// (a stationary controller uses its tables at every stage).
	Coupling float64
	// TV is the total variation between the trajectory laws P^θ and P^θ'
	// over O^T.
	TV float64
}

// LipschitzReport is the outcome of LawLipschitz.
type LipschitzReport struct {
	T, M    int
	Clock   bool
	Samples []LipschitzSample
	// Constant is the Lipschitz constant proved for θ ↦ P^θ from ℓ1 to TV:
	// T/2 for stationary controllers (each table is used at up to T
	// stages), 1/2 for clock-aware ones (each entry at most once).
	Constant float64
	// MaxRatio is max TV/L1 over the samples, MaxCouplingRatio max
	// TV/Coupling; Violations counts samples with TV > Coupling + 1e-12 or
	// TV > Constant·L1 + 1e-12 (lem:lipschitz predicts 0).
	MaxRatio, MaxCouplingRatio float64
	Violations                 int
}

// LawLipschitz checks lem:lipschitz, that θ ↦ P_M^{π_θ} is Lipschitz from
// (Θ_m, ℓ1) to (Δ(O^T), TV), with an explicit constant. It draws random
// m-node stochastic controllers θ (fsc.Random) and directions ψ (a random
// controller, or with probability ½ a random deterministic one, a vertex
// of Θ_m), mixes θ' = (1 − s)θ + sψ with s log-uniform on [10⁻³, 1],
// computes both trajectory laws exactly (package law) and compares their
// TV with the coupling bound and with Constant·‖θ − θ'‖₁.
//
// The coupling bound holds because the two controllers can be run on one
// copy of the model with their random choices maximally coupled: they
// emit the same observations until a coupled choice first differs, which
// happens at a given stage with probability at most the TV of the tables
// used there. Randomness comes from a PCG seeded with opt.Seed.
//
// Cost: two law passes over the history tree per sample.
func LawLipschitz(ctx context.Context, m *pomdp.Model, mem, T int, opt LipschitzOptions) (LipschitzReport, error) {
	if mem < 1 || T < 1 {
		return LipschitzReport{}, fmt.Errorf("certify: LawLipschitz needs m ≥ 1 and T ≥ 1, got m = %d, T = %d", mem, T)
	}
	if opt.Samples <= 0 {
		opt.Samples = 200
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	stages := 0
	rep := LipschitzReport{T: T, M: mem, Clock: opt.Clock, Constant: float64(T) / 2}
	if opt.Clock {
		stages = T
		rep.Constant = 0.5
	}
	eng, err := law.NewEngine(m, T, law.UniformStandIn)
	if err != nil {
		return rep, err
	}
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0xda942042e4dd58b5))
	nA, nO := m.NumActions(), m.NumObservations()
	for range opt.Samples {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		th := fsc.Random(rng, nA, nO, mem, stages)
		dir := fsc.Random(rng, nA, nO, mem, stages)
		if rng.IntN(2) == 0 {
			vertex(rng, dir)
		}
		s := math.Pow(10, -3*rng.Float64())
		th2 := mix(th, dir, s)
		l1, coup := paramDistance(th, th2, T)
		p1, err := eng.Compute(th)
		if err != nil {
			return rep, err
		}
		p2, err := eng.Compute(th2)
		if err != nil {
			return rep, err
		}
		tv := ot.TV(p1.Trajectory(), p2.Trajectory())
		rep.Samples = append(rep.Samples, LipschitzSample{Scale: s, L1: l1, Coupling: coup, TV: tv})
		if l1 > 0 {
			rep.MaxRatio = math.Max(rep.MaxRatio, tv/l1)
		}
		if coup > 0 {
			rep.MaxCouplingRatio = math.Max(rep.MaxCouplingRatio, tv/coup)
		}
		if !(tv <= coup+1e-12) || !(tv <= rep.Constant*l1+1e-12) {
			rep.Violations++
		}
	}
	return rep, nil
}

// vertex turns every distribution of c into a point mass drawn uniformly.
func vertex(rng *rand.Rand, c *fsc.FSC) {
	oneHot := func(p []float64) {
		k := rng.IntN(len(p))
		for i := range p {
			p[i] = 0
		}
		p[k] = 1
	}
	for _, st := range c.ActProb {
		for _, p := range st {
			oneHot(p)
		}
	}
	for _, st := range c.NextProb {
		for _, row := range st {
			for _, p := range row {
				oneHot(p)
			}
		}
	}
}

// mix returns (1 − s)·a + s·b for two stochastic controllers of one shape.
func mix(a, b *fsc.FSC, s float64) *fsc.FSC {
	c := &fsc.FSC{Nodes: a.Nodes, Stages: a.Stages, NumActions: a.NumActions, NumObs: a.NumObs}
	for tau, st := range a.ActProb {
		tab := make([][]float64, len(st))
		for n, p := range st {
			tab[n] = make([]float64, len(p))
			for i := range p {
				tab[n][i] = (1-s)*p[i] + s*b.ActProb[tau][n][i]
			}
		}
		c.ActProb = append(c.ActProb, tab)
	}
	for tau, st := range a.NextProb {
		tab := make([][][]float64, len(st))
		for n, row := range st {
			tab[n] = make([][]float64, len(row))
			for o, p := range row {
				tab[n][o] = make([]float64, len(p))
				for i := range p {
					tab[n][o][i] = (1-s)*p[i] + s*b.NextProb[tau][n][o][i]
				}
			}
		}
		c.NextProb = append(c.NextProb, tab)
	}
	return c
}

// paramDistance returns ‖θ − θ'‖₁ and the coupling bound of
// LipschitzSample for horizon T.
func paramDistance(a, b *fsc.FSC, T int) (l1, coupling float64) {
	tv := func(p, q []float64) float64 {
		s := 0.0
		for i := range p {
			s += math.Abs(p[i] - q[i])
		}
		return s
	}
	var alpha, beta []float64 // per stage: max row TV
	for tau, st := range a.ActProb {
		mx := 0.0
		for n, p := range st {
			d := tv(p, b.ActProb[tau][n])
			l1 += d
			mx = math.Max(mx, d/2)
		}
		alpha = append(alpha, mx)
	}
	for tau, st := range a.NextProb {
		mx := 0.0
		for n, row := range st {
			for o, p := range row {
				d := tv(p, b.NextProb[tau][n][o])
				l1 += d
				mx = math.Max(mx, d/2)
			}
		}
		beta = append(beta, mx)
	}
	if a.Stages == 0 { // stationary: one table used at every stage
		coupling = float64(T) * alpha[0]
		if T > 1 && len(beta) > 0 {
			coupling += float64(T-1) * beta[0]
		}
		return l1, coupling
	}
	for tau := 0; tau < T; tau++ {
		coupling += alpha[tau]
	}
	for tau := 0; tau < T-1 && tau < len(beta); tau++ {
		coupling += beta[tau]
	}
	return l1, coupling
}
