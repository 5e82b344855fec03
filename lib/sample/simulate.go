package sample

import (
	"math/rand/v2"
	"sort"

	"github.com/pomdpq/pomdpq/lib/fsc"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// stepper draws next states and observations of one model. It is
// read-only after construction and shared by all workers.
type stepper struct {
	m     *pomdp.Model
	trans []transition // per action
}

// transition draws s' ~ T(s, a, ·) for one action.
type transition interface {
	next(s int, r *rand.PCG) int
}

// uniform returns a uniform float64 in [0, 1) from r, exactly as
// rand.Rand.Float64 does (without its interface call).
func uniform(r *rand.PCG) float64 { return float64(r.Uint64()<<11>>11) / (1 << 53) }

func newStepper(m *pomdp.Model) *stepper {
	st := &stepper{m: m, trans: make([]transition, m.NumActions())}
	// Actions often share one kernel (Network Monitoring): build each once.
	built := map[pomdp.Kernel]transition{}
	for a, k := range m.T {
		if tr, ok := built[k]; ok {
			st.trans[a] = tr
			continue
		}
		var tr transition
		switch k := k.(type) {
		case *pomdp.Kron:
			tr = newKronTransition(k)
		default:
			tr = sparseTransition{pomdp.SparseKernel(k)}
		}
		built[k] = tr
		st.trans[a] = tr
	}
	return st
}

// sparseTransition scans a sparse row: O(nnz of the row) per draw.
type sparseTransition struct{ k *pomdp.Sparse }

func (t sparseTransition) next(s int, r *rand.PCG) int {
	cols, vals := t.k.Row(s)
	return pick(cols, vals, uniform(r))
}

// pick returns the column whose cumulative mass first exceeds u (the last
// one when rounding leaves u above the row's total).
func pick(cols []int, vals []float64, u float64) int {
	acc := 0.0
	for k, v := range vals {
		acc += v
		if u < acc {
			return cols[k]
		}
	}
	return cols[len(cols)-1]
}

// kronTransition draws each factor's digit independently: O(Σ_k d_k) per
// draw instead of a scan over |S| columns.
type kronTransition struct {
	factors [][][]float64
	strides []int
	// binary: every factor is 2×2 (Network Monitoring); p0[f][x] is
	// F_f(x, 0), and digits are bits.
	binary bool
	p0     [][2]float64
}

func newKronTransition(k *pomdp.Kron) kronTransition {
	t := kronTransition{factors: k.Factors, strides: make([]int, len(k.Factors)), binary: true}
	stride := 1
	for f, fac := range k.Factors {
		t.strides[f] = stride
		stride *= len(fac)
		if len(fac) != 2 {
			t.binary = false
		}
	}
	if t.binary {
		for _, fac := range k.Factors {
			t.p0 = append(t.p0, [2]float64{fac[0][0], fac[1][0]})
		}
	}
	return t
}

func (t kronTransition) next(s int, r *rand.PCG) int {
	out := 0
	if t.binary {
		for f, p := range t.p0 {
			// digit 0 with probability F_f(x, 0), else 1 (the row sums to 1)
			if !(uniform(r) < p[(s>>f)&1]) {
				out |= 1 << f
			}
		}
		return out
	}
	for f, fac := range t.factors {
		d := len(fac)
		x := (s / t.strides[f]) % d
		row := fac[x]
		u, acc, y := uniform(r), 0.0, d-1
		for j, v := range row {
			acc += v
			if u < acc {
				y = j
				break
			}
		}
		out += y * t.strides[f]
	}
	return out
}

// observe draws o ~ Z(s', a, ·).
func (st *stepper) observe(s2, a int, r *rand.PCG) int {
	cols, vals := st.m.Z[a].Row(s2)
	return pick(cols, vals, uniform(r))
}

// start is the distribution a law's trajectories start from: a fixed node
// and a belief over states, or a joint over (node, state) (node-major), as a
// cumulative table searched by bisection.
type start struct {
	cdf   []float64
	nS    int
	node  int  // used when joint is false
	joint bool // cdf is over (node, state)
}

func cumulative(p []float64) []float64 {
	c := make([]float64, len(p))
	acc := 0.0
	for i, v := range p {
		acc += v
		c[i] = acc
	}
	return c
}

// draw returns a start (node, state).
func (s *start) draw(r *rand.PCG) (node, state int) {
	u := uniform(r) * s.cdf[len(s.cdf)-1]
	k := sort.SearchFloat64s(s.cdf, u)
	// SearchFloat64s returns the first index with cdf ≥ u; skip entries of
	// zero mass that share the value u exactly.
	for k < len(s.cdf)-1 && s.cdf[k] <= u {
		k++
	}
	if s.joint {
		return k / s.nS, k % s.nS
	}
	return s.node, k
}

// simulate runs controller c for k steps from (node, state) at stage tau0
// and returns the base-|O| index of the observed suffix (o_1 most
// significant).
func (st *stepper) simulate(c *fsc.FSC, tau0, k, node, state int, r *rand.PCG) int {
	nO := st.m.NumObservations()
	x := 0
	det := c.Deterministic()
	for u := 0; u < k; u++ {
		tau := tau0 + u
		var a int
		if det {
			a = c.Action(tau, node)
		} else {
			a = drawIndex(c.ActProb[stage(c, tau)][node], uniform(r))
		}
		state = st.trans[a].next(state, r)
		o := st.observe(state, a, r)
		x = x*nO + o
		if u+1 < k {
			if det {
				node = c.NextNode(tau, node, o)
			} else if s := stage(c, tau); s < len(c.NextProb) {
				node = drawIndex(c.NextProb[s][node][o], uniform(r))
			}
		}
	}
	return x
}

// stage is the table index a controller uses at time τ.
func stage(c *fsc.FSC, tau int) int {
	if c.Clock() {
		return tau
	}
	return 0
}

// drawIndex returns the index whose cumulative probability first exceeds u.
func drawIndex(p []float64, u float64) int {
	acc := 0.0
	last := 0
	for i, v := range p {
		if v == 0 {
			continue
		}
		acc += v
		last = i
		if u < acc {
			return i
		}
	}
	return last
}
