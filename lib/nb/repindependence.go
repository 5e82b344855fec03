package nb

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/law"
	"github.com/pomdpq/pomdpq/lib/partition"
	"github.com/pomdpq/pomdpq/lib/pomdp"
	"github.com/pomdpq/pomdpq/lib/quotient"
)

// RepIndependence holds the largest one-step kernel differences of
// thm:myhill-nerode (i) over probes, classes, members, actions and
// observations (see [CheckRepIndependence]).
type RepIndependence struct {
	Classes, Checks            int     // multi-member classes; (probe, member, action) checks
	OnPolicy, Weights, AllActs float64 // π's own actions: vs uniform average, random vs uniform; every action
	Worst                      RepWorst
}

// RepWorst locates where RepIndependence.AllActs is attained: probe index,
// depth, class, member (history index at that depth) and action.
type RepWorst struct {
	Probe, T, Class, Member, Action int
}

// CheckRepIndependence compares, for every probe π of fam, every class of
// p at depth < T and every member h, the one-step observation kernel from
// h's belief with the one from the class's aggregate belief (uniform
// average, quotient.ClassBeliefs): over every action (AllActs) and over
// π's own actions (OnPolicy), and compares the aggregate with a random
// convex combination of the members' beliefs (Weights, weights from rng).
func CheckRepIndependence(m *pomdp.Model, tr law.Tree, T int, fam fsc.Family, p *partition.Partition, rng *rand.Rand) (RepIndependence, error) {
	var res RepIndependence
	e, err := law.NewEngine(m, T, law.UniformStandIn)
	if err != nil {
		return res, err
	}
	q, err := quotient.New(m, T, p)
	if err != nil {
		return res, err
	}
	for t := 0; t < T; t++ {
		for c := 0; c < p.Classes(t); c++ {
			if len(p.Members(t, c)) > 1 {
				res.Classes++
			}
		}
	}
	for k := 0; k < fam.Len(); k++ {
		pi := fam.At(k)
		bs, _, err := e.Beliefs(pi)
		if err != nil {
			return res, fmt.Errorf("probe %d: %w", k, err)
		}
		cb, err := q.ClassBeliefs(pi)
		if err != nil {
			return res, fmt.Errorf("probe %d: %w", k, err)
		}
		for t := 0; t < T; t++ {
			for c := 0; c < p.Classes(t); c++ {
				res.class(m, tr, pi, RepWorst{Probe: k, T: t, Class: c}, p.Members(t, c), bs, cb[t][c], rng)
			}
		}
	}
	return res, nil
}

// class checks the members mem of one class (probe, depth and class in at)
// against its aggregate belief bbar; bs are the probe's beliefs.
func (res *RepIndependence) class(m *pomdp.Model, tr law.Tree, pi *fsc.FSC, at RepWorst, mem []int, bs [][]float64, bbar []float64, rng *rand.Rand) {
	off := tr.Offset(at.T)
	members := make([][]float64, len(mem))
	for i, h := range mem {
		members[i] = bs[off+h]
	}
	bw := RandomMixture(rng, members, m.NumStates())
	for a := 0; a < m.NumActions(); a++ {
		kbar := ObsKernel(m, bbar, a)
		for _, h := range mem {
			d := MaxAbsDiff(kbar, ObsKernel(m, bs[off+h], a))
			if d > res.AllActs {
				res.AllActs = d
				res.Worst = RepWorst{Probe: at.Probe, T: at.T, Class: at.Class, Member: h, Action: a}
			}
			if ActionProb(pi, tr.History(at.T, h), a) > 0 {
				res.Checks++
				res.OnPolicy = math.Max(res.OnPolicy, d)
				res.Weights = math.Max(res.Weights, MaxAbsDiff(kbar, ObsKernel(m, bw, a)))
			}
		}
	}
}

// RandomMixture returns a random convex combination of beliefs (each of
// length n): weights drawn from rng's exponential distribution, in order,
// and normalised (a uniform draw from the simplex).
func RandomMixture(rng *rand.Rand, beliefs [][]float64, n int) []float64 {
	out := make([]float64, n)
	w, tot := make([]float64, len(beliefs)), 0.0
	for i := range w {
		w[i] = rng.ExpFloat64()
		tot += w[i]
	}
	for i, b := range beliefs {
		for s, v := range b {
			out[s] += w[i] / tot * v
		}
	}
	return out
}
