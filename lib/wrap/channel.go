package wrap

import (
	"fmt"
	"math"

	"github.com/pomdpq/pomdpq/lib/bench"
	"github.com/pomdpq/pomdpq/lib/ot"
	"github.com/pomdpq/pomdpq/lib/pomdp"
)

// Channel is an observation channel C: O → Δ(O') (def:wrapper) together
// with the ground metric d_{O'} of its outputs.
type Channel struct {
	// P[o][o'] = C(o' | o); every row sums to 1.
	P [][]float64
	// Names are the output observations O'.
	Names []string
	// Ground is d_{O'}.
	Ground ot.Ground
	// groups[g] lists the inputs sent to output g when the channel is
	// deterministic (nil otherwise).
	groups [][]int
}

// NewChannel returns the channel with rows p (p[o][o'] = C(o'|o)), output
// names and output metric g (nil: the discrete metric on the outputs).
// It copies its arguments. It returns an error naming the entry when a row is
// empty, has the wrong length, holds a negative or non-finite probability or
// does not sum to 1 within pomdp.RowTol, when a name is empty or repeated,
// or when g has the wrong size.
func NewChannel(p [][]float64, names []string, g ot.Ground) (*Channel, error) {
	if len(p) == 0 {
		return nil, fmt.Errorf("wrap: channel has no input observations")
	}
	k := len(names)
	if k == 0 {
		return nil, fmt.Errorf("wrap: channel has no output observations (give one name per output)")
	}
	seen := map[string]bool{}
	for i, n := range names {
		if n == "" || seen[n] {
			return nil, fmt.Errorf("wrap: channel output name %d (%q) is empty or repeated", i, n)
		}
		seen[n] = true
	}
	c := &Channel{P: make([][]float64, len(p)), Names: append([]string(nil), names...)}
	for o, row := range p {
		if len(row) != k {
			return nil, fmt.Errorf("wrap: channel row C(·|%d) has %d entries for %d outputs", o, len(row), k)
		}
		sum := 0.0
		for j, v := range row {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("wrap: channel entry C(%s|%d) = %v is not a probability", names[j], o, v)
			}
			sum += v
		}
		if !(math.Abs(sum-1) <= pomdp.RowTol) {
			return nil, fmt.Errorf("wrap: channel row C(·|%d) sums to %v, not 1", o, sum)
		}
		c.P[o] = append([]float64(nil), row...)
	}
	if g == nil {
		g = ot.Discrete(k)
	}
	if len(g) != k {
		return nil, fmt.Errorf("wrap: channel output metric is %d×%d for %d outputs", len(g), len(g), k)
	}
	gg, err := ot.NewGround(g)
	if err != nil {
		return nil, fmt.Errorf("wrap: channel output metric: %w", err)
	}
	c.Ground = gg
	c.groups = detGroups(c.P, k)
	return c, nil
}

// detGroups returns the preimages of a 0/1 channel, or nil.
func detGroups(p [][]float64, k int) [][]int {
	groups := make([][]int, k)
	for o, row := range p {
		out := -1
		for j, v := range row {
			switch v {
			case 0:
			case 1:
				out = j
			default:
				return nil
			}
		}
		if out < 0 {
			return nil
		}
		groups[out] = append(groups[out], o)
	}
	for _, g := range groups {
		if len(g) == 0 { // an output nobody reaches: not a merge
			return nil
		}
	}
	return groups
}

// Merge returns the deterministic channel that sends every observation of
// groups[g] to the output names[g], with output metric the quotient metric
// bench.CoarsenGround(from, groups) — the largest metric on the groups for
// which the merge is 1-Lipschitz from d_O = from (nil: discrete). groups
// must partition the inputs 0 … n−1 into non-empty sets; otherwise an error
// is returned. GridWorld's North/South merge is Merge(groups, names,
// bench.GridGround()) with groups, names = bench.GridCoarsening()
// (d(North, South) = 0.5).
func Merge(groups [][]int, names []string, from ot.Ground) (*Channel, error) {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	if from == nil {
		from = ot.Discrete(n)
	}
	if len(from) != n {
		return nil, fmt.Errorf("wrap: merge groups hold %d observations, the metric has %d", n, len(from))
	}
	g, err := bench.CoarsenGround(from, groups)
	if err != nil {
		return nil, err
	}
	p := make([][]float64, n)
	for i := range p {
		p[i] = make([]float64, len(groups))
	}
	for j, grp := range groups {
		for _, o := range grp {
			p[o][j] = 1
		}
	}
	return NewChannel(p, names, g)
}

// Identity returns the identity channel on the observations names with
// metric g (nil: discrete).
func Identity(names []string, g ot.Ground) (*Channel, error) {
	p := make([][]float64, len(names))
	for i := range p {
		p[i] = make([]float64, len(names))
		p[i][i] = 1
	}
	return NewChannel(p, names, g)
}

// Inputs returns |O|, the number of input observations.
func (c *Channel) Inputs() int { return len(c.P) }

// Outputs returns |O'|.
func (c *Channel) Outputs() int { return len(c.Names) }

// Groups returns the preimages of the outputs and true when the channel is
// deterministic (every row a 0/1 vector and every output reached).
func (c *Channel) Groups() ([][]int, bool) { return c.groups, c.groups != nil }

// Lipschitz returns the channel's Lipschitz constant between the input
// metric from (nil: discrete) and the output metric c.Ground (def:wrapper):
//
//	L_C = max_{o ≠ o'} W1(C(o), C(o'); d_{O'}) / d_O(o, o'),
//
// with 0/0 counted as 0 and x/0 = +Inf for x > 0 (a pseudometric that
// identifies two inputs the channel separates). It also returns the pair
// (o, o') attaining it (−1, −1 for a single input). Cost: one transport
// problem of size |O'| per input pair. It returns an error if from has the
// wrong size or a transport problem fails.
func (c *Channel) Lipschitz(from ot.Ground) (L float64, o1, o2 int, err error) {
	n, k := c.Inputs(), c.Outputs()
	if from == nil {
		from = ot.Discrete(n)
	}
	if len(from) != n {
		return 0, -1, -1, fmt.Errorf("wrap: input metric is %d×%d for %d channel inputs", len(from), len(from), n)
	}
	cost := make([]float64, k*k)
	for i := range k {
		for j := range k {
			cost[i*k+j] = c.Ground[i][j]
		}
	}
	o1, o2 = -1, -1
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			w, err := ot.W1(c.P[a], c.P[b], cost)
			if err != nil {
				return 0, -1, -1, fmt.Errorf("wrap: W1(C(%d), C(%d)): %w", a, b, err)
			}
			var r float64
			switch d := from[a][b]; {
			case d > 0:
				r = w / d
			case w > 1e-12:
				r = math.Inf(1)
			}
			if o1 < 0 || r > L {
				L, o1, o2 = r, a, b
			}
		}
	}
	return L, o1, o2, nil
}

// Apply returns the model m seen through the channel:
//
//	Z'(s', a, o') = Σ_o Z(s', a, o) · C(o' | o),
//
// with the states, actions, transition kernels (shared), rewards and
// initial belief of m. A deterministic channel is delegated to
// bench.CoarsenObservations (name m.Name + "/coarse"); otherwise the name is
// m.Name + "/wrapped". It returns an error when the channel's input count is
// not |O| of m. Cost O(nnz(Z)·|O'|).
func (c *Channel) Apply(m *pomdp.Model) (*pomdp.Model, error) {
	if m.NumObservations() != c.Inputs() {
		return nil, fmt.Errorf("wrap: channel has %d inputs, model %s has %d observations", c.Inputs(), m.Name, m.NumObservations())
	}
	if g, ok := c.Groups(); ok {
		return bench.CoarsenObservations(m, g, c.Names)
	}
	nS, k := m.NumStates(), c.Outputs()
	Z := make([]*pomdp.Sparse, len(m.Z))
	for a, z := range m.Z {
		if a > 0 && z == m.Z[a-1] {
			Z[a] = Z[a-1]
			continue
		}
		t := pomdp.NewTriplets(nS, k)
		row := make([]float64, k)
		for s := 0; s < nS; s++ {
			clear(row)
			cols, vals := z.Row(s)
			for i, o := range cols {
				for j, p := range c.P[o] {
					row[j] += vals[i] * p
				}
			}
			for j, v := range row {
				if v > 0 {
					t.Set(s, j, v)
				}
			}
		}
		Z[a] = t.Sparse()
	}
	out := &pomdp.Model{
		Name: m.Name + "/wrapped", States: m.States, Actions: m.Actions,
		Observations: append([]string(nil), c.Names...),
		Discount:     m.Discount, HasDiscount: m.HasDiscount,
		T: append([]pomdp.Kernel(nil), m.T...), Z: Z,
		R: copyRows(m.R), B0: append([]float64(nil), m.B0...),
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("wrap: channel applied to %s: %w", m.Name, err)
	}
	return out, nil
}

// Push sets dst to the pushforward C^{⊗k}# p of a law p over O^k (indexed
// base |O|, first observation most significant, as in package law) to a law
// over O'^k. dst must have length |O'|^k and p length |O|^k; it panics
// otherwise. Cost O(k · |O|^k · |O'|) with scratch of size max(|O|,|O'|)^k.
func (c *Channel) Push(dst, p []float64, k int) {
	n, m := c.Inputs(), c.Outputs()
	if len(p) != ipow(n, k) || len(dst) != ipow(m, k) {
		panic(fmt.Sprintf("wrap: Push over %d positions needs laws of length %d and %d, have %d and %d", k, ipow(n, k), ipow(m, k), len(p), len(dst)))
	}
	// Apply C to one coordinate at a time, least significant first:
	// cur is indexed (prefix over O^{k−j}) × (suffix over O'^j).
	cur := append([]float64(nil), p...)
	for j := 0; j < k; j++ {
		outer := ipow(n, k-j-1) // prefix positions still over O
		inner := ipow(m, j)     // suffix positions already over O'
		next := make([]float64, outer*m*inner)
		for pre := 0; pre < outer; pre++ {
			for o := 0; o < n; o++ {
				src := cur[(pre*n+o)*inner : (pre*n+o+1)*inner]
				for o2, w := range c.P[o] {
					if w == 0 {
						continue
					}
					d := next[(pre*m+o2)*inner : (pre*m+o2+1)*inner]
					for i, v := range src {
						d[i] += w * v
					}
				}
			}
		}
		cur = next
	}
	copy(dst, cur)
}

func ipow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

func copyRows(r [][]float64) [][]float64 {
	out := make([][]float64, len(r))
	for i, row := range r {
		out[i] = append([]float64(nil), row...)
	}
	return out
}
